// A re-run of the workflow continues the build an earlier attempt of the same step started: run() in
// this process against the emulator, attempt 1 played by the step itself (or seeded into the
// pipeline's history), on a clock the step and the emulator share.
import { afterAll, describe, expect, it } from 'vitest';
import type { StepResult } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { cleanupRuns, P_APP, stepIn } from '../support/in-process.ts';
import { releaseRun } from '../support/rerun-step.ts';
import { type PipelineSeed, T0, useWorld } from '../support/world.ts';

const DAY = 86_400_000;
/** A build that fails in its second stage; retried, it passes. */
const FLAKY: PipelineSeed = {
  phases: [
    { status: 'QUEUE', ms: 1000 },
    { status: 'RUNNING', ms: 3000 },
  ],
  stages: ['Build', 'Release'],
  result: 'FAILED',
  retryResult: 'SUCCEED',
  errorInfoList: [{ taskName: 'Release', errorCode: 2199001, errorMsg: 'host unreachable' }],
};

afterAll(cleanupRuns);

const w = useWorld();

const pipeline = (seed: PipelineSeed = {}) => w.pipeline(seed);
const start = (attempt: number, inputs: Record<string, string> = {}): Promise<StepResult> =>
  stepIn(w, { operation: 'start-build', ...P_APP, retries: '0' })(inputs, { env: releaseRun(attempt) });
const calls = (path: string) => w.emu.requests({ path }).map((r) => new URLSearchParams(r.query));
const builds = () => [...w.emu.builds.builds.values()];

describe('a re-run of the workflow (on-rerun: resume)', () => {
  it('attempt 1 failed: attempt 2 retries its failed jobs in bk-ci (the same build, run 2) and follows the new run to its end', async () => {
    pipeline(FLAKY);
    const first = await start(1);
    expect(first.outputs).toMatchObject({ conclusion: 'failure', rerun: 'none', 'execute-count': '1' });
    const id = first.outputs['build-id'];
    w.clock.t += 60_000;
    const second = await start(2);
    expect(second.errors).toEqual([]);
    expect(second.outputs).toMatchObject({
      'build-id': id,
      'build-num': '1',
      conclusion: 'success',
      rerun: 'retried',
      'execute-count': '2',
      'build-status': 'SUCCEED',
    });
    expect(builds()).toHaveLength(1);
    expect(w.emu.requests({ path: 'build_start' })).toHaveLength(1);
    const [retry, ...more] = calls('build_retry');
    expect(more).toHaveLength(0);
    expect(Object.fromEntries(retry ?? [])).toMatchObject({ buildId: id, pipelineId: 'p-app', taskId: 'stage-3', failedContainer: 'true' });
    expect(second.stdout).toMatch(/re-run \(attempt 2\): build #1 \(b-\w+\) of attempt 1 ended FAILED: retrying it in bk-ci/);
    expect(second.stdout).toMatch(/bk-ci retried the failed jobs of stage-3 of build #1 .*: following its run 2/);
    expect(second.summary).toMatch(/Re-run.*retried the failed jobs of stage-3, run 2/);
  });

  it('retry-all retries the whole build (no taskId); a third attempt retries the same build again, run 3', async () => {
    pipeline({ ...FLAKY, retryResult: 'FAILED' });
    await start(1);
    w.clock.t += 60_000;
    const second = await start(2, { 'on-rerun': 'retry-all' });
    expect(second.outputs).toMatchObject({ rerun: 'retried', 'execute-count': '2', conclusion: 'failure' });
    const query = calls('build_retry')[0];
    expect(query?.has('taskId')).toBe(false);
    expect(query?.has('failedContainer')).toBe(false);
    w.clock.t += 60_000;
    const third = await start(3);
    expect(third.outputs).toMatchObject({ rerun: 'retried', 'execute-count': '3' });
    expect(builds()).toHaveLength(1);
  });

  it('attempt 1 succeeded: attempt 2 takes it as it is; nothing is started or retried, outputs as if followed', async () => {
    pipeline({ variables: { VERSION: '1.2.3' } });
    const first = await start(1, { variables: 'VERSION' });
    w.clock.t += 60_000;
    const second = await start(2, { variables: 'VERSION' });
    expect(second.errors).toEqual([]);
    expect(second.outputs).toMatchObject({
      rerun: 'adopted',
      'build-id': first.outputs['build-id'],
      'build-num': '1',
      conclusion: 'success',
      'execute-count': '1',
      variables: '{"VERSION":"1.2.3"}',
    });
    expect(w.emu.requests({ path: 'build_start' })).toHaveLength(1);
    expect(w.emu.requests({ path: 'build_retry' })).toHaveLength(0);
    expect(second.stdout).toMatch(/build #1 \(b-\w+\) of attempt 1 ended SUCCEED: taken as it is; nothing is started or retried/);
    expect(second.summary).toMatch(/taken from attempt 1/);
  });

  it('attempt 1 left its build running (wait: false): attempt 2 follows it to its end', async () => {
    pipeline({ phases: [{ status: 'RUNNING', ms: 10_000 }] });
    const first = await start(1, { wait: 'false' });
    expect(first.outputs).toMatchObject({ conclusion: 'running' });
    const second = await start(2);
    expect(second.outputs).toMatchObject({ rerun: 'followed', 'build-id': first.outputs['build-id'], conclusion: 'success' });
    expect(w.emu.requests({ path: 'build_start' })).toHaveLength(1);
  });

  it('no earlier build of this step: a new build, and the log says so; on-rerun: start never looks', async () => {
    pipeline();
    const second = await start(2);
    expect(second.outputs).toMatchObject({ rerun: 'none', conclusion: 'success' });
    expect(second.stdout).toMatch(/no build of an earlier attempt of this step was found .*; starting a new build/);
    const third = await start(3, { 'on-rerun': 'start' });
    expect(third.outputs).toMatchObject({ rerun: 'none' });
    expect(builds()).toHaveLength(2);
    expect(w.emu.requests({ path: 'build_histories' })).toHaveLength(1);
    expect(third.stdout).not.toMatch(/re-run/);
  });

  it('bk-ci refuses the retry (a build older than 28 days): the step fails with the reason in words and says on-rerun: start starts a new build', async () => {
    pipeline(FLAKY);
    await start(1);
    w.clock.t += 28 * DAY + 60_000;
    w.emu.addUser('alice');
    w.bkToken = w.emu.addUser('alice').bkToken;
    const second = await start(2);
    failedWith(
      second,
      /bk-ci refused to retry build b-\w+: bk-ci retries only builds that started in the last 28 days \(bk-ci said: 2101258 .+\)\. on-rerun: start starts a new build instead/,
    );
    expect(second.outputs).toMatchObject({ rerun: 'none', conclusion: 'failure' });
    expect(builds()).toHaveLength(1);
  });

  it('a locked pipeline (2101047) and a model gone (2101039) are said in words', async () => {
    const p = pipeline(FLAKY);
    await start(1);
    p.retryError = { http: 400, status: 2101039, message: '流水线: 流水线的模型不存在' };
    failedWith(await start(2), /the build's pipeline model is gone in bk-ci .*on-rerun: start starts a new build instead/);
    p.retryError = undefined;
    p.locked = true;
    failedWith(await start(3), /the pipeline is locked \(disabled\).*bk-ci said: 2101047.*on-rerun: start/);
  });
});

describe('the retry is never sent twice', () => {
  it("its answer lost after bk-ci took it: the build's model says run 2, which is followed", async () => {
    pipeline(FLAKY);
    await start(1);
    w.emu.faults.add({ method: 'POST', pattern: /build_retry$/, after: true, fault: { kind: 'status', status: 502, contentType: 'html' } });
    const second = await start(2);
    expect(second.errors).toEqual([]);
    expect(second.outputs).toMatchObject({ rerun: 'retried', 'execute-count': '2', conclusion: 'success' });
    expect(w.emu.requests({ path: 'build_retry' })).toHaveLength(1);
    expect(second.stdout).toMatch(/the answer to the retry was lost .*learnt from the build, the answer was lost/s);
  });

  it('its answer lost and the build still shows run 1: the step says the retry may have been applied, and does not send it again', async () => {
    pipeline(FLAKY);
    const first = await start(1);
    w.emu.faults.add({ method: 'POST', pattern: /build_retry$/, fault: { kind: 'reset' } });
    const second = await start(2);
    failedWith(second, /the retry may have been applied: the answer to build_retry of b-\w+ was lost .* It is not sent again/);
    expect(w.emu.requests({ path: 'build_retry' })).toHaveLength(1);
    // The build it may have retried is named; `rerun` says nothing it does not know (not "none").
    expect(second.outputs['build-id']).toBe(first.outputs['build-id']);
    expect(second.outputs.rerun).toBeUndefined();
    expect(second.summary).toMatch(/re-run: the retry may have been applied/);
  });

  it("the old run's FAILED right after the retry never ends the new run's wait", async () => {
    pipeline(FLAKY);
    const first = await start(1);
    // bk-ci's status still shows run 1's end for the first polls after the retry.
    const stale = { status: 'FAILED', startTime: T0 + 1000, endTime: T0 + 4000 };
    w.emu.faults.add({ method: 'GET', pattern: /build_status$/, times: 2, fault: { kind: 'patch', data: stale } });
    const second = await start(2);
    expect(second.errors).toEqual([]);
    expect(second.outputs).toMatchObject({
      'build-id': first.outputs['build-id'],
      rerun: 'retried',
      conclusion: 'success',
      'build-status': 'SUCCEED',
    });
  });
});

describe('matrix legs', () => {
  const leg = (attempt: number, target: string, extra: Record<string, string> = {}) =>
    start(attempt, { 'build-params': `TARGET: ${target}`, ...extra });

  it('legs whose build-params differ each find their own build', async () => {
    pipeline({ ...FLAKY, retryResult: 'SUCCEED' });
    const linux = await leg(1, 'linux');
    const mac = await leg(1, 'mac');
    const again = await leg(2, 'mac');
    expect(again.outputs).toMatchObject({ rerun: 'retried', 'build-id': mac.outputs['build-id'] });
    expect(calls('build_retry').map((q) => q.get('buildId'))).toEqual([mac.outputs['build-id']]);
    expect(linux.outputs['build-id']).not.toBe(mac.outputs['build-id']);
  });

  it('legs with the same build-params: without rerun-key two builds fit, so a new one is started and the log says why; with it each finds its own', async () => {
    pipeline(FLAKY);
    await leg(1, 'all');
    await leg(1, 'all');
    const guess = await leg(2, 'all');
    expect(guess.outputs).toMatchObject({ rerun: 'none' });
    expect(guess.stdout).toMatch(
      /2 builds of attempt 1 fit this step \(b-\w+, b-\w+\): matrix legs with the same build-params need rerun-key/,
    );
    expect(builds()).toHaveLength(3);
    const zero = await leg(1, 'all', { 'rerun-key': '0' });
    await leg(1, 'all', { 'rerun-key': '1' });
    const keyed = await leg(2, 'all', { 'rerun-key': '0' });
    expect(keyed.outputs).toMatchObject({ rerun: 'retried', 'build-id': zero.outputs['build-id'] });
  });

  it("a build seeded into the history with an earlier attempt's message is found by it", async () => {
    pipeline(FLAKY);
    const first = await leg(1, 'linux', { wait: 'false' });
    const { BK_CI_BUILD_MSG: msg = '', ...params } = w.emu.builds.builds.get(first.outputs['build-id'] ?? '')?.params ?? {};
    // Started as attempt 2 would have: the same user, the same start values.
    const seeded = w.emu.seedBuild({
      pipelineId: 'p-app',
      buildMsg: msg.replace('attempt 1', 'attempt 2'),
      status: 'SUCCEED',
      userId: 'alice',
      params,
    });
    const third = await leg(3, 'linux');
    expect(third.outputs).toMatchObject({ rerun: 'adopted', 'build-id': seeded.id });
  });
});
