// build_retry, sent once: a write whose outcome can be unknown. When its answer is lost, the build's
// model (build_detail's executeCount) says whether bk-ci took it; otherwise the step says the retry
// may have been applied and never sends it again. "Failed jobs" is bk-ci's stage retry: taskId =
// the failed stage, failedContainer=true (PipelineBuildRetryService.fillRetryStageParams); without
// taskId bk-ci ignores failedContainer and retries the whole build (docs/bkci/builds.md#retry).
import { formatElapsed } from '../base/duration.ts';
import { ActionError, CancelledError, errorMessage, factsOf, ServerSaidError } from '../base/errors.ts';
import { BUILD_DETAIL, BUILD_RETRY, type BuildDetail, type BuildRef, buildDetail, buildId, retryProblem } from '../bkci/builds.ts';
import { FAILURE } from './status.ts';
import type { BuildContext } from './watch.ts';

/** What to run again: the failed jobs (of the failed stage), the whole build, or from a task (stage-N, a step, an element). */
export type RetryWhat = { kind: 'failed-jobs' } | { kind: 'all' } | { kind: 'task'; taskId: string; skip: boolean };

export interface RetryRequest extends BuildRef {
  what: RetryWhat;
}

export interface Retried {
  /** The new run: bk-ci's executeCount for it. */
  executeCount: number;
  /** How it became known: bk-ci's answer, or the model read after the answer was lost. */
  how: 'answer' | 'model';
  /** What was asked of bk-ci, in words: "the failed jobs of stage-3". */
  what: string;
}

/** bk-ci refused the retry: nothing was retried. */
export class RetryRefusedError extends ActionError {
  override name = 'RetryRefusedError';
}

/** The retry's outcome is unknown: it may have been applied. */
export class RetryMayHaveBeenAppliedError extends ActionError {
  override name = 'RetryMayHaveBeenAppliedError';
}

/** After a lost answer, when the model is read (ms after): bk-ci writes the new run before it answers. */
const LOOKS_MS = [0, 2000, 5000];

/** The model of the build: its run and the stage that failed. */
async function readModel(r: RetryRequest, ctx: Pick<BuildContext, 'api'>): Promise<BuildDetail> {
  const reply = await ctx.api.call({
    endpoint: BUILD_DETAIL,
    params: { projectId: r.projectId },
    query: { buildId: r.id, pipelineId: r.pipelineId },
    data: buildDetail,
  });
  if (reply.data === undefined) throw new ActionError('bk-ci answered build_detail without data', { status: reply.status });
  return reply.data;
}

/** The first user stage that failed or was cancelled: where bk-ci's "retry failed jobs" starts. */
export function failedStage(d: BuildDetail): string | undefined {
  const stages = d.model?.stages ?? [];
  return stages.find((s) => (FAILURE.has(s.status ?? '') || s.status === 'CANCELED') && s.id)?.id ?? undefined;
}

/** The query build_retry takes for `what`, and the same in words. */
function retryQuery(r: RetryRequest, model: BuildDetail): { query: Record<string, string | undefined>; said: string } {
  const base = { pipelineId: r.pipelineId ?? model.pipelineId ?? undefined, buildId: r.id };
  if (r.what.kind === 'all') return { query: base, said: 'the whole build' };
  if (r.what.kind === 'task')
    return {
      query: { ...base, taskId: r.what.taskId, ...(r.what.skip ? { skip: 'true' } : {}) },
      said: `from ${r.what.taskId}${r.what.skip ? ', skipping its failed steps' : ''}`,
    };
  const stage = failedStage(model);
  return stage === undefined
    ? { query: { ...base, failedContainer: 'true' }, said: 'the whole build (its model shows no failed stage)' }
    : { query: { ...base, taskId: stage, failedContainer: 'true' }, said: `the failed jobs of ${stage}` };
}

/** POSTs build_retry once and learns the new run's executeCount, from the answer or, when it is lost, from the model. */
export async function retryOnce(r: RetryRequest, ctx: Pick<BuildContext, 'api' | 'clock' | 'log'>): Promise<Retried> {
  const model = await readModel(r, ctx);
  const before = model.executeCount ?? 1;
  const { query, said } = retryQuery(r, model);
  try {
    const reply = await ctx.api.call({ endpoint: BUILD_RETRY, params: { projectId: r.projectId }, query, data: buildId });
    return { executeCount: reply.data?.executeCount ?? before + 1, how: 'answer', what: said };
  } catch (e) {
    if (e instanceof ServerSaidError && e.status < 500) {
      const words = retryProblem(e.serverStatus, e.serverMessage);
      throw new RetryRefusedError(
        `bk-ci refused to retry build ${r.id}${words === undefined ? '' : `: ${words}`} (bk-ci said: ${e.serverStatus ?? e.status} ${e.serverMessage})`,
        { status: e.status, cause: e },
      );
    }
    // Refused, never sent, or the job cancelled (said as such by run()): nothing to learn from the model.
    if (e instanceof CancelledError || !factsOf(e).mayHaveApplied) throw e;
    ctx.log.info(`the answer to the retry was lost (${errorMessage(e)}); reading the build to learn whether bk-ci took it`);
    return { executeCount: await afterLostAnswer(r, ctx, before, e), how: 'model', what: said };
  }
}

/** The new run's executeCount when the model shows it advanced; else the retry may have been applied. */
async function afterLostAnswer(
  r: RetryRequest,
  ctx: Pick<BuildContext, 'api' | 'clock' | 'log'>,
  before: number,
  lost: unknown,
): Promise<number> {
  const began = ctx.clock.now();
  let last: unknown;
  for (const at of LOOKS_MS) {
    const wait = began + at - ctx.clock.now();
    if (wait > 0) await ctx.clock.sleep(wait);
    try {
      const now = (await readModel(r, ctx)).executeCount ?? before;
      if (now > before) return now;
      last = undefined;
    } catch (e) {
      if (e instanceof CancelledError) throw e;
      last = e;
    }
  }
  throw new RetryMayHaveBeenAppliedError(
    `the retry may have been applied: the answer to build_retry of ${r.id} was lost (${errorMessage(lost)}) and ${
      last === undefined
        ? `the build still showed run ${before} ${formatElapsed(ctx.clock.now() - began)} later`
        : `reading the build failed (${errorMessage(last)})`
    }. It is not sent again: look at the build in bk-ci before retrying it once more`,
    { status: lost instanceof ActionError ? lost.status : undefined, cause: lost },
  );
}
