import type { z } from '../base/schema.ts';
import { BUILD_RETRY } from '../bkci/builds.ts';
import { checkProblems, retryBuildInputs } from '../inputs/build.ts';
import { downloadProblems } from '../inputs/download.ts';
import { buildOf } from '../pipeline/build.ts';
import { notApplied, stopCancelled } from '../pipeline/cancelled-write.ts';
import { type RetryResult, type RetryWhat, retriedWords, retryOnce } from '../pipeline/rerun-retry.ts';
import { type BuildFollow, FOLLOW_ENDPOINTS, followFor } from './build-follow.ts';
import { followGivenBuild, GIVEN_BUILD_OUTPUTS, givenBuild, givenBuildRows } from './given-build.ts';
import { type Context, defineOperation, waitRow } from './operation.ts';

/** The inputs as parsed: what the run gets. */
type RetryBuildTask = z.output<typeof retryBuildInputs>;

const whatOf = (t: RetryBuildTask): RetryWhat =>
  t.retry === 'failed-jobs' || t.retry === 'all' ? { kind: t.retry } : { kind: 'task', taskId: t.retry, skip: t['skip-failed'] };

/** Retries a finished build in bk-ci (same id, a new run) and, with wait, follows the new run; stops it if the job is cancelled. */
export default defineOperation({
  inputs: retryBuildInputs,
  endpoints: [BUILD_RETRY, ...FOLLOW_ENDPOINTS],
  outputs: GIVEN_BUILD_OUTPUTS,
  credentials: 'any',
  describe: (task, settings) => [
    ...givenBuildRows(task),
    ['retry', `${task.retry}${task['skip-failed'] ? ', skipping its failed steps' : ''}`],
    waitRow(task.wait, settings.timeoutMs),
  ],
  waits: (t) => t.wait,
  check: (t, settings) => [...checkProblems(t), ...downloadProblems(t, settings, { waitsForEnd: true })],
  run: (t, ctx) => runRetryBuild(t, ctx),
});

/** What the step does once its inputs are read: the retry sent once, then its new run followed (or stopped, when the job was cancelled meanwhile). */
async function runRetryBuild(task: RetryBuildTask, ctx: Context) {
  const ref = { projectId: task['project-id'], pipelineId: task['pipeline-id'], id: task['build-id'] };
  let retried: RetryResult;
  try {
    retried = await retryOnce({ ...ref, what: whatOf(task) }, ctx);
  } catch (e) {
    throw notApplied(e, `build (${ref.id}): not retried`, buildOf(ref), ctx);
  }
  const done = retriedWords(retried, `build ${ref.id}`);
  const { executeCount } = retried;
  const newRun = (follow: BuildFollow) => ({ ...givenBuild(task, follow), num: retried.num, executeCount });
  if (retried.cancelled) {
    const write = { write: 'the retry', done: `${done}, run ${executeCount}`, stopOnCancel: task['stop-on-cancel'] };
    throw await stopCancelled({ build: newRun(followFor(task, ctx)), ...write }, ctx);
  }
  ctx.log.info(`${done}: its run ${executeCount}`);
  const follow = followFor(task, ctx);
  return followGivenBuild(newRun(follow), follow, { newRun: executeCount, stopOnCancel: task['stop-on-cancel'] });
}
