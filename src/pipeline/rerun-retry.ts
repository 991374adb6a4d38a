// build_retry, sent once: a write whose outcome can be unknown. When its answer is lost, the build's
// model (build_detail's executeCount) says whether bk-ci took it; otherwise the step says the retry
// may have been applied and never sends it again. A cancel while it is in flight is met as a
// start's is (src/pipeline/start.ts): the request is let finish, its answer waited for a moment,
// else the model read once, and the run it started is handed back `cancelled` to be stopped.
// "Failed jobs" is bk-ci's stage retry: taskId = the failed stage, failedContainer=true
// (PipelineBuildRetryService.fillRetryStageParams); without taskId bk-ci ignores failedContainer and
// retries the whole build (docs/bkci/builds.md#retry).
import { formatDuration, formatElapsed } from '../base/duration.ts';
import { ActionError, errorMessage, factsOf, ServerSaidError } from '../base/errors.ts';
import { type BuildDetail, type BuildRef, type RetryAsk, readBuildDetail, retryBuild, retryProblem } from '../bkci/builds.ts';
import { RetryMayHaveBeenAppliedError, RetryNotSentError, RetryRefusedError } from './build-failures.ts';
import { AFTER_STOP_READ_MS, STOP_TIMEOUT_MS } from './build-stop.ts';
import { unknownTask } from './rerun-task.ts';
import { ANSWER_GRACE_MS, answerOrGrace, CANCELLED_LOOK_MS, type StartContext } from './start.ts';
import { FAILURE } from './status.ts';

/** What to run again: the failed jobs (of the failed stage), the whole build, or from a task (stage-N, a step, an element). */
export type RetryWhat = { kind: 'failed-jobs' } | { kind: 'all' } | { kind: 'task'; taskId: string; skip: boolean };

export interface RetryRequest extends BuildRef {
  what: RetryWhat;
}

/** What a retry needs of the step: the calls, the clock, the log, the job's cancel and the hold on the exit after it. */
export type RetryContext = Pick<StartContext, 'api' | 'clock' | 'log' | 'signal' | 'holdExit'>;

export interface RetryResult {
  /** The new run: bk-ci's executeCount for it. */
  executeCount: number;
  /** How it became known: bk-ci's answer, or the model read after the answer was lost. */
  how: 'answer' | 'model';
  /** What was asked of bk-ci, in words: "the failed jobs of stage-3". */
  what: string;
  /** The build's number, from its model. */
  num: number | undefined;
  /** The job was cancelled while the retry was in flight: the new run is to be stopped, if asked (the exit is held for it). */
  cancelled: boolean;
}

/** "bk-ci retried the failed jobs of stage-3 of build #1 (b-…)", "bk-ci retried build b-… from stage-3", and whether the answer was lost. */
export function retriedWords(result: Pick<RetryResult, 'what' | 'how'>, build: string): string {
  const what = result.what.startsWith('from ') ? `${build} ${result.what}` : `${result.what} of ${build}`;
  return `bk-ci retried ${what}${result.how === 'model' ? ' (learnt from the build, the answer was lost)' : ''}`;
}

const notSent = (cause?: unknown): RetryNotSentError =>
  new RetryNotSentError('cancelled before the retry was sent: nothing was retried', { cause });

/** After a lost answer, when the model is read (ms after): bk-ci writes the new run before it answers. */
const LOOKS_MS = [0, 2000, 5000];
/** After a cancel: the answer's grace, one look at the model, then the new run's stop and the read after it. */
export const RETRY_CANCEL_BUDGET_MS = ANSWER_GRACE_MS + CANCELLED_LOOK_MS + STOP_TIMEOUT_MS + AFTER_STOP_READ_MS;

/** The model of the build: its run, its number and the stage that failed; after a cancel, read once, sent all the same. */
export async function readModel(build: BuildRef, ctx: Pick<RetryContext, 'api' | 'signal'>): Promise<BuildDetail> {
  const reply = await readBuildDetail(ctx.api, build, ctx.signal.aborted ? { detached: { timeoutMs: CANCELLED_LOOK_MS } } : {});
  return reply.data;
}

/** The first user stage that failed or was cancelled: where bk-ci's "retry failed jobs" starts. */
function failedStage(detail: BuildDetail): string | undefined {
  const stages = detail.model?.stages ?? [];
  return stages.find((s) => (FAILURE.has(s.status ?? '') || s.status === 'CANCELED') && s.id)?.id ?? undefined;
}

/** What build_retry is asked for `what`, and the same in words; a task the model does not have is refused. */
function retryAsk(request: RetryRequest, model: BuildDetail): { ask: RetryAsk; said: string } {
  if (request.what.kind === 'all') return { ask: {}, said: 'the whole build' };
  if (request.what.kind === 'task') {
    const unknown = unknownTask(request.what.taskId, request.id, model);
    if (unknown !== undefined) throw new RetryNotSentError(unknown);
    return {
      ask: { taskId: request.what.taskId, skip: request.what.skip },
      said: `from ${request.what.taskId}${request.what.skip ? ', skipping its failed steps' : ''}`,
    };
  }
  const stage = failedStage(model);
  return stage === undefined
    ? { ask: { failedContainer: true }, said: 'the whole build, its model showing no failed stage' }
    : { ask: { taskId: stage, failedContainer: true }, said: `the failed jobs of ${stage}` };
}

/**
 * POSTs build_retry once and learns the new run's executeCount, from the answer or, when it is
 * lost, from the model. A cancel before it is sent retries nothing; one while it is in flight lets
 * it finish and hands the new run back `cancelled`, the exit held for its stop.
 */
export async function retryOnce(request: RetryRequest, ctx: RetryContext): Promise<RetryResult> {
  let model: BuildDetail;
  try {
    model = await readModel(request, ctx);
  } catch (e) {
    throw factsOf(e).cancelled ? notSent(e) : e;
  }
  const before = model.executeCount ?? 1;
  const { ask, said } = retryAsk(request, model);
  // bk-ci resolves a build's pipeline itself; named, it is the one the model shows when not given.
  const build = { ...request, pipelineId: request.pipelineId ?? model.pipelineId ?? undefined };
  if (ctx.signal.aborted) throw notSent();
  const known = { what: said, num: model.buildNum ?? undefined };
  const release = ctx.holdExit(RETRY_CANCEL_BUDGET_MS);
  let owed = false;
  try {
    const retried = await sendOnce(build, ask, ctx, before);
    owed = ctx.signal.aborted;
    return { ...retried, ...known, cancelled: owed };
  } finally {
    // A cancel with the new run known still owes its stop: the hold stays.
    if (!owed) release();
  }
}

/** The one POST, its answer waited for a moment after a cancel; a lost answer asks the model. */
async function sendOnce(
  build: BuildRef,
  ask: RetryAsk,
  ctx: RetryContext,
  before: number,
): Promise<Pick<RetryResult, 'executeCount' | 'how'>> {
  let lost: unknown;
  try {
    const reply = await answerOrGrace(retryBuild(ctx.api, build, ask), ctx);
    if (reply !== undefined) return { executeCount: reply.data?.executeCount ?? before + 1, how: 'answer' };
    lost = new ActionError(`no answer within ${formatDuration(ANSWER_GRACE_MS)} of the cancel`);
  } catch (e) {
    if (e instanceof ServerSaidError && e.status < 500) {
      const words = retryProblem(e.serverStatus, e.serverMessage);
      throw new RetryRefusedError(
        `bk-ci refused to retry build ${build.id}${words === undefined ? '' : `: ${words}`} (bk-ci said: ${e.serverStatus ?? e.status} ${e.serverMessage})`,
        { status: e.status, cause: e },
      );
    }
    if (!factsOf(e).mayHaveApplied) throw factsOf(e).cancelled ? notSent(e) : e;
    lost = e;
  }
  ctx.log.info(`the answer to the retry was lost (${errorMessage(lost)}); reading the build to learn whether bk-ci took it`);
  return { executeCount: await afterLostAnswer(build, ctx, before, lost), how: 'model' };
}

/**
 * The new run's executeCount when the model shows it advanced; else the retry may have been
 * applied. Three looks over 5 s; after a cancel, one more (sent all the same), then no other.
 */
async function afterLostAnswer(build: BuildRef, ctx: RetryContext, before: number, lost: unknown): Promise<number> {
  const began = ctx.clock.now();
  let last: unknown;
  let lookedAfterCancel = false;
  for (let index = 0; !lookedAfterCancel && (index < LOOKS_MS.length || ctx.signal.aborted); index++) {
    const wait = began + (LOOKS_MS[index] ?? 0) - ctx.clock.now();
    if (wait > 0 && !ctx.signal.aborted) await ctx.clock.sleep(wait, ctx.signal).catch(() => undefined);
    lookedAfterCancel = ctx.signal.aborted;
    try {
      const now = (await readModel(build, ctx)).executeCount ?? before;
      if (now > before) return now;
      last = undefined;
    } catch (e) {
      last = e;
    }
  }
  const cancelled = ctx.signal.aborted ? 'the job was cancelled while it was in flight, ' : '';
  throw new RetryMayHaveBeenAppliedError(
    `the retry may have been applied: ${cancelled}the answer to build_retry of ${build.id} was lost (${errorMessage(lost)}) and ${
      last === undefined
        ? `the build still showed run ${before} ${formatElapsed(ctx.clock.now() - began)} later`
        : `reading the build failed (${errorMessage(last)})`
    }. It is not sent again${cancelled ? ', and nothing was stopped' : ''}: look at the build in bk-ci before retrying it once more`,
    build,
    { status: lost instanceof ActionError ? lost.status : undefined, cause: lost },
  );
}
