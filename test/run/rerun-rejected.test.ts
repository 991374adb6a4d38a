// A re-run decides by the earlier build's conclusion as the step states it, never by bk-ci's raw
// status: a build whose review was rejected ends STAGE_SUCCESS with an end time, like a success,
// and is never adopted. It is retried from the stage whose review refused it (the review is asked
// again), or the step fails saying how to go on. And the words of the waits a retry starts.
// run() in this process against the emulator, on the shared clock.
import { afterAll, describe, expect, it } from 'vitest';
import { failedWith } from '../support/expect-step.ts';
import { cleanupRuns, P_APP, stepIn } from '../support/in-process.ts';
import { releaseRun } from '../support/rerun-step.ts';
import { reviewedPipeline, useWorld } from '../support/world.ts';

afterAll(cleanupRuns);

const w = useWorld();
const step = (inputs: Record<string, string>, attempt?: number) =>
  stepIn(w, { ...P_APP, retries: '0' })(inputs, attempt === undefined ? {} : { env: releaseRun(attempt) });
const start = (attempt: number, inputs: Record<string, string> = {}) => step({ operation: 'start-build', ...inputs }, attempt);
const retries = () => w.emu.requests({ path: 'build_retry' }).map((r) => Object.fromEntries(new URLSearchParams(r.query)));

/** Attempt 1 of the step: its build paused at the review of stage Release, which alice rejects; it ends rejected. */
async function rejectedAttempt() {
  w.pipeline(reviewedPipeline({ groups: [{ name: 'QA', reviewers: ['alice'] }] }));
  const first = await start(1, { wait: 'false' });
  const id = first.outputs['build-id'] ?? '';
  w.clock.t += 2000;
  const decided = await step({ operation: 'review-build', 'build-id': id, decision: 'reject', suggestion: 'not today' });
  expect(decided.errors).toEqual([]);
  w.clock.t += 5000;
  const seen = await step({ operation: 'build-status', 'build-id': id });
  expect(seen.outputs).toMatchObject({ 'build-status': 'STAGE_SUCCESS', conclusion: 'rejected' });
  return id;
}

describe('a re-run after a rejected review', () => {
  it('is not taken as it is: retried from the rejected stage, whose review is asked again', async () => {
    const id = await rejectedAttempt();
    const second = await start(2, { 'on-review': 'fail' });
    expect(second.outputs).toMatchObject({ rerun: 'retried', 'build-id': id, 'execute-count': '2', conclusion: 'waiting-review' });
    expect(second.stdout).not.toMatch(/taken as it is/);
    expect(second.stdout).toContain(
      `re-run (attempt 2): build #1 (${id}) of attempt 1 was rejected (stage 'Release' was rejected by alice: not today): retrying it in bk-ci`,
    );
    expect(second.stdout).toContain(`bk-ci retried build #1 (${id}) from stage-3: following its run 2`);
    const [sent, ...more] = retries();
    expect(more).toEqual([]);
    expect(sent).toMatchObject({ pipelineId: 'p-app', buildId: id, taskId: 'stage-3' });
    expect(sent?.failedContainer).toBeUndefined();
    expect(w.emu.requests({ path: 'build_start' })).toHaveLength(1);
  });

  it('retry-all retries the whole build', async () => {
    await rejectedAttempt();
    const second = await start(2, { 'on-review': 'fail', 'on-rerun': 'retry-all' });
    expect(second.outputs).toMatchObject({ rerun: 'retried', conclusion: 'waiting-review' });
    expect(retries()[0]?.taskId).toBeUndefined();
  });

  it('bk-ci refuses to retry it: the step fails with the reason and says on-rerun: start starts a new build', async () => {
    await rejectedAttempt();
    const p = w.emu.builds.pipelines.get('demo/p-app');
    if (p) p.retryError = { http: 400, status: 2101114, message: 'stage非失败状态，不能进行重试' };
    const second = await start(2);
    failedWith(
      second,
      /bk-ci refused to retry build b-\w+: that stage did not fail: bk-ci retries a stage only when it failed or was cancelled \(bk-ci said: 2101114 .*\)\. on-rerun: start starts a new build instead$/,
    );
    expect(second.outputs).toMatchObject({ rerun: 'none', conclusion: 'failure' });
    expect(w.emu.requests({ path: 'build_start' })).toHaveLength(1);
  });
});

describe('the words of a wait on a build given by id', () => {
  it('build-status and retry-build name the build by its number in "waiting for …"', async () => {
    w.pipeline({ result: 'FAILED', retryResult: 'SUCCEED' });
    const first = await start(1);
    const id = first.outputs['build-id'] ?? '';
    const status = await step({ operation: 'build-status', 'build-id': id, wait: 'true' });
    expect(status.stdout).toContain(`waiting for build #1 (${id}): timeout 30m`);
    const retried = await step({ operation: 'retry-build', 'build-id': id });
    expect(retried.stdout).toContain(`waiting for build #1 (${id}): timeout 30m`);
    expect(retried.stdout.indexOf('waiting for')).toBeLessThan(retried.stdout.indexOf('0ms: '));
  });
});
