// A re-run through the built action, as the runner runs it (dist/index.js, no node_modules): attempt
// 1 of a step, then attempt 2 of the same step, against the emulator in real time. What only
// processes show: two runs of the step that share nothing but the runner's environment (the run,
// its attempt, the job) and bk-ci's history find the same build, and only their own: a copy of the
// message by another user is not taken, a key of emoji survives bk-ci's cut, a rejected build is
// retried rather than adopted, a retry task bk-ci does not know is never sent, and a cancel while
// build_retry is in flight stops the run it started, within the runner's grace. The decisions'
// other cases are run() in process: test/run/rerun*.test.ts, test/run/retry-cancel.test.ts.
// The cases are independent steps against worlds of their own: they run at the same time.
import { afterAll, beforeAll, describe, it, type TestContext } from 'vitest';
import { type RunStepOptions, runCancelledWhen, runStep, useInstalledAction } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { rerunStep, seedRerunPipeline } from '../support/rerun-step.ts';
import { type World, worldForTest } from '../support/world.ts';

const action = useInstalledAction({ beforeAll, afterAll });

const world = (test: TestContext) => worldForTest({ realTime: true, users: ['alice', 'mallory'] }, test);
const attempt = (w: World, n: number, inputs: Record<string, string> = {}) => {
  const step = rerunStep(w, n);
  return runStep(action(), { ...step, inputs: { ...step.inputs, ...inputs } });
};

/** Runs the step and sends SIGINT once bk-ci holds its build_retry; the exit measured from the signal. */
const cancelDuringRetry = (w: World, options: RunStepOptions) =>
  runCancelledWhen(action(), options, () => w.emu.requests({ path: '/build_retry' }).length > 0);

describe.concurrent('dist: a re-run of the workflow', () => {
  it('attempt 1 succeeded: attempt 2 takes its build; nothing started', async (test) => {
    const { expect } = test;
    const w = await world(test);
    seedRerunPipeline(w, 'SUCCEED');
    const first = await attempt(w, 1);
    expect(first.outputs).toMatchObject({ conclusion: 'success', rerun: 'none' });
    const second = await attempt(w, 2);
    expect(second.code).toBe(0);
    expect(second.outputs).toMatchObject({
      rerun: 'adopted',
      'build-id': first.outputs['build-id'],
      conclusion: 'success',
      'build-num': '1',
    });
    expect(w.emu.requests({ path: 'build_start' })).toHaveLength(1);
  });

  it("another user's build with a copied message is not taken: attempt 2 starts its own and says why", async (test) => {
    const { expect } = test;
    const w = await world(test);
    seedRerunPipeline(w, 'SUCCEED');
    const first = await attempt(w, 1, { wait: 'false' });
    const message = w.emu.builds.builds.get(first.outputs['build-id'] ?? '')?.buildMsg ?? '';
    w.emu.builds.builds.delete(first.outputs['build-id'] ?? '');
    const copy = await runStep(action(), {
      inputs: {
        operation: 'start-build',
        ...w.connection(),
        'bk-token': w.tokens.mallory ?? '',
        'pipeline-id': 'p-app',
        'build-params': JSON.stringify({ TARGET: 'linux', BK_CI_BUILD_MSG: message }),
        wait: 'false',
      },
    });
    expect(copy.outputs['build-id']).toMatch(/^b-/);
    const second = await attempt(w, 2);
    expect(second.code).toBe(0);
    expect(second.outputs).toMatchObject({ rerun: 'none', conclusion: 'success' });
    expect(second.outputs['build-id']).not.toBe(copy.outputs['build-id']);
    expect(second.stdout).toMatch(
      /\(mallory started it, not alice\) carries this step's message but is not its own, so none is taken; starting a new build/,
    );
  });

  it("a rerun-key of emoji: the message fits bk-ci's 255 UTF-16 units, and attempt 2 finds attempt 1's build", async (test) => {
    const { expect } = test;
    const w = await world(test);
    seedRerunPipeline(w, 'SUCCEED');
    const key = { 'rerun-key': '🚀'.repeat(150) };
    const first = await attempt(w, 1, key);
    expect((w.emu.builds.builds.get(first.outputs['build-id'] ?? '')?.buildMsg ?? '').length).toBeLessThanOrEqual(255);
    const second = await attempt(w, 2, key);
    expect(second.outputs).toMatchObject({ rerun: 'adopted', 'build-id': first.outputs['build-id'] });
  });

  it('attempt 1 rejected in review: attempt 2 retries it from the rejected stage (the review asked again), never adopts it', async (test) => {
    const { expect } = test;
    const w = await world(test);
    w.pipeline({
      stages: ['Build', 'Release'],
      phases: [
        { status: 'RUNNING', ms: 50, stage: 'Build' },
        { status: 'STAGE_SUCCESS', stage: 'Release', review: { groups: [{ name: 'QA', reviewers: ['alice'] }] } },
        { status: 'RUNNING', ms: 50, stage: 'Release' },
      ],
      rejectRunMs: 0,
    });
    const first = await attempt(w, 1, { wait: 'false' });
    const id = first.outputs['build-id'] ?? '';
    await new Promise((resolve) => setTimeout(resolve, 200));
    const base = { ...w.connection(), 'build-id': id };
    await runStep(action(), { inputs: { ...base, operation: 'review-build', decision: 'reject', suggestion: 'not today' } });
    const second = await attempt(w, 2, { 'on-review': 'fail' });
    expect(second.outputs).toMatchObject({ rerun: 'retried', 'build-id': id, 'execute-count': '2', conclusion: 'waiting-review' });
    expect(second.stdout).toContain(
      `build #1 (${id}) of attempt 1 was rejected (stage 'Release' was rejected by alice: not today): retrying it in bk-ci`,
    );
    expect(second.stdout).not.toContain('taken as it is');
  });

  it('retry-build with retry: failed (meant failed-jobs) is refused before anything is sent, naming failed-jobs and the stages', async (test) => {
    const { expect } = test;
    const w = await world(test);
    seedRerunPipeline(w, 'FAILED');
    const { id } = w.emu.seedBuild({ pipelineId: 'p-app', status: 'FAILED', userId: 'alice' });
    const r = await runStep(action(), { inputs: { operation: 'retry-build', ...w.connection(), 'build-id': id, retry: 'failed' } });
    failedWith(
      r,
      /^bk-ci retry-build failed: retry: failed is no task of build b-\w+ \(did you mean failed-jobs\?\).*its stages: stage-1, stage-2 \(Build\), stage-3 \(Release\)$/,
      expect,
    );
    expect(w.emu.requests({ path: 'build_retry' })).toHaveLength(0);
  });

  it('retry-build cancelled while build_retry is in flight: its late answer names the new run, which is stopped within 7 s of the signal', async (test) => {
    const { expect } = test;
    const w = await world(test);
    w.pipeline({ phases: [{ status: 'RUNNING', ms: 600_000 }], stages: ['Build', 'Release'] });
    const { id } = w.emu.seedBuild({ pipelineId: 'p-app', status: 'FAILED', userId: 'alice' });
    w.emu.faults.add({ pattern: /build_retry$/, fault: { kind: 'delay', ms: 1200 } });
    const { r, exitMs } = await cancelDuringRetry(w, { inputs: { operation: 'retry-build', ...w.connection(), 'build-id': id } });
    expect(exitMs).toBeLessThan(7000);
    failedWith(
      r,
      new RegExp(
        `^bk-ci retry-build failed: cancelled while the retry was in flight; bk-ci retried the failed jobs of stage-3 of build ${id}, run 2; the build ${id} was stopped in bk-ci \\(stop-on-cancel\\)$`,
      ),
      expect,
    );
    expect(r.outputs).toMatchObject({ 'build-id': id, 'execute-count': '2', conclusion: 'cancelled', 'build-status': 'CANCELED' });
    const b = w.emu.builds.builds.get(id);
    expect(b && w.emu.builds.state(b).status).toBe('CANCELED');
  });

  it('a re-run cancelled while its build_retry is in flight, the answer lost: the model shows the new run, stopped; rerun: retried', async (test) => {
    const { expect } = test;
    const w = await world(test);
    w.pipeline({ phases: [{ status: 'RUNNING', ms: 600_000 }], stages: ['Build', 'Release'] });
    // Attempt 1 left its build running; it was cancelled in bk-ci since: attempt 2 retries it.
    const first = await attempt(w, 1, { wait: 'false' });
    const id = first.outputs['build-id'] ?? '';
    w.emu.builds.stop('demo', id, 'p-app', 'alice');
    w.emu.faults.add({ pattern: /build_retry$/, after: true, fault: { kind: 'hang' } });
    const { r, exitMs } = await cancelDuringRetry(w, rerunStep(w, 2));
    expect(exitMs).toBeLessThan(7000);
    failedWith(
      r,
      new RegExp(
        `cancelled while the retry was in flight; bk-ci retried the failed jobs of stage-2 of build #1 \\(${id}\\) \\(learnt from the build, the answer was lost\\), run 2; the build ${id} was stopped in bk-ci \\(stop-on-cancel\\)$`,
      ),
      expect,
    );
    expect(r.outputs).toMatchObject({ rerun: 'retried', 'execute-count': '2', conclusion: 'cancelled' });
    expect(w.emu.requests({ path: 'build_retry' })).toHaveLength(1);
  });
});
