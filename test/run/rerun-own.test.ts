// A re-run continues only a build the step can prove its own: started as the step's user, with the
// start parameters it sends. The message is free text anyone who may start the pipeline can write,
// and predictable: a copy is never adopted, followed, retried or stopped. And what a re-run says
// when it finds nothing of its own. run() in this process against the emulator, on the shared clock.
import { afterAll, describe, expect, it } from 'vitest';
import type { StepResult } from '../support/dist-runner.ts';
import { cleanupRuns, P_APP, stepIn } from '../support/in-process.ts';
import { releaseRun } from '../support/rerun-step.ts';
import { doorOptions, type PipelineSeed, useWorld } from '../support/world.ts';

afterAll(cleanupRuns);

/** Declares TARGET and CHANNEL (default beta): what a start does not give takes its default, what it does not declare is dropped. */
const DECLARED: PipelineSeed = {
  params: { TARGET: '', CHANNEL: 'beta' },
  phases: [
    { status: 'QUEUE', ms: 1000 },
    { status: 'RUNNING', ms: 3000 },
  ],
};

const w = useWorld({ users: ['alice', 'mallory'] });
const start = (attempt: number, inputs: Record<string, string> = {}): Promise<StepResult> =>
  stepIn(w, { operation: 'start-build', ...P_APP, retries: '0', 'build-params': 'TARGET: linux' })(inputs, { env: releaseRun(attempt) });
/** A start by another user of the pipeline, outside any workflow: his parameters, and a message of his choosing. */
const startAs = (user: string, buildParams: Record<string, string>, more: Record<string, string> = {}) =>
  stepIn(w, { operation: 'start-build', ...P_APP, retries: '0' })({
    'bk-token': w.tokens[user] ?? '',
    'build-params': JSON.stringify(buildParams),
    ...more,
  });
const messageOf = (id: string | undefined) => w.emu.builds.builds.get(id ?? '')?.buildMsg ?? '';
const requests = (path: string) => w.emu.requests({ path });

describe("someone else's build is never the step's", () => {
  it('a succeeded build another user started, with his own parameters and a copied message, is not adopted: a new build, and why', async () => {
    w.pipeline(DECLARED);
    const ours = await start(1, { wait: 'false' });
    const copied = messageOf(ours.outputs['build-id']).replace('attempt 1', 'attempt 2');
    const his = await startAs('mallory', { TARGET: 'linux', CHANNEL: 'prod', BK_CI_BUILD_MSG: copied });
    expect(his.outputs.conclusion).toBe('success');
    w.clock.t += 60_000;
    const third = await start(3);
    expect(third.outputs).toMatchObject({ rerun: 'adopted', 'build-id': ours.outputs['build-id'] });
    expect(third.outputs['build-id']).not.toBe(his.outputs['build-id']);
    expect(third.stdout).toMatch(
      /build #2 \(b-\w+\) of attempt 2 \(mallory started it, not alice\) carries this step's message but is not its own: it is left alone/,
    );
  });

  it('the only build carrying the message is his: a new build, the log says why, and his build id, variables and artifacts are not output', async () => {
    w.pipeline({ ...DECLARED, variables: { VERSION: '6.6.6' } });
    const ours = await start(1, { wait: 'false' });
    const message = messageOf(ours.outputs['build-id']);
    // Attempt 1's build gone from the history (past its keep time): only the copy is left.
    w.emu.builds.builds.delete(ours.outputs['build-id'] ?? '');
    const his = await startAs('mallory', { TARGET: 'linux', BK_CI_BUILD_MSG: message });
    const second = await start(2, { variables: 'VERSION' });
    expect(second.outputs).toMatchObject({ rerun: 'none', conclusion: 'success' });
    expect(second.outputs['build-id']).not.toBe(his.outputs['build-id']);
    expect(second.stdout).toMatch(
      /re-run \(attempt 2\): no build of an earlier attempt of this step was found \(1 builds of this run's job looked at\); build #\d+ \(b-\w+\) of attempt 1 \(mallory started it, not alice\) carries this step's message but is not its own, so none is taken; starting a new build/,
    );
    expect(requests('build_start')).toHaveLength(3);
  });

  it('a failed copy is not retried, and a running one is not followed (nor stopped on cancel): nothing of his is touched', async () => {
    w.pipeline({ ...DECLARED, result: 'FAILED' });
    const ours = await start(1, { wait: 'false' });
    const message = messageOf(ours.outputs['build-id']);
    w.emu.builds.builds.delete(ours.outputs['build-id'] ?? '');
    const failed = await startAs('mallory', { TARGET: 'linux', BK_CI_BUILD_MSG: message });
    expect(failed.outputs.conclusion).toBe('failure');
    const second = await start(2, { wait: 'false' });
    expect(second.outputs).toMatchObject({ rerun: 'none' });
    expect(requests('build_retry')).toHaveLength(0);
    w.pipeline({ ...DECLARED, phases: [{ status: 'RUNNING', ms: 600_000 }] });
    const running = await startAs(
      'mallory',
      { TARGET: 'linux', BK_CI_BUILD_MSG: message.replace('attempt 1', 'attempt 2') },
      { wait: 'false' },
    );
    w.emu.builds.builds.delete(second.outputs['build-id'] ?? '');
    const third = await start(3, { wait: 'false' });
    expect(third.outputs).toMatchObject({ rerun: 'none' });
    expect(third.outputs['build-id']).not.toBe(running.outputs['build-id']);
    expect(requests('build_stop')).toHaveLength(0);
  });

  it('the same user with other parameters (one the step does not send, set off its default) is not the step either', async () => {
    w.pipeline(DECLARED);
    const ours = await start(1, { wait: 'false' });
    const b = w.emu.builds.builds.get(ours.outputs['build-id'] ?? '');
    if (b === undefined) throw new Error('no build');
    // The same message, the same material: only CHANNEL differs from what the step would start with.
    b.params = { ...b.params, CHANNEL: 'prod' };
    const second = await start(2);
    expect(second.outputs).toMatchObject({ rerun: 'none' });
    expect(second.stdout).toMatch(
      /\(it was started with CHANNEL set, which this step does not send\) carries this step's message but is not its own/,
    );
    b.params = { ...b.params, CHANNEL: 'beta', TARGET: 'mac' };
    const third = await start(3);
    expect(third.stdout).toMatch(/attempt 1 \(it was started with another TARGET than this step sends\)/);
  });

  it('behind the BlueKing API Gateway without user-id the starter cannot be checked: a new build, saying to set user-id', async () => {
    const g = await import('../support/world.ts').then((m) => m.worldForTest(doorOptions('apigw')));
    g.pipeline(DECLARED);
    const step = (attempt: number, more: Record<string, string> = {}) =>
      stepIn(g, { operation: 'start-build', ...P_APP, gateway: 'bk-apigateway', 'build-params': 'TARGET: linux', ...more })(
        {},
        { env: releaseRun(attempt) },
      );
    await step(1);
    const second = await step(2);
    expect(second.outputs).toMatchObject({ rerun: 'none' });
    expect(second.stdout).toMatch(/the user this step calls bk-ci as is not known \(set user-id\)/);
    // With it, attempt 2's build (the latest, alice's) is proven and taken.
    const third = await step(3, { 'user-id': 'alice' });
    expect(third.outputs).toMatchObject({ rerun: 'adopted', 'build-id': second.outputs['build-id'] });
  });
});

describe('a history and a build_detail that disagree: nothing is taken', () => {
  it.each([
    ['a succeeded build whose build_detail says another pipeline: not adopted', 'SUCCEED'],
    ['a failed one (a door not listed): not retried', 'FAILED'],
  ])('%s, nothing started, and why', async (_, result) => {
    w.pipeline({ ...DECLARED, result });
    await start(1);
    w.emu.faults.add({ pattern: /build_detail$/, times: Infinity, fault: { kind: 'patch', data: { pipelineId: 'p-other' } } });
    const second = await start(2);
    expect(second.outputs.rerun ?? 'none').toBe('none');
    expect(second.code).toBe(1);
    expect(second.errors[0]).toMatch(/build_detail of build b-\w+ .*pipeline p-other.*not trusted/);
    expect(second.errors[0]).toMatch(/nothing was started/);
    expect(requests('build_start')).toHaveLength(1);
    expect(requests('build_retry')).toHaveLength(0);
  });
});

describe('when a re-run finds no build of its own, the log says why', () => {
  it('the job started one with other build-params (a vars value changed): named, with what to do', async () => {
    w.pipeline(DECLARED);
    const first = await start(1);
    const second = await start(2, { 'build-params': 'TARGET: mac' });
    expect(second.outputs).toMatchObject({ rerun: 'none' });
    expect(second.stdout).toContain(
      `build #1 (${first.outputs['build-id']}), started by attempt 1 of this job, had other build-params (one changed since, a vars or secrets value say): only a build started with the same build-params is continued. Give it the build-params it had to continue it, or retry it on purpose with operation: retry-build, build-id: ${first.outputs['build-id']}; starting a new build`,
    );
  });

  it('another rerun-key: named', async () => {
    w.pipeline(DECLARED);
    await start(1, { 'rerun-key': 'leg-0' });
    const second = await start(2, { 'rerun-key': 'leg-0-again' });
    expect(second.stdout).toMatch(
      /started by attempt 1 of this job, had another rerun-key: only a build of the same rerun-key is continued/,
    );
  });
});

describe('lengths and characters as bk-ci reads them', () => {
  it('a rerun-key of emoji: attempt 2 finds attempt 1 build (bk-ci cuts the message at 255 UTF-16 units; it fits them)', async () => {
    w.pipeline(DECLARED);
    const key = '🚀'.repeat(150);
    const first = await start(1, { 'rerun-key': key });
    const stored = messageOf(first.outputs['build-id']);
    expect(stored.length).toBeLessThanOrEqual(255);
    expect(stored).toMatch(/ attempt 1 \[[0-9a-f-]{13}\]$/);
    const second = await start(2, { 'rerun-key': key });
    expect(second.outputs).toMatchObject({ rerun: 'adopted', 'build-id': first.outputs['build-id'] });
    expect(requests('build_start')).toHaveLength(1);
  });

  it("a backslash in rerun-key reaches build_histories' LIKE filter as itself: a start whose answer was lost is found by its message", async () => {
    w.pipeline(DECLARED);
    w.emu.faults.add({ method: 'POST', pattern: /build_start$/, after: true, fault: { kind: 'reset' } });
    const key = String.raw`C:\build\100%_done`;
    const first = await start(1, { 'rerun-key': key });
    expect(first.errors).toEqual([]);
    expect(first.stdout).toMatch(/found the build this step started in the pipeline's history/);
    const sent = new URLSearchParams(requests('build_histories')[0]?.query).get('buildMsg') ?? '';
    expect(sent).toContain(String.raw`key C:\\build\\100\%\_done) attempt 1 [`);
    const second = await start(2, { 'rerun-key': key });
    expect(second.outputs).toMatchObject({ rerun: 'adopted', 'build-id': first.outputs['build-id'] });
  });
});
