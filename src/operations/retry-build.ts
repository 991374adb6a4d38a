import { z } from '../base/schema.ts';
import { BUILD_RETRY } from '../bkci/builds.ts';
import { checkInputs, checkProblems, followInputs, givenBuildInputs } from '../inputs/build.ts';
import { bool } from '../inputs/fields.ts';
import { type RetryWhat, retryOnce } from '../pipeline/rerun-retry.ts';
import { followGivenBuild, GIVEN_BUILD_ENDPOINTS, GIVEN_BUILD_OUTPUTS, givenBuildRows } from './follow-given-build.ts';
import { type Context, defineOperation, waitRow } from './operation.ts';

/**
 * `retry`: failed-jobs (the failed stage's failed jobs, bk-ci's failedContainer), all (the whole
 * build), or a task id bk-ci's taskId takes: a stage (stage-N), a job, a step (stepId) or an element.
 */
const retryInput = z
  .string()
  .regex(/^[\w.-]{1,128}$/, 'retry must be failed-jobs, all, or a stage, job, step or element id (stage-3, e-…)');

/** Retries a finished build in bk-ci (same id, a new run) and, with wait, follows the new run. */
const inputs = z
  .object({
    ...givenBuildInputs,
    retry: retryInput.default('failed-jobs'),
    'skip-failed': bool('skip-failed').default(false),
    ...followInputs,
    ...checkInputs,
  })
  .superRefine((t, ctx) => {
    if (t['skip-failed'] && (t.retry === 'failed-jobs' || t.retry === 'all'))
      ctx.addIssue({ code: 'custom', message: 'skip-failed needs retry to name a task: a stage (stage-N), a step or an element id' });
  });

/** The inputs as parsed: what the run gets. */
export type RetryBuildTask = z.output<typeof inputs>;

const whatOf = (t: RetryBuildTask): RetryWhat =>
  t.retry === 'failed-jobs' || t.retry === 'all' ? { kind: t.retry } : { kind: 'task', taskId: t.retry, skip: t['skip-failed'] };

export default defineOperation({
  inputs,
  endpoints: [BUILD_RETRY, ...GIVEN_BUILD_ENDPOINTS],
  outputs: GIVEN_BUILD_OUTPUTS,
  credentials: 'any',
  describe: (t, settings) => [
    ...givenBuildRows(t),
    ['retry', `${t.retry}${t['skip-failed'] ? ', skipping its failed steps' : ''}`],
    waitRow(t.wait, settings.timeoutMs),
  ],
  waits: (t) => t.wait,
  check: (t) => checkProblems(t),
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
