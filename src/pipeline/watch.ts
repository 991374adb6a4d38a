// The wait on a build: one poll loop (src/wait/poll.ts) whose reads are src/pipeline/build-read.ts
// and whose decisions are src/pipeline/build-decide.ts; then the end said, or the cancel (the
// build stopped, src/pipeline/build-stop.ts) or the failed read.

import type { Clock } from '../base/clock.ts';
import { formatDuration, formatElapsed } from '../base/duration.ts';
import { ActionError, CancelledError, errorMessage, OperationError, RequestError, statusOf } from '../base/errors.ts';
import type { Log } from '../base/log.ts';
import type { Outcome } from '../base/outcome.ts';
import type { BuildDetail, BuildRef, BuildStatus } from '../bkci/builds.ts';
import type { BkciApi } from '../bkci/client.ts';
import type { DownloadAsk } from '../download/build-files.ts';
import type { Fetched } from '../download/report.ts';
import type { Secrets } from '../runner/secrets.ts';
import { type PollEnd, type PollOptions, type Progress, poll, troubleNote, type Watch } from '../wait/poll.ts';
import { brokenOff, decideEnd, pollVerdict, reportEnd } from './build-decide.ts';
import type { BuildOutput } from './build-declarations.ts';
import { downloadOnEnd, withFilesProblem } from './build-download.ts';
import { buildName, newState, notify, ofPipeline, type Reading, readPoll, UnknownBuildError, urlOf } from './build-read.ts';
import { BuildReport, failedSteps, NO_REPORT, type ReportOptions, type Seen } from './build-report.ts';
import { stopAndSee } from './build-stop.ts';
import { describeBuild } from './outcome.ts';
import { newRunGate } from './rerun-gate.ts';
import { describePending, type PendingReview } from './review-state.ts';
import { SideReads } from './side-reads.ts';
import { type Conclusion, endOf, isKnownStatus, waitingOn } from './status.ts';

export interface Watched extends BuildRef {
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
  /** The files to bring into the runner once it has ended (src/pipeline/build-download.ts). */
  download?: DownloadAsk | undefined;
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

/**
 * Reads the build, and with `wait` polls it until bk-ci says it ended (src/pipeline/status.ts). A
 * stage review that was rejected ends like a success in its status and is told apart by the
 * model; a review pause is said once, with who may decide it. The build's id, number, run and
 * conclusion are in every outcome, success or not.
 */
export async function watchBuild(b: Watched, ctx: BuildContext): Promise<Outcome<BuildOutput>> {
  const state = newState(b, ctx.start);
  // Every read beside the status polls (the model, the log, the variables, the artifacts) goes through it.
  const reads = new SideReads(ctx.api, ctx.clock);
  const r: Reading = {
    b,
    ctx,
    state,
    reads,
    progress: { polls: 0, last: undefined, status: undefined, changes: [] },
    report: new BuildReport({ ...ctx, reads }, b, b.report ?? NO_REPORT, () => state.executeCount ?? 1),
    gate: newRunGate(b.newRun, b.id, ctx.clock),
  };
  const { settings } = ctx;
  let toSay = b.wait;
  const sayWaiting = (): void => {
    if (!toSay) return;
    toSay = false;
    ctx.log.info(
      `waiting for ${buildName(r)}: timeout ${formatDuration(settings.timeoutMs)}, a poll every ${formatDuration(settings.pollIntervalMs)}${b.url ? `; ${b.url}` : ''}`,
    );
  };
  // The line names the build's number: said now when it is known, else once the first poll read it.
  if (state.num !== undefined) sayWaiting();
  const watch = pollWatch(r);
  let end: PollEnd;
  try {
    end = await poll<BuildStatus>({ ...watch, read: () => watch.read().finally(sayWaiting) }, pollOptions(b, ctx), r.progress);
  } catch (e) {
    throw await brokenOffError(r, e);
  }
  return ended(r, end);
}

/** The poll loop's view of the build: read, say, decide. */
function pollWatch(r: Reading): Watch<BuildStatus> {
  const { state } = r;
  return {
    read: () => readPoll(r),
    status: (s) => s.status,
    // A review pause was just said, with who may decide it: the status line does not say it again.
    describe: (s) => (state.pending !== undefined || waitingOn(s) === s.status ? s.status : `${s.status}: ${waitingOn(s)}`),
    waitingOn: (s) => (state.pending === undefined ? waitingOn(s) : `waiting for review of ${describePending(state.pending)}`),
    verdict: (s) => {
      if (endOf(s) === 'waiting' && !isKnownStatus(s.status) && !state.warned.has(s.status)) {
        state.warned.add(s.status);
        r.ctx.log.warning(`${buildName(r)} has status "${s.status}", which this action does not know; waiting on`);
      }
      return pollVerdict(s, state.pending, r.gate.open, r.b.onReview);
    },
    ...(r.report.follow === undefined ? {} : { follow: r.report.follow }),
  };
}

function pollOptions(b: Watched, ctx: BuildContext): PollOptions {
  const { clock, log, signal, start, settings } = ctx;
  return { start, timeoutMs: settings.timeoutMs, intervalMs: settings.pollIntervalMs, wait: b.wait, clock, log, signal };
}

/** The wait is over: the build's time up to the poll that saw its end, what is read after it, the decision. */
async function ended(r: Reading, end: PollEnd): Promise<Outcome<BuildOutput>> {
  const { b, ctx, state, progress } = r;
  const { clock } = ctx;
  const endAt = end === 'done' || end === 'failed' ? state.readAt : undefined;
  // The variables read at the end are not the log's time.
  const logAfterEndMs = endAt === undefined ? 0 : clock.now() - endAt - r.report.variablesMs;
  if (logAfterEndMs > 0) ctx.log.info(`read the rest of the build's log for ${formatElapsed(logAfterEndMs)} after its end`);
  const last = progress.last;
  const failed = failedSteps(state.detail, last);
  const over = reportEnd(end, last, r.gate.open);
  const seen = await r.report.end(over, failed);
  const pipelineId = b.pipelineId ?? state.detail?.pipelineId ?? undefined;
  const files = await downloadOnEnd(b.download, over !== undefined, { projectId: b.projectId, pipelineId, id: b.id }, ctx);
  const elapsedMs = (endAt ?? clock.now()) - ctx.start;
  const d = decideEnd({
    end,
    last,
    gateOpen: r.gate.open,
    detail: state.detail,
    pending: state.pending,
    failed,
    name: buildName(r),
    ofPipeline: ofPipeline(r),
    elapsed: formatElapsed(elapsedMs),
    polls: progress.polls,
    timeoutMs: ctx.settings.timeoutMs,
    trouble: troubleNote(progress, clock.now()),
    problem: seen.problem,
  });
  const o = outcomeOf(r, { headline: d.headline, conclusion: d.conclusion, seen, elapsedMs, logAfterEndMs, files });
  const error = withFilesProblem(d.error, files, over !== undefined);
  if (error === undefined) return o;
  const done = d.done ?? (d.error === undefined && over !== undefined ? `${buildName(r)} ended ${last?.status ?? ''}` : undefined);
  throw new OperationError(error, done === undefined ? o : { ...o, done });
}

/** The wait broken off: the job was cancelled (the build stopped when it is this step's), or a read failed. */
async function brokenOffError(r: Reading, e: unknown): Promise<OperationError> {
  const { b, ctx, state, progress } = r;
  const seen = await r.report.end(undefined, []);
  const elapsedMs = (): number => ctx.clock.now() - ctx.start;
  if (!(e instanceof CancelledError)) {
    state.http = statusOf(e) ?? state.http;
    // Our own sentences stand as they are; a request's failure says what was being read.
    const plain = e instanceof ActionError && !(e instanceof RequestError);
    const lastEnded = progress.last !== undefined && endOf(progress.last) !== 'waiting';
    const conclusion = brokenOff({ cancelled: false, unknownBuild: e instanceof UnknownBuildError, lastEnded });
    const message = plain ? e.message : `reading ${buildName(r)} failed: ${errorMessage(e)}`;
    return new OperationError(message, outcomeOf(r, { headline: `${buildName(r)}: error`, conclusion, seen, elapsedMs: elapsedMs() }), {
      cause: e,
    });
  }
  const lastStatus = progress.status;
  const stopped = b.stopOnCancel ? await stopAndSee(ctx.api, b, ctx.clock, ctx.log.info) : undefined;
  if (stopped?.status !== undefined) seeAfterStop(progress, stopped.status, ctx.clock.now());
  const message = `cancelled after ${formatElapsed(elapsedMs())}, last status ${lastStatus ?? 'unknown'}; ${stopped?.said ?? 'the build goes on in bk-ci'}`;
  const conclusion = brokenOff({ cancelled: true, stopEnded: stopped?.ended === true });
  return new OperationError(
    message,
    outcomeOf(r, { headline: `${buildName(r)}: cancelled`, conclusion, seen, elapsedMs: elapsedMs(), stopped: stopped?.shown }),
  );
}

/** The status read after the stop becomes the last one the step saw (the build-status output, the summary). */
function seeAfterStop(progress: Progress<BuildStatus>, s: BuildStatus, at: number): void {
  progress.last = s;
  if (s.status !== progress.status) progress.changes.push({ at, status: s.status });
  progress.status = s.status;
}

/** The outcome of every ending: the build as the step saw it, and what it showed besides its status. */
function outcomeOf(
  r: Reading,
  o: {
    headline: string;
    conclusion: Conclusion;
    seen: Seen;
    elapsedMs: number;
    logAfterEndMs?: number;
    stopped?: string | undefined;
    files?: Fetched | undefined;
  },
): Outcome<BuildOutput> {
  notify(r, o.conclusion);
  const { b, state } = r;
  const described = describeBuild(o.headline, {
    projectId: b.projectId,
    pipelineId: b.pipelineId,
    id: b.id,
    num: state.num,
    executeCount: state.executeCount,
    // build-status without pipeline-id learns the pipeline from the model.
    url: urlOf(r),
    progress: r.progress,
    detail: state.detail,
    pending: state.pending,
    pauses: state.pauses,
    conclusion: o.conclusion,
    stopped: o.stopped,
    elapsedMs: o.elapsedMs,
    logAfterEndMs: o.logAfterEndMs,
    start: r.ctx.start,
  });
  const report = r.report.outputs;
  return {
    ...described,
    status: state.http,
    outputs: { ...described.outputs, ...report, ...o.files?.outputs },
    blocks: [...described.blocks, ...o.seen.blocks, ...(o.files?.blocks ?? [])],
    ...(o.seen.diagnostics === undefined ? {} : { diagnostics: o.seen.diagnostics }),
  };
}
