import type { z } from '../base/schema.ts';
import { BUILD_RETRY, type BuildRef } from '../bkci/builds.ts';
import { checkProblems, retryBuildInputs } from '../inputs/build.ts';
import { downloadProblems } from '../inputs/download.ts';
import { buildUrl, consoleRoot } from '../pipeline/build-declarations.ts';
import { notApplied, stopCancelled } from '../pipeline/cancelled-write.ts';
import { type Retried, type RetryWhat, retriedWords, retryOnce } from '../pipeline/rerun-retry.ts';
import { followGivenBuild, GIVEN_BUILD_ENDPOINTS, GIVEN_BUILD_OUTPUTS, givenBuildRows } from './follow-given-build.ts';
import { type Context, defineOperation, waitRow } from './operation.ts';

/** The inputs as parsed: what the run gets. */
export type RetryBuildTask = z.output<typeof retryBuildInputs>;

const whatOf = (t: RetryBuildTask): RetryWhat =>
  t.retry === 'failed-jobs' || t.retry === 'all' ? { kind: t.retry } : { kind: 'task', taskId: t.retry, skip: t['skip-failed'] };

/** Retries a finished build in bk-ci (same id, a new run) and, with wait, follows the new run; stops it if the job is cancelled. */
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
  const b: BuildRef = { projectId: t['project-id'], pipelineId: t['pipeline-id'], id: t['build-id'] };
  let retried: Retried;
  try {
    retried = await retryOnce({ ...b, what: whatOf(t) }, ctx);
  } catch (e) {
    throw notApplied(e, `build (${b.id}): not retried`, b, ctx);
  }
  const done = retriedWords(retried, `build ${b.id}`);
  const run = { num: retried.num, executeCount: retried.executeCount };
  if (retried.cancelled) {
    const url = buildUrl(
      consoleRoot(t['console-url'], ctx.settings.gateway, ctx.settings.baseUrl, ctx.log),
      b.projectId,
      b.pipelineId,
      b.id,
    );
    throw await stopCancelled(
      { ...b, ...run, url, write: 'the retry', done: `${done}, run ${run.executeCount}`, stopOnCancel: t['stop-on-cancel'] },
      ctx,
    );
  }
  ctx.log.info(`${done}: its run ${retried.executeCount}`);
  return followGivenBuild(t, ctx, { ...run, newRun: retried.executeCount, stopOnCancel: t['stop-on-cancel'] });
}
