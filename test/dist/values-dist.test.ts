// The built action, as the runner runs it: text sent as written or refused before any request,
// a job summary that cannot be written never fails work that was done, JSON too deep is said so.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/server.ts';
import { cleanupSteps, installAction, runStep, unescapeData } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';

let actionDir: string;
beforeAll(async () => {
  actionDir = await installAction();
  expect(existsSync(join(actionDir, 'node_modules'))).toBe(false);
});
afterAll(async () => {
  await rm(actionDir, { recursive: true, force: true });
  await cleanupSteps();
});

let emu: Emulator;
let bkToken: string;
beforeEach(async () => {
  emu = await startEmulator({ flavour: 'bkci' });
  bkToken = emu.addUser('alice').bkToken;
  emu.seedProject({ englishName: 'demo', projectName: 'Demo', creator: 'alice' });
  emu.seedPipeline({ projectId: 'demo', pipelineId: 'p-app', phases: [{ status: 'RUNNING', ms: 500 }] });
});
afterEach(() => emu.close());

const warningsOf = (stdout: string): string[] => [...stdout.matchAll(/^::warning::(.*)$/gm)].map((m) => unescapeData(m[1] ?? ''));

describe('the built action', () => {
  // "(#42)" is no comment (YAML's needs a space before "#"): it goes as written.
  it('a comment marker in a pasted value is refused before any request, with how to quote it; quoted, it is sent whole', async () => {
    const inputs = {
      operation: 'start-build',
      'base-url': emu.url,
      'bk-token': bkToken,
      'project-id': 'demo',
      'pipeline-id': 'p-app',
      wait: 'false',
    };
    const refused = await runStep(actionDir, { inputs: { ...inputs, 'build-params': 'TITLE: Release v2 (#42)\nNOTE: fix #123' } });
    failedWith(
      refused,
      /NOTE is written "fix #123", but YAML reads " #" as the start of a comment, so only "fix" would be sent: quote the value to send it whole \(NOTE: "fix #123"\)/,
    );
    expect(refused.errors[0]).toMatch(/No request was sent\.$/);
    expect(emu.requests({ path: '/build_start' })).toHaveLength(0);
    const sent = await runStep(actionDir, { inputs: { ...inputs, 'build-params': 'TITLE: Release v2 (#42)\nNOTE: "fix #123"' } });
    expect(sent.errors).toEqual([]);
    expect(JSON.parse(emu.requests({ path: '/build_start' })[0]?.body ?? '')).toMatchObject({
      TITLE: 'Release v2 (#42)',
      NOTE: 'fix #123',
    });
  }, 30_000);

  it('a job summary that cannot be written is a warning when the work was done: the project is created, the step passes', async () => {
    const r = await runStep(actionDir, {
      inputs: {
        operation: 'create-project',
        'base-url': emu.url,
        'bk-token': bkToken,
        project: '{"englishName":"made","projectName":"Made"}',
      },
      // A path under a file: no summary can be appended there.
      env: { GITHUB_STEP_SUMMARY: join(actionDir, 'action.yml', 'summary') },
    });
    expect(r.errors).toEqual([]);
    expect(r.code).toBe(0);
    expect(warningsOf(r.stdout).join('\n')).toMatch(/^the job summary could not be written: /m);
    expect(JSON.parse(r.outputs.data ?? '')).toMatchObject({ englishName: 'made' });
  }, 30_000);

  it('an answer nested deeper than the action reads is "too deep", with the limit, not "invalid JSON"', async () => {
    const deep = `{"status":0,"data":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    emu.faults.add({ pattern: /\/projects\/demo$/, fault: { kind: 'status', status: 200, contentType: 'json', body: deep } });
    const r = await runStep(actionDir, {
      inputs: { operation: 'get-project', 'base-url': emu.url, 'bk-token': bkToken, 'project-id': 'demo', retries: '0' },
    });
    failedWith(r, /JSON too deep: its arrays and objects nest more than 512 levels, the most the action reads/);
    expect(r.errors.join('\n')).not.toMatch(/not valid JSON|invalid JSON/i);
  }, 30_000);

  it('a build value is output as it is and bounded; a link bk-ci hands back that is not http(s) is left out, never a link', async () => {
    const big = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`V${i}`, `value-${i}-${'x'.repeat(2000)}`]));
    emu.seedPipeline({
      projectId: 'demo',
      pipelineId: 'p-app',
      phases: [{ status: 'RUNNING', ms: 500 }],
      variables: { ...big, TAG: 'v2.3.4', APP_VERSION: '2.3.4' },
      artifacts: [{ path: 'app/App.ipa', size: 1024 }],
    });
    emu.faults.add({
      pattern: /user_download_url$/,
      fault: { kind: 'patch', data: { url: 'data:text/html,<script>x</script>', url2: 'data:x' } },
    });
    const r = await runStep(actionDir, {
      inputs: {
        operation: 'start-build',
        'base-url': emu.url,
        'bk-token': bkToken,
        'project-id': 'demo',
        'pipeline-id': 'p-app',
        'poll-interval': '1s',
        logs: 'none',
        variables: ['TAG', 'APP_VERSION', ...Object.keys(big)].join(','),
        'mask-variables': '*',
        artifacts: 'true',
      },
    });
    expect(r.errors).toEqual([]);
    const variables = JSON.parse(r.outputs.variables ?? '') as Record<string, string>;
    expect(Buffer.byteLength(r.outputs.variables ?? '')).toBeLessThanOrEqual(64 * 1024);
    expect(variables).toMatchObject({ TAG: 'v2.3.4', APP_VERSION: '2.3.4', V0: big.V0 });
    const n = Object.keys(variables).length;
    expect(n).toBeLessThan(42);
    const warnings = warningsOf(r.stdout).join('\n');
    expect(warnings).toContain(`the variables output holds the first ${n} of 42 entries (64 KiB at most)`);
    expect(warnings).toMatch(/APP_VERSION \(a short number\) is not masked/);
    expect(JSON.parse(r.outputs.artifacts ?? '')).toEqual([expect.objectContaining({ name: 'App.ipa', url: '' })]);
    expect(warnings).toMatch(/some artifact links bk-ci gave are not absolute http\(s\) URLs; their url is empty/);
    expect(r.summary).not.toContain('data:text/html');
  }, 30_000);
});
