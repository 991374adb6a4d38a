// Reading the build while the step waits on it: its status at each poll, its model
// (build_detail) when src/pipeline/build-decide.ts says a poll needs it, and what the reading
// learnt, kept in one record (WatchState) that the loop in src/pipeline/watch.ts passes along.

import { formatElapsed } from '../base/duration.ts';
import { ActionError, BudgetSpentError, CancelledError, DeadlineError, errorMessage, HttpError, statusOf } from '../base/errors.ts';
import { BUILD_DETAIL, BUILD_STATUS, type BuildDetail, type BuildRef, type BuildStatus, buildDetail, buildStatus } from '../bkci/builds.ts';
import type { Progress } from '../wait/poll.ts';
import { isTransient } from '../wait/poll.ts';
import { DETAIL_EVERY_MS, modelRead, reviewNow, who } from './build-decide.ts';
import { buildUrl } from './build-declarations.ts';
import type { BuildReport } from './build-report.ts';
import type { NewRunGate } from './rerun-gate.ts';
import { describePending, type PendingReview } from './review-state.ts';
import { DECIDING_MODEL_MS, type SideReads } from './side-reads.ts';
import type { Conclusion } from './status.ts';
import { endOf } from './status.ts';
import type { BuildContext, Watched } from './watch.ts';

/** What the reading has learnt of the build so far: the one record each poll updates. */
export interface WatchState {
  /** The build's number: once known it stays (an answer with another is not followed). */
  num: number | undefined;
  executeCount: number | undefined;
  /** The build's latest model, and when it was read (undefined: never). */
  detail: BuildDetail | undefined;
  detailAt: number | undefined;
  /** A side read of the model failed and was warned about (once). */
  detailWarned: boolean;
  /** When a read of the model beside the wait last failed: it is not tried again while the build runs before DETAIL_EVERY_MS. */
  detailFailedAt: number | undefined;
  /** Since when the model has been needed to decide a STAGE_SUCCESS end (DECIDING_MODEL_MS bounds it). */
  decidingSince: number | undefined;
  /** The review the build waits for now, and every pause seen, once each. */
  pending: PendingReview | undefined;
  pauses: PendingReview[];
  /** The status of the last poll: a build seen running that is queued again was retried. */
  previous: string | undefined;
  /** The HTTP status of bk-ci's last answer. */
  http: number | undefined;
  /** When the last poll's reads were over. */
  readAt: number;
  /** Statuses this action does not know, each warned about once. */
  warned: Set<string>;
}

/** The wait on one build: what it was asked, the step, what was read, and what reads along. */
export interface Reading {
  b: Watched;
  ctx: BuildContext;
  state: WatchState;
  /** How the reads beside the status polls reach bk-ci, each within its own budget. */
  reads: SideReads;
  progress: Progress<BuildStatus>;
  report: BuildReport;
  gate: NewRunGate;
}

export const newState = (b: Watched, start: number): WatchState => ({
  num: b.num,
  executeCount: b.executeCount,
  detail: undefined,
  detailAt: undefined,
  detailWarned: false,
  detailFailedAt: undefined,
  decidingSince: undefined,
  pending: undefined,
  pauses: [],
  previous: undefined,
  http: undefined,
  readAt: start,
  warned: new Set(),
});

/** Where bk-ci's build endpoints take the build: the project in the path, the build and its pipeline in the query. */
export const buildAt = (b: BuildRef) => ({ params: { projectId: b.projectId }, query: { buildId: b.id, pipelineId: b.pipelineId } });

/** No build by that id: bk-ci's v4 answer said in words. */
export class UnknownBuildError extends ActionError {
  override name = 'UnknownBuildError';
}

/** "build #3 (b-…)", the number when known. */
export function buildName(r: Pick<Reading, 'b' | 'state'>): string {
  const n = r.state.num ?? r.state.detail?.buildNum ?? undefined;
  return `build ${n ? `#${n} ` : ''}(${r.b.id})`;
}

/** " of pipeline p-…" when the pipeline is known: given, or read from the build's model. */
export function ofPipeline(r: Pick<Reading, 'b' | 'state'>): string {
  const id = r.b.pipelineId ?? r.state.detail?.pipelineId;
  return id ? ` of pipeline ${id}` : '';
}

/** One poll: the status, the model when it is due, the review it waits for, the new-run gate; the observer told. */
export async function readPoll(r: Reading): Promise<BuildStatus> {
  const { ctx, state } = r;
  // What rides on this poll is over when the next one is due.
  const until = Math.min(ctx.clock.now() + ctx.settings.pollIntervalMs, ctx.start + ctx.settings.timeoutMs);
  const s = await readStatus(r);
  const model = modelRead({ status: s, previous: state.previous, detailAt: state.detailAt, now: ctx.clock.now(), pending: state.pending });
  state.previous = s.status;
  if (model !== 'none' && !(model === 'side' && backingOff(r, s)))
    await readDetail(r, model === 'needed', until).catch((e: unknown) => {
      // The step ends here: the status it read is the last one it saw (the build's end, say).
      if (!isTransient(e)) r.progress.last = s;
      throw e;
    });
  seeReview(r, reviewNow(s, state.detail));
  r.report.see(s);
  const d = state.detail;
  r.gate.see(
    endOf(s) !== 'waiting',
    s.status,
    d && { executeCount: d.executeCount, ended: endOf({ status: d.status ?? '', endTime: d.endTime }) !== 'waiting' },
  );
  notify(r, undefined, s);
  state.readAt = ctx.clock.now();
  // An end that counts: the variables' masks before any line of the log read after it is printed.
  if (r.gate.open && endOf(s) !== 'waiting') await r.report.ended();
  return s;
}

/** A review pause is said once, with who may decide it. */
function seeReview(r: Reading, now: PendingReview | undefined): void {
  const { state } = r;
  if (now !== undefined && now.key !== state.pending?.key) {
    r.ctx.log.info(`${buildName(r)} waits for review of ${describePending(now)}: ${who(now)}`);
    if (!state.pauses.some((p) => p.key === now.key)) state.pauses.push(now);
  }
  state.pending = now;
}

/** The answer must be about the build asked for: another build's status is never a verdict. */
function sameBuild(r: Reading, id: string, what: string): void {
  if (id !== r.b.id)
    throw new ActionError(
      `bk-ci answered ${what} with build ${id} when asked for ${r.b.id}: the answer is not trusted (a proxy or cache between the runner and bk-ci may mix answers up)`,
      { status: r.state.http },
    );
}

async function readStatus(r: Reading): Promise<BuildStatus> {
  const { b, state } = r;
  const reply = await r.ctx.api.call({ endpoint: BUILD_STATUS, ...buildAt(b), data: buildStatus }).catch((e: unknown) => {
    state.http = statusOf(e) ?? state.http;
    throw unknownBuild(e, b) ?? e;
  });
  state.http = reply.status;
  if (reply.data === undefined) throw new ActionError(`bk-ci answered without the status of ${buildName(r)}`, { status: reply.status });
  sameBuild(r, reply.data.id, 'the status');
  state.num ??= reply.data.buildNum ?? undefined;
  return reply.data;
}

/**
 * A model read beside the wait that failed is not tried again while the build runs for a while: a
 * model that hangs would otherwise take each poll's time from the log. At the end it is read.
 */
function backingOff(r: Reading, s: BuildStatus): boolean {
  const failed = r.state.detailFailedAt;
  return failed !== undefined && endOf(s) === 'waiting' && r.ctx.clock.now() - failed < DETAIL_EVERY_MS;
}

/**
 * The model, within its own budget; `needed` when the verdict depends on it (a STAGE_SUCCESS end),
 * else it is a read beside the wait, over by `until` (the next poll), and a failure is one warning.
 */
async function readDetail(r: Reading, needed: boolean, until: number): Promise<void> {
  const { b, ctx, state } = r;
  if (needed) state.decidingSince ??= ctx.clock.now();
  try {
    const reply = await r.reads.read('model', needed ? undefined : until).call({
      endpoint: BUILD_DETAIL,
      ...buildAt(b),
      data: buildDetail,
    });
    if (reply.data === undefined) throw new ActionError('bk-ci answered build_detail without data', { status: reply.status });
    sameBuild(r, reply.data.id, 'build_detail');
    learnModel(r, reply.data, needed, reply.status);
    state.detailFailedAt = undefined;
  } catch (e) {
    detailFailed(r, e, needed);
  }
}

/** A model read: followed unless it is of a run older than one already seen (a stale answer). */
function learnModel(r: Reading, d: BuildDetail, needed: boolean, status: number): void {
  const { state, ctx } = r;
  const run = d.executeCount ?? undefined;
  if (run !== undefined && state.executeCount !== undefined && run < state.executeCount) {
    if (needed)
      throw new ActionError(
        `bk-ci answered build_detail with run ${run} of ${buildName(r)}, older than run ${state.executeCount} already seen`,
        {
          status,
        },
      );
    ctx.log.debug(`build_detail answered with run ${run}, older than run ${state.executeCount}: not followed`);
    return;
  }
  state.detail = d;
  r.report.learn(d);
  state.detailAt = ctx.clock.now();
  const before = state.executeCount;
  state.executeCount = run ?? state.executeCount;
  if (before !== undefined && state.executeCount !== undefined && state.executeCount > before)
    ctx.log.info(`${buildName(r)} was retried in bk-ci: following its run ${state.executeCount} now`);
}

/**
 * A model that could not be read: when the verdict needs it, a passing failure costs one poll for
 * DECIDING_MODEL_MS (and never past the deadline), then the step says it could not be read; else
 * one warning, and the model rests a while.
 */
function detailFailed(r: Reading, e: unknown, needed: boolean): void {
  const { log, clock, start, settings } = r.ctx;
  const { state } = r;
  if (e instanceof CancelledError || e instanceof DeadlineError) throw e;
  if (needed) {
    const now = clock.now();
    const since = state.decidingSince ?? now;
    // A passing failure costs one poll: the end is read again at the next, within the model's own time.
    if (isTransient(e) && now - since < DECIDING_MODEL_MS && now < start + settings.timeoutMs) throw e;
    const tried = now > since ? ` in ${formatElapsed(now - since)} of trying` : '';
    throw new ActionError(
      `${buildName(r)} ended STAGE_SUCCESS, but its model (build_detail) could not be read${tried} to see whether its stage review was rejected, so it is not reported as a success: ${errorMessage(e)}`,
      { status: statusOf(e) ?? state.http, cause: e },
    );
  }
  // No time left beside this poll: read at the next, nothing to warn about.
  if (e instanceof BudgetSpentError) {
    log.debug(`build_detail: ${errorMessage(e)}`);
    return;
  }
  state.detailFailedAt = clock.now();
  if (!state.detailWarned)
    log.warning(`could not read the model of ${buildName(r)} (build_detail): ${errorMessage(e)}; reviews waiting in it are not shown`);
  state.detailWarned = true;
}

/** Tells the observer (a check run) what the wait sees; its failures are its own. */
export function notify(r: Reading, conclusion?: Conclusion, s: BuildStatus | undefined = r.progress.last): void {
  const { b, state } = r;
  try {
    b.onView?.({
      id: b.id,
      num: state.num,
      executeCount: state.executeCount,
      status: s?.status,
      stage: s === undefined ? undefined : stageOf(s),
      pending: state.pending,
      url: urlOf(r),
      last: s,
      detail: state.detail,
      ...(conclusion === undefined ? {} : { conclusion }),
    });
  } catch (e) {
    r.ctx.log.debug(`an observer of the wait failed: ${errorMessage(e)}`);
  }
}

/** The build's page: as given, or once its model names the pipeline (build-status without pipeline-id). */
export const urlOf = (r: Pick<Reading, 'b' | 'state'>): string =>
  r.b.url || buildUrl(r.b.consoleUrl, r.b.projectId, r.state.detail?.pipelineId ?? undefined, r.b.id);

/** The stage under way, or paused for its review, as bk-ci's status names it. */
function stageOf(s: BuildStatus): string | undefined {
  const st = (s.stageStatus ?? []).find((x) => x.status === 'RUNNING' || x.status === 'PAUSE' || x.status === 'REVIEWING');
  return st?.name ?? undefined;
}

/** v4 answers an unknown build id with 400 `参数校验失败:{0} Invalid buildId…`: said plainly. */
export function unknownBuild(e: unknown, b: BuildRef): UnknownBuildError | undefined {
  if (!(e instanceof HttpError) || e.status !== 400 || !/Invalid buildId/i.test(e.serverMessage)) return undefined;
  return new UnknownBuildError(
    `no build ${b.id} in project ${b.projectId}${b.pipelineId ? ` (pipeline ${b.pipelineId})` : ''}: check build-id and project-id`,
    { status: 400, cause: e },
  );
}
