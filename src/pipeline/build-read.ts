// Reading the build while the step waits on it: its status at each poll, its model
// (build_detail) when src/pipeline/build-decide.ts says a poll needs it, and what the reading
// learnt, kept in one record (src/pipeline/wait-state.ts) that the loop in src/pipeline/watch.ts
// passes along. The reads themselves, and the checks that an answer is the build's, are bk-ci's
// (src/bkci/builds.ts).

import { formatElapsed } from '../base/duration.ts';
import { ActionError, BudgetSpentError, CancelledError, DeadlineError, errorMessage, statusOf } from '../base/errors.ts';
import { type BuildDetail, type BuildStatus, readBuildDetail, readBuildStatus } from '../bkci/builds.ts';
import { isTransient } from '../wait/poll.ts';
import { buildName, buildUrl } from './build.ts';
import { DETAIL_EVERY_MS, modelRead, reviewNow, who } from './build-decide.ts';
import { describePending, type PendingReview } from './review-state.ts';
import { DECIDING_MODEL_MS } from './side-reads.ts';
import type { Conclusion } from './status.ts';
import { endOf } from './status.ts';
import type { BuildWait } from './wait-state.ts';

/** "build #3 (b-…)", the number when known (the model's, before a status gave it). */
export const nameOf = ({ state }: Pick<BuildWait, 'state'>): string =>
  buildName({ id: state.build.id, num: state.build.num ?? state.detail?.buildNum ?? undefined });

/** " of pipeline p-…" when the pipeline is known: given, or read from the build's model. */
export function ofPipeline({ state }: Pick<BuildWait, 'state'>): string {
  const id = state.build.pipelineId ?? state.detail?.pipelineId;
  return id ? ` of pipeline ${id}` : '';
}

/** One poll: the status, the model when it is due, the review it waits for, the new-run gate; the observer told. */
export async function readPoll(wait: BuildWait): Promise<BuildStatus> {
  const { ctx, state } = wait;
  // What rides on this poll is over when the next one is due.
  const until = Math.min(ctx.clock.now() + ctx.settings.pollIntervalMs, ctx.start + ctx.settings.timeoutMs);
  const status = await readStatus(wait);
  const model = modelRead({ status, previous: state.previous, detailAt: state.detailAt, now: ctx.clock.now(), pending: state.pending });
  state.previous = status.status;
  if (model !== 'none' && !(model === 'side' && backingOff(wait, status)))
    await readDetail(wait, model === 'needed', until).catch((error: unknown) => {
      // The step ends here: the status it read is the last one it saw (the build's end, say).
      if (!isTransient(error)) wait.progress.last = status;
      throw error;
    });
  seeReview(wait, reviewNow(status, state.detail));
  wait.report.variables.see(status);
  const detail = state.detail;
  wait.gate.see(
    endOf(status) !== 'waiting',
    status.status,
    detail && { executeCount: detail.executeCount, ended: endOf({ status: detail.status ?? '', endTime: detail.endTime }) !== 'waiting' },
  );
  notify(wait, undefined, status);
  state.readAt = ctx.clock.now();
  // An end that counts: the variables' masks before any line of the log read after it is printed.
  if (wait.gate.open && endOf(status) !== 'waiting') await wait.report.variables.ended();
  return status;
}

/** A review pause is said once, with who may decide it. */
function seeReview(wait: BuildWait, now: PendingReview | undefined): void {
  const { state } = wait;
  if (now !== undefined && now.key !== state.pending?.key) {
    wait.ctx.log.info(`${nameOf(wait)} waits for review of ${describePending(now)}: ${who(now)}`);
    if (!state.pauses.some((p) => p.key === now.key)) state.pauses.push(now);
  }
  state.pending = now;
}

/** The status, never another build's; the HTTP status of bk-ci's answer kept, whatever it was. */
async function readStatus(wait: BuildWait): Promise<BuildStatus> {
  const { state } = wait;
  const reply = await readBuildStatus(wait.ctx.api, state.build).catch((error: unknown) => {
    state.http = statusOf(error) ?? state.http;
    throw error;
  });
  state.http = reply.status;
  state.build.num ??= reply.data.buildNum ?? undefined;
  return reply.data;
}

/**
 * A model read beside the wait that failed is not tried again while the build runs for a while: a
 * model that hangs would otherwise take each poll's time from the log. At the end it is read.
 */
function backingOff(wait: BuildWait, status: BuildStatus): boolean {
  const failed = wait.state.detailFailedAt;
  return failed !== undefined && endOf(status) === 'waiting' && wait.ctx.clock.now() - failed < DETAIL_EVERY_MS;
}

/**
 * The model, within its own budget; `needed` when the verdict depends on it (a STAGE_SUCCESS end),
 * else it is a read beside the wait, over by `until` (the next poll), and a failure is one warning.
 */
async function readDetail(wait: BuildWait, needed: boolean, until: number): Promise<void> {
  const { ctx, state } = wait;
  if (needed) state.decidingSince ??= ctx.clock.now();
  try {
    const reply = await readBuildDetail(wait.reads.read('model', needed ? undefined : until), state.build);
    learnModel(wait, reply.data, needed, reply.status);
    state.detailFailedAt = undefined;
  } catch (e) {
    detailFailed(wait, e, needed);
  }
}

/** A model read: followed unless it is of a run older than one already seen (a stale answer). */
function learnModel(wait: BuildWait, detail: BuildDetail, needed: boolean, status: number): void {
  const { state, ctx } = wait;
  const run = detail.executeCount ?? undefined;
  const seenRun = state.build.executeCount;
  if (run !== undefined && seenRun !== undefined && run < seenRun) {
    if (needed)
      throw new ActionError(`bk-ci answered build_detail with run ${run} of ${nameOf(wait)}, older than run ${seenRun} already seen`, {
        status,
      });
    ctx.log.debug(`build_detail answered with run ${run}, older than run ${seenRun}: not followed`);
    return;
  }
  state.detail = detail;
  wait.report.learn(detail);
  state.detailAt = ctx.clock.now();
  state.build.executeCount = run ?? seenRun;
  if (seenRun !== undefined && run !== undefined && run > seenRun)
    ctx.log.info(`${nameOf(wait)} was retried in bk-ci: following its run ${run} now`);
}

/**
 * A model that could not be read: when the verdict needs it, a passing failure costs one poll for
 * DECIDING_MODEL_MS (and never past the deadline), then the step says it could not be read; else
 * one warning, and the model rests a while.
 */
function detailFailed(wait: BuildWait, error: unknown, needed: boolean): void {
  const { log, clock, start, settings } = wait.ctx;
  const { state } = wait;
  if (error instanceof CancelledError || error instanceof DeadlineError) throw error;
  if (needed) {
    const now = clock.now();
    const since = state.decidingSince ?? now;
    // A passing failure costs one poll: the end is read again at the next, within the model's own time.
    if (isTransient(error) && now - since < DECIDING_MODEL_MS && now < start + settings.timeoutMs) throw error;
    const tried = now > since ? ` in ${formatElapsed(now - since)} of trying` : '';
    throw new ActionError(
      `${nameOf(wait)} ended STAGE_SUCCESS, but its model (build_detail) could not be read${tried} to see whether its stage review was rejected, so it is not reported as a success: ${errorMessage(error)}`,
      { status: statusOf(error) ?? state.http, cause: error },
    );
  }
  // No time left beside this poll: read at the next, nothing to warn about.
  if (error instanceof BudgetSpentError) {
    log.debug(`build_detail: ${errorMessage(error)}`);
    return;
  }
  state.detailFailedAt = clock.now();
  if (!state.detailWarned)
    log.warning(`could not read the model of ${nameOf(wait)} (build_detail): ${errorMessage(error)}; reviews waiting in it are not shown`);
  state.detailWarned = true;
}

/** Tells the observer (a check run) what the wait sees; its failures are its own. */
export function notify(wait: BuildWait, conclusion?: Conclusion, status: BuildStatus | undefined = wait.progress.last): void {
  const { state } = wait;
  try {
    wait.options.onView?.({
      ...state.build,
      url: urlOf(wait),
      status: status?.status,
      stage: status === undefined ? undefined : stageOf(status),
      pending: state.pending,
      last: status,
      detail: state.detail,
      ...(conclusion === undefined ? {} : { conclusion }),
    });
  } catch (e) {
    wait.ctx.log.debug(`an observer of the wait failed: ${errorMessage(e)}`);
  }
}

/** The build's page: as given, or once its model names the pipeline (build-status without pipeline-id). */
export const urlOf = ({ options, state }: Pick<BuildWait, 'options' | 'state'>): string =>
  state.build.url ||
  buildUrl(options.consoleUrl, { ...state.build, pipelineId: state.build.pipelineId ?? state.detail?.pipelineId ?? undefined });

/** The stage under way, or paused for its review, as bk-ci's status names it. */
function stageOf(status: BuildStatus): string | undefined {
  const stage = (status.stageStatus ?? []).find((x) => x.status === 'RUNNING' || x.status === 'PAUSE' || x.status === 'REVIEWING');
  return stage?.name ?? undefined;
}
