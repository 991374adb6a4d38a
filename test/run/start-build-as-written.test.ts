// What start-build sends and how a lost answer is met: run() in this process on the emulator, with
// the clock the step and the emulator share. build-params go as written, or are refused before any
// request with how to quote them; a start whose answer a gateway lost is found, never sent again.
import { afterAll, describe, expect, it } from 'vitest';
import { failedWith } from '../support/expect-step.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { useWorld } from '../support/world.ts';

afterAll(cleanupRuns);

const w = useWorld();

const start = (inputs: Record<string, string>) =>
  runInProcess({ inputs: { operation: 'start-build', ...w.connection(), 'pipeline-id': 'p-quick', ...inputs }, clock: w.clock });

describe('start-build sends what was written', () => {
  it('sends build-params exactly as written: a tag 1.10, a short SHA, 007', async () => {
    w.pipeline({ pipelineId: 'p-quick', phases: [{ status: 'RUNNING', ms: 200 }] });
    const r = await start({
      'poll-interval': '1s',
      'build-params': 'APP_VERSION: 1.10\nSHA: 7e12345\nBUILD: 007\nFLAG: yes\nQUOTED: "2.0"',
    });
    expect(r.errors).toEqual([]);
    expect(JSON.parse(w.emu.requests({ path: '/build_start' })[0]?.body ?? '')).toMatchObject({
      APP_VERSION: '1.10',
      SHA: '7e12345',
      BUILD: '007',
      FLAG: 'yes',
      QUOTED: '2.0',
    });
    expect(r.outputs.conclusion).toBe('success');
  });

  // "(#42)" is no comment (YAML's needs a space before "#"): it goes as written.
  it('a comment marker in a pasted value is refused before any request, with how to quote it; quoted, it is sent whole', async () => {
    w.pipeline({ pipelineId: 'p-quick', phases: [{ status: 'RUNNING', ms: 500 }] });
    const refused = await start({ wait: 'false', 'build-params': 'TITLE: Release v2 (#42)\nNOTE: fix #123' });
    failedWith(
      refused,
      /NOTE is written "fix #123", but YAML reads " #" as the start of a comment, so only "fix" would be sent: quote the value to send it whole \(NOTE: "fix #123"\)/,
    );
    expect(refused.errors[0]).toMatch(/No request was sent\.$/);
    expect(w.emu.requests({ path: '/build_start' })).toHaveLength(0);
    const sent = await start({ wait: 'false', 'build-params': 'TITLE: Release v2 (#42)\nNOTE: "fix #123"' });
    expect(sent.errors).toEqual([]);
    expect(JSON.parse(w.emu.requests({ path: '/build_start' })[0]?.body ?? '')).toMatchObject({
      TITLE: 'Release v2 (#42)',
      NOTE: 'fix #123',
    });
  });

  it('a start whose answer a gateway lost (504 after bk-ci took it) is found, not sent again', async () => {
    w.pipeline({ pipelineId: 'p-quick', phases: [{ status: 'RUNNING', ms: 200 }] });
    w.emu.faults.add({ pattern: /build_start$/, after: true, fault: { kind: 'status', status: 504, contentType: 'html' } });
    const r = await start({ 'poll-interval': '1s' });
    expect(r.errors).toEqual([]);
    expect(w.emu.requests({ path: '/build_start' })).toHaveLength(1);
    expect(r.outputs).toMatchObject({ 'build-id': [...w.emu.builds.builds.keys()][0], conclusion: 'success' });
  });
});
