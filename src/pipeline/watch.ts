// The wait on a build: its status on the one poll loop, its model (build_detail) when a review
// or the end needs it, bk-ci's own end, and stopping it when the job is cancelled.

import type { Clock } from '../base/clock.ts';
import { countOf, formatDuration, formatElapsed } from '../base/duration.ts';
import {
  ActionError,
  BudgetSpentError,
  CancelledError,
  DeadlineError,
  errorMessage,
  HttpError,
  OperationError,
  RequestError,
  ServerSaidError,
  statusOf,
} from '../base/errors.ts';
import type { Log } from '../base/log.ts';
import type { Outcome } from '../base/outcome.ts';
import { z } from '../base/schema.ts';
import { BUILD_DETAIL, BUILD_STATUS, BUILD_STOP, type BuildDetail, type BuildStatus, buildDetail, buildStatus } from '../bkci/builds.ts';
import type { BkciApi } from '../bkci/client.ts';
import type { Secrets } from '../runner/secrets.ts';
import { isTransient, type PollEnd, type Progress, poll, troubleNote } from '../wait/poll.ts';
import type { BuildOutput } from './build-declarations.ts';
import { buildUrl } from './build-declarations.ts';
import { BuildReport, failedSteps, NO_REPORT, type ReportOptions, type Seen } from './build-report.ts';
import { describeBuild } from './outcome.ts';
import { newRunGate } from './rerun-gate.ts';
import { describePending, describeRejection, type PendingReview, pendingReview, rejection, reviewTimeoutHours } from './review-state.ts';
import { sideCalls } from './side-reads.ts';
import { type Conclusion, endOf, firstError, isKnownStatus, stagePaused, waitingOn } from './status.ts';

export interface Watched {
  projectId: string;
  pipelineId?: string | undefined;
  id: string;
  num?: number | undefined;
  executeCount?: number | undefined;
  wait: boolean;
  /** The console's root; undefined: no link (behind the BlueKing API Gateway without console-url). */
  consoleUrl: string | undefined;
  url: string;
  /** Stop it when the job is cancelled: only a build this step started. */
  stopOnCancel: boolean;
  onReview: 'wait' | 'fail';
  /** What to show of it besides its status: its log, variables, artifacts. */
  report?: ReportOptions | undefined;
  /** The run a retry just asked for: no end counts before it shows (src/pipeline/rerun-gate.ts). */
  newRun?: number | undefined;
  /**
   * Told what the wait sees: after each poll that got a status, and once at the end with the
   * conclusion (a GitHub check run follows the build through it). Its failures are its own.
   */
  onView?: ((view: WatchView) => void) | undefined;
}

/** What the wait sees of the build at a poll, or at its end (`conclusion` set). */
export interface WatchView {
  id: string;
  num: number | undefined;
  executeCount: number | undefined;
  /** bk-ci's status; undefined when no poll was answered. */
  status: string | undefined;
  /** The stage under way or paused, by name, when bk-ci's status names one. */
  stage: string | undefined;
  /** The review the build waits for, when it waits for one. */
  pending: PendingReview | undefined;
  url: string;
  conclusion?: Conclusion;
  /** bk-ci's last status answer, whole; undefined when no poll was answered. */
  last: BuildStatus | undefined;
  /** The build's latest model, when one was read. */
  detail: BuildDetail | undefined;
}

/** What watching a build needs of the step: the operations' Context has it all. */
export interface BuildContext {
  api: BkciApi;
  clock: Clock;
  log: Log;
  /** Aborted when the job is cancelled. */
  signal: AbortSignal;
  /** When the step started (by `clock`); the deadline is start + timeout. */
  start: number;
  settings: { timeoutMs: number; pollIntervalMs: number };
  /** The step's secrets: a build variable's value joins them before it is shown. */
  secrets: Secrets;
  /** The environment run() was given (RUNNER_TEMP for the log file). */
  env?: NodeJS.ProcessEnv | undefined;
}

/** No build by that id: bk-ci's v4 answer said in words. */
export class UnknownBuildError extends ActionError {
  override name = 'UnknownBuildError';
}

/** While a build runs, how often its model is read to see a manual-review step (bk-ci's status does not show one). */
const DETAIL_EVERY_MS = 30_000;

/** How long the runner's grace period leaves for stopping the build after a cancel. */
export const STOP_TIMEOUT_MS = 1200;

const who = (p: PendingReview): string =>
  p.reviewers.length > 0 ? `${p.reviewers.join(', ')} may approve it` : 'bk-ci names nobody who may approve it';

/**
 * Reads the build, and with `wait` polls it until bk-ci says it ended (src/pipeline/status.ts). A
 * stage review that was rejected ends like a success in its status and is told apart by the
 * model; a review pause is said once, with who may decide it. The build's id, number, run and
 * conclusion are in every outcome, success or not.
 */
export async function watchBuild(b: Watched, ctx: BuildContext): Promise<Outcome<BuildOutput>> {
  const { api, clock, log } = ctx;
  const progress: Progress<BuildStatus> = { polls: 0, last: undefined, status: undefined, changes: [] };
  let status: number | undefined;
  let detail: BuildDetail | undefined;
  let detailAt: number | undefined;
  let detailWarned = false;
  let pending: PendingReview | undefined;
  const pauses: PendingReview[] = [];
  let executeCount = b.executeCount;
  /** The build's number: once known it stays (an answer with another is not followed). */
  let num = b.num;
  /** The status of the last poll: a build seen running that is queued again was retried. */
  let lastStatus: string | undefined;
  let stopped: Stop | undefined;
  const warned = new Set<string>();
  const elapsed = (): number => clock.now() - ctx.start;
  /** " of pipeline p-…" when the pipeline is known: given, or read from the build's model. */
  const ofPipeline = (): string => {
    const id = b.pipelineId ?? detail?.pipelineId;
    return id ? ` of pipeline ${id}` : '';
  };
  const name = (): string => {
    const n = num ?? detail?.buildNum ?? undefined;
    return `build ${n ? `#${n} ` : ''}(${b.id})`;
  };
  const view = (conclusion?: Conclusion, s: BuildStatus | undefined = progress.last): void => {
    try {
      b.onView?.({
        id: b.id,
        num,
        executeCount,
        status: s?.status,
        stage: s === undefined ? undefined : stageOf(s),
        pending,
        url: b.url,
        last: s,
        detail,
        ...(conclusion === undefined ? {} : { conclusion }),
      });
    } catch (e) {
      log.debug(`an observer of the wait failed: ${errorMessage(e)}`);
    }
  };
  const report = new BuildReport(ctx, b, b.report ?? NO_REPORT, () => executeCount ?? 1);
  const gate = newRunGate(b.newRun, b.id, clock);
  let seen: Seen | undefined;
  const outcome = (headline: string, conclusion: Conclusion): Outcome<BuildOutput> => {
    view(conclusion);
    return withReport(seen, report, {
      ...describeBuild(headline, {
        projectId: b.projectId,
        pipelineId: b.pipelineId,
        id: b.id,
        num,
        executeCount,
        // build-status without pipeline-id learns the pipeline from the model.
        url: b.url || buildUrl(b.consoleUrl, b.projectId, detail?.pipelineId ?? undefined, b.id),
        progress,
        detail,
        pending,
        pauses,
        conclusion,
        stopped: stopped?.said,
        elapsedMs: elapsed(),
        start: ctx.start,
      }),
      status,
    });
  };
  /** The answer must be about the build asked for: another build's status is never a verdict. */
  const sameBuild = (id: string, what: string): void => {
    if (id !== b.id)
      throw new ActionError(
        `bk-ci answered ${what} with build ${id} when asked for ${b.id}: the answer is not trusted (a proxy or cache between the runner and bk-ci may mix answers up)`,
        { status },
      );
  };
  const readStatus = async (): Promise<BuildStatus> => {
    const reply = await api
      .call({
        endpoint: BUILD_STATUS,
        params: { projectId: b.projectId },
        query: { buildId: b.id, pipelineId: b.pipelineId },
        data: buildStatus,
      })
      .catch((e: unknown) => {
        status = statusOf(e) ?? status;
        throw unknownBuild(e, b) ?? e;
      });
    status = reply.status;
    if (reply.data === undefined) throw new ActionError(`bk-ci answered without the status of ${name()}`, { status: reply.status });
    sameBuild(reply.data.id, 'the status');
    num ??= reply.data.buildNum ?? undefined;
    return reply.data;
  };
  /**
   * The model; `needed` when the verdict depends on it (a STAGE_SUCCESS end), else it is a read
   * beside the wait, over by `until` (the next poll), and a failure is one warning.
   */
  const readDetail = async (needed: boolean, until: number): Promise<void> => {
    try {
      const reply = await (needed ? api : sideCalls(api, clock, until)).call({
        endpoint: BUILD_DETAIL,
        params: { projectId: b.projectId },
        query: { buildId: b.id, pipelineId: b.pipelineId },
        data: buildDetail,
      });
      if (reply.data === undefined) throw new ActionError('bk-ci answered build_detail without data', { status: reply.status });
      sameBuild(reply.data.id, 'build_detail');
      // A run number never goes back: a model of an earlier run is a stale answer, not followed.
      const run = reply.data.executeCount ?? undefined;
      if (run !== undefined && executeCount !== undefined && run < executeCount) {
        if (needed)
          throw new ActionError(`bk-ci answered build_detail with run ${run} of ${name()}, older than run ${executeCount} already seen`, {
            status: reply.status,
          });
        log.debug(`build_detail answered with run ${run}, older than run ${executeCount}: not followed`);
        return;
      }
      detail = reply.data;
      report.learn(reply.data);
      detailAt = clock.now();
      const before = executeCount;
      executeCount = run ?? executeCount;
      if (before !== undefined && executeCount !== undefined && executeCount > before)
        log.info(`${name()} was retried in bk-ci: following its run ${executeCount} now`);
    } catch (e) {
      if (e instanceof CancelledError || e instanceof DeadlineError) throw e;
      // No time left beside this poll: read at the next, nothing to warn about.
      if (e instanceof BudgetSpentError) return log.debug(`build_detail: ${errorMessage(e)}`);
      if (needed) {
        // A passing failure costs one poll: the end is read again at the next.
        if (isTransient(e)) throw e;
        throw new ActionError(
          `${name()} ended STAGE_SUCCESS, but its model (build_detail) could not be read to see whether its stage review was rejected, so it is not reported as a success: ${errorMessage(e)}`,
          { status: statusOf(e) ?? status, cause: e },
        );
      }
      if (!detailWarned)
        log.warning(`could not read the model of ${name()} (build_detail): ${errorMessage(e)}; reviews waiting in it are not shown`);
      detailWarned = true;
    }
  };

  if (b.wait)
    log.info(
      `waiting for ${name()}: timeout ${formatDuration(ctx.settings.timeoutMs)}, a poll every ${formatDuration(ctx.settings.pollIntervalMs)}${b.url ? `; ${b.url}` : ''}`,
    );
  let end: PollEnd;
  try {
    end = await poll<BuildStatus>(
      {
        read: async () => {
          // What rides on this poll is over when the next one is due.
          const until = Math.min(clock.now() + ctx.settings.pollIntervalMs, ctx.start + ctx.settings.timeoutMs);
          const s = await readStatus();
          const ended = endOf(s) !== 'waiting';
          const moving = s.status !== 'QUEUE' && s.status !== 'QUEUE_CACHE';
          const stale = detailAt === undefined || clock.now() - detailAt >= DETAIL_EVERY_MS;
          // A retry keeps the build's id and sends it back through the queue under a new
          // executeCount, which only the model tells (build_status has none): read it at once, so
          // the log follows the new run from its start.
          const requeued = !moving && lastStatus !== undefined && lastStatus !== 'QUEUE' && lastStatus !== 'QUEUE_CACHE';
          lastStatus = s.status;
          if (detailAt === undefined || ended || requeued || (stagePaused(s) && pending?.kind !== 'stage') || (moving && stale))
            await readDetail(ended && s.status === 'STAGE_SUCCESS', until);
          const now = ended || detail === undefined ? undefined : pendingReview(detail);
          // A stage's pause is over when bk-ci's status says so, whatever an older model said.
          const still = now?.kind === 'stage' && !stagePaused(s) ? undefined : now;
          if (still !== undefined && still.key !== pending?.key) {
            log.info(`${name()} waits for review of ${describePending(still)}: ${who(still)}`);
            if (!pauses.some((p) => p.key === still.key)) pauses.push(still);
          }
          pending = still;
          gate.see(
            ended,
            s.status,
            detail && {
              executeCount: detail.executeCount,
              ended: endOf({ status: detail.status ?? '', endTime: detail.endTime }) !== 'waiting',
            },
          );
          view(undefined, s);
          return s;
        },
        status: (s) => s.status,
        // A review pause was just said, with who may decide it: the status line does not say it again.
        describe: (s) => (pending !== undefined || waitingOn(s) === s.status ? s.status : `${s.status}: ${waitingOn(s)}`),
        waitingOn: (s) => (pending === undefined ? waitingOn(s) : `waiting for review of ${describePending(pending)}`),
        verdict: (s) => {
          const e = endOf(s);
          if (e === 'waiting' && !isKnownStatus(s.status) && !warned.has(s.status)) {
            warned.add(s.status);
            log.warning(`${name()} has status "${s.status}", which this action does not know; waiting on`);
          }
          if (e !== 'waiting' && !gate.open) return 'waiting';
          if (e === 'success') return 'done';
          if (e !== 'waiting') return 'failed';
          return b.onReview === 'fail' && (pending !== undefined || stagePaused(s)) ? 'failed' : 'waiting';
        },
        ...(report.follow === undefined ? {} : { follow: report.follow }),
      },
      {
        start: ctx.start,
        timeoutMs: ctx.settings.timeoutMs,
        intervalMs: ctx.settings.pollIntervalMs,
        wait: b.wait,
        clock,
        log,
        signal: ctx.signal,
      },
      progress,
    );
  } catch (e) {
    seen = await report.end(undefined, []);
    if (!(e instanceof CancelledError)) {
      status = statusOf(e) ?? status;
      // Our own sentences stand as they are; a request's failure says what was being read.
      const plain = e instanceof ActionError && !(e instanceof RequestError);
      const ended = progress.last !== undefined && endOf(progress.last) !== 'waiting';
      throw new OperationError(
        plain ? e.message : `reading ${name()} failed: ${errorMessage(e)}`,
        outcome(`${name()}: error`, e instanceof UnknownBuildError || ended ? 'failure' : 'running'),
        { cause: e },
      );
    }
    if (b.stopOnCancel) stopped = await stopBuild(api, b.projectId, b.pipelineId, b.id, log.info);
    throw new OperationError(
      `cancelled after ${formatElapsed(elapsed())}, last status ${progress.status ?? 'unknown'}; ${stopped?.said ?? 'the build goes on in bk-ci'}`,
      outcome(`${name()}: cancelled`, stopped?.ended ? 'cancelled' : 'running'),
    );
  }
  const last = progress.last;
  // Before a retried build's new run showed, the end bk-ci shows is the run before it (wait: false).
  const over = last === undefined || end === 'timeout' || !gate.open ? 'waiting' : endOf(last);
  const failed = failedSteps(detail, last);
  seen = await report.end(over === 'waiting' ? undefined : over === 'success' ? 'done' : 'failed', failed, last?.buildNum ?? b.num);
  if (end === 'timeout' || last === undefined)
    throw new OperationError(
      `${name()} ${last === undefined ? 'could not be read' : `is still ${pending ? `waiting for review of ${describePending(pending)}` : waitingOn(last)}`} after ${formatElapsed(elapsed())} (${countOf(progress.polls, 'poll')}, timeout ${formatDuration(ctx.settings.timeoutMs)}). The step stopped waiting; the build goes on in bk-ci.${troubleNote(progress, clock.now())}`,
      outcome(`${name()}: timed out`, 'timed-out'),
    );
  const e = gate.open ? endOf(last) : 'waiting';
  if (e === 'waiting' && end === 'failed') {
    const what =
      pending === undefined ? waitingOn(last).replace(/^waiting for /, '') : `review of ${describePending(pending)}: ${who(pending)}`;
    throw new OperationError(
      `${name()} waits for ${what}. on-review: fail ends the step here; the build goes on waiting in bk-ci`,
      outcome(`${name()}: waiting for review`, 'waiting-review'),
    );
  }
  const refused = e === 'waiting' || detail === undefined ? undefined : rejection(detail);
  if (e === 'success' && refused === undefined) {
    const headline = `${name()}: ${waitingOn(last)} after ${formatElapsed(elapsed())}, ${countOf(progress.polls, 'poll')}`;
    if (seen.problem !== undefined)
      throw new OperationError(seen.problem, { ...outcome(headline, 'success'), done: `${name()} ended ${last.status}` });
    return outcome(headline, 'success');
  }
  if (e === 'waiting') return outcome(`${name()}: ${waitingOn(last)} (not waited for)`, 'running');
  if (refused !== undefined && (e === 'success' || e === 'failure')) {
    throw new OperationError(
      `${name()}${ofPipeline()} was stopped by a rejected review: ${describeRejection(refused, detail && reviewTimeoutHours(detail))} (bk-ci shows such a build as ${last.status})`,
      outcome(`${name()}: rejected`, 'rejected'),
    );
  }
  const why =
    e === 'cancelled' && detail?.cancelUserId
      ? `cancelled by ${detail.cancelUserId}`
      : last.status === 'UNEXEC'
        ? `the build never ran (bk-ci ended it before it left the queue)${firstError(last) ? `; ${firstError(last)}` : ''}`
        : // bk-ci's first error names its step; without one, the first step the model shows failed.
          (firstError(last) ?? (failed[0] === undefined ? undefined : `${failed[0].name}: ${failed[0].error}`));
  throw new OperationError(
    `${name()}${ofPipeline()} ended ${last.status}${why === undefined ? '' : `: ${why}`}`,
    outcome(`${name()}: ${last.status}`, e === 'cancelled' ? 'cancelled' : 'failure'),
  );
}

/** The stage under way, or paused for its review, as bk-ci's status names it. */
function stageOf(s: BuildStatus): string | undefined {
  const st = (s.stageStatus ?? []).find((x) => x.status === 'RUNNING' || x.status === 'PAUSE' || x.status === 'REVIEWING');
  return st?.name ?? undefined;
}

/** The outcome with what the build showed besides its status: the log's file, variables, artifacts and their blocks. */
function withReport(seen: Seen | undefined, report: BuildReport, o: Outcome<BuildOutput>): Outcome<BuildOutput> {
  return { ...o, outputs: { ...o.outputs, ...report.outputs }, blocks: [...o.blocks, ...(seen?.blocks ?? [])] };
}

/** v4 answers an unknown build id with 400 `参数校验失败:{0} Invalid buildId…`: said plainly. */
function unknownBuild(e: unknown, b: Watched): UnknownBuildError | undefined {
  if (!(e instanceof HttpError) || e.status !== 400 || !/Invalid buildId/i.test(e.serverMessage)) return undefined;
  return new UnknownBuildError(
    `no build ${b.id} in project ${b.projectId}${b.pipelineId ? ` (pipeline ${b.pipelineId})` : ''}: check build-id and project-id`,
    { status: 400, cause: e },
  );
}

/** What a stop came to: `ended` when the build is stopped or had already ended. */
export interface Stop {
  ended: boolean;
  said: string;
}

/** POSTs build_stop once, even though the job was cancelled; says what came of it. */
export async function stopBuild(
  api: BkciApi,
  projectId: string,
  pipelineId: string | undefined,
  id: string,
  info: (m: string) => void,
  timeoutMs = STOP_TIMEOUT_MS,
): Promise<Stop> {
  let stop: Stop;
  try {
    await api.call({
      endpoint: BUILD_STOP,
      params: { projectId },
      query: { buildId: id, pipelineId },
      data: z.unknown(),
      detached: { timeoutMs },
    });
    stop = { ended: true, said: `the build ${id} was stopped in bk-ci (stop-on-cancel)` };
  } catch (e) {
    stop =
      e instanceof ServerSaidError && e.serverStatus === 2101182
        ? { ended: true, said: `the build ${id} had already ended` }
        : { ended: false, said: `stopping the build ${id} failed (${errorMessage(e)}); it may still run in bk-ci` };
  }
  info(stop.said);
  return stop;
}
