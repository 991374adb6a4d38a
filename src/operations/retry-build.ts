import type { z } from '../base/schema.ts';
import { BUILD_RETRY } from '../bkci/builds.ts';
import { checkProblems, retryBuildInputs } from '../inputs/build.ts';
import { downloadProblems } from '../inputs/download.ts';
import { type RetryWhat, retryOnce } from '../pipeline/rerun-retry.ts';
import { followGivenBuild, GIVEN_BUILD_ENDPOINTS, GIVEN_BUILD_OUTPUTS, givenBuildRows } from './follow-given-build.ts';
import { type Context, defineOperation, waitRow } from './operation.ts';

/** The inputs as parsed: what the run gets. */
export type RetryBuildTask = z.output<typeof retryBuildInputs>;

const whatOf = (t: RetryBuildTask): RetryWhat =>
  t.retry === 'failed-jobs' || t.retry === 'all' ? { kind: t.retry } : { kind: 'task', taskId: t.retry, skip: t['skip-failed'] };

/** Retries a finished build in bk-ci (same id, a new run) and, with wait, follows the new run. */
export default defineOperation({
  inputs: retryBuildInputs,
  endpoints: [BUILD_RETRY, ...GIVEN_BUILD_ENDPOINTS],
  outputs: GIVEN_BUILD_OUTPUTS,
  credentials: 'any',
  describe: (t, settings) => [
    ...givenBuildRows(t),
    ['retry', `${t.retry}${t['skip-failed'] ? ', skipping its failed steps' : ''}`],
    waitRow(t.wait, settings.timeoutMs),
  ],
  waits: (t) => t.wait,
  check: (t, settings) => [...checkProblems(t), ...downloadProblems(t, settings, { waitsForEnd: true })],
  run: (t, ctx) => runRetryBuild(t, ctx),
});

/** What the step does once its inputs are read. */
async function runRetryBuild(t: RetryBuildTask, ctx: Context) {
  const projectId = t['project-id'];
  const id = t['build-id'];
  const retried = await retryOnce({ projectId, pipelineId: t['pipeline-id'], id, what: whatOf(t) }, ctx);
  ctx.log.info(
    `bk-ci retried ${retried.what} of build ${id}${retried.how === 'model' ? ' (learnt from the build, the answer was lost)' : ''}: its run ${retried.executeCount}`,
  );
  return followGivenBuild(t, ctx, { executeCount: retried.executeCount, newRun: retried.executeCount });
}
