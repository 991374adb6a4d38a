// The wait on a build: one poll loop (src/wait/poll.ts) whose reads are src/pipeline/build-read.ts
// and whose decisions are src/pipeline/build-decide.ts; then the end said, or the cancel (the
// build stopped, src/pipeline/build-stop.ts) or the failed read.

import { formatDuration, formatElapsed } from '../base/duration.ts';
import { ActionError, CancelledError, errorMessage, OperationError, RequestError, statusOf } from '../base/errors.ts';
import type { Outcome } from '../base/outcome.ts';
import { type BuildStatus, UnknownBuildError } from '../bkci/builds.ts';
import type { DownloadResult } from '../download/report.ts';
import { type PollEnd, type PollOptions, type Progress, poll, troubleNote, type Watch } from '../wait/poll.ts';
import type { Build, BuildContext } from './build.ts';
import { brokenOff, decideEnd, endConclusion, pollVerdict, reportEnd } from './build-decide.ts';
import { downloadOnEnd, withFilesProblem } from './build-download.ts';
import type { BuildOutput } from './build-outputs.ts';
import { nameOf, notify, ofPipeline, readPoll, urlOf } from './build-read.ts';
import { BuildReport, NO_REPORT, type ReportShown } from './build-report.ts';
import { stopAndSee } from './build-stop.ts';
import { failedSteps } from './failed-steps.ts';
import { describeBuild } from './outcome.ts';
import { newRunGate } from './rerun-gate.ts';
import { describePending } from './review-state.ts';
import { SideReads } from './side-reads.ts';
import { type Conclusion, endOf, isKnownStatus, waitingOn } from './status.ts';
import { type BuildWait, newState, type WatchOptions } from './wait-state.ts';

/**
 * Reads the build, and with `wait` polls it until bk-ci says it ended (src/pipeline/status.ts). A
 * stage review that was rejected ends like a success in its status and is told apart by the
 * model; a review pause is said once, with who may decide it. The build's id, number, run and
 * conclusion are in every outcome, success or not.
 */
export async function watchBuild(build: Build, options: WatchOptions, ctx: BuildContext): Promise<Outcome<BuildOutput>> {
  const state = newState(build, ctx.start);
  // Every read beside the status polls (the model, the log, the variables, the artifacts) goes through it.
  const reads = new SideReads(ctx.api, ctx.clock);
  const wait: BuildWait = {
    options,
    ctx,
    state,
    reads,
    progress: { polls: 0, last: undefined, status: undefined, changes: [] },
    report: new BuildReport({ ...ctx, reads }, build, options.report ?? NO_REPORT, () => state.build.executeCount ?? 1),
    gate: newRunGate(options.newRun, build.id, ctx.clock),
  };
  const { settings } = ctx;
  let toSay = options.wait;
  const sayWaiting = (): void => {
    if (!toSay) return;
    toSay = false;
    ctx.log.info(
      `waiting for ${nameOf(wait)}: timeout ${formatDuration(settings.timeoutMs)}, a poll every ${formatDuration(settings.pollIntervalMs)}${build.url ? `; ${build.url}` : ''}`,
    );
  };
  // The line names the build's number: said now when it is known, else once the first poll read it.
  if (build.num !== undefined) sayWaiting();
  const watch = pollWatch(wait);
  let end: PollEnd;
  try {
    end = await poll<BuildStatus>({ ...watch, read: () => watch.read().finally(sayWaiting) }, pollOptions(options, ctx), wait.progress);
  } catch (e) {
    throw await brokenOffError(wait, e);
  }
  return ended(wait, end);
}

/** The poll loop's view of the build: read, say, decide. */
function pollWatch(wait: BuildWait): Watch<BuildStatus> {
  const { state } = wait;
  return {
    read: () => readPoll(wait),
    status: (s) => s.status,
    // A review pause was just said, with who may decide it: the status line does not say it again.
    describe: (s) => (state.pending !== undefined || waitingOn(s) === s.status ? s.status : `${s.status}: ${waitingOn(s)}`),
    waitingOn: (s) => (state.pending === undefined ? waitingOn(s) : `waiting for review of ${describePending(state.pending)}`),
    verdict: (status) => {
      if (endOf(status) === 'waiting' && !isKnownStatus(status.status) && !state.warned.has(status.status)) {
        state.warned.add(status.status);
        wait.ctx.log.warning(`${nameOf(wait)} has status "${status.status}", which this action does not know; waiting on`);
      }
      return pollVerdict(status, state.pending, wait.gate.open, wait.options.onReview);
    },
    ...(wait.report.follow === undefined ? {} : { follow: wait.report.follow }),
  };
}

function pollOptions(options: WatchOptions, ctx: BuildContext): PollOptions {
  const { clock, log, signal, start, settings } = ctx;
  return { start, timeoutMs: settings.timeoutMs, intervalMs: settings.pollIntervalMs, wait: options.wait, clock, log, signal };
}

/** The wait is over: the build's time up to the poll that saw its end, what is read after it, the decision. */
async function ended(wait: BuildWait, end: PollEnd): Promise<Outcome<BuildOutput>> {
  const { options, ctx, state, progress } = wait;
  const { clock } = ctx;
  const endAt = end === 'done' || end === 'failed' ? state.readAt : undefined;
  // The variables read at the end are not the log's time.
  const logAfterEndMs = endAt === undefined ? 0 : clock.now() - endAt - wait.report.variables.readMs;
  if (logAfterEndMs > 0) ctx.log.info(`read the rest of the build's log for ${formatElapsed(logAfterEndMs)} after its end`);
  const last = progress.last;
  const failed = failedSteps(state.detail, last);
  const over = reportEnd(end, last, wait.gate.open);
  const seen = await wait.report.end(over, failed);
  const { build } = state;
  const pipelineId = build.pipelineId ?? state.detail?.pipelineId ?? undefined;
  const files = await downloadOnEnd(options.download, over !== undefined, { ...build, pipelineId }, ctx);
  const elapsedMs = (endAt ?? clock.now()) - ctx.start;
  const decision = decideEnd({
    end,
    last,
    gateOpen: wait.gate.open,
    detail: state.detail,
    pending: state.pending,
    failed,
    name: nameOf(wait),
    ofPipeline: ofPipeline(wait),
    elapsed: formatElapsed(elapsedMs),
    polls: progress.polls,
    timeoutMs: ctx.settings.timeoutMs,
    trouble: troubleNote(progress, clock.now()),
    problem: seen.problem,
  });
  const outcome = outcomeOf(wait, { headline: decision.headline, conclusion: decision.conclusion, seen, elapsedMs, logAfterEndMs, files });
  const error = withFilesProblem(decision.error, files, over !== undefined);
  if (error === undefined) return outcome;
  const done =
    decision.done ?? (decision.error === undefined && over !== undefined ? `${nameOf(wait)} ended ${last?.status ?? ''}` : undefined);
  throw new OperationError(error, done === undefined ? outcome : { ...outcome, done });
}

/** The wait broken off: the job was cancelled (the build stopped when it is this step's), or a read failed. */
async function brokenOffError(wait: BuildWait, error: unknown): Promise<OperationError> {
  const { options, ctx, state, progress } = wait;
  const seen = await wait.report.end(undefined, []);
  const elapsedMs = (): number => ctx.clock.now() - ctx.start;
  if (!(error instanceof CancelledError)) {
    state.http = statusOf(error) ?? state.http;
    // Our own sentences stand as they are; a request's failure says what was being read.
    const plain = error instanceof ActionError && !(error instanceof RequestError);
    const lastEnded = progress.last !== undefined && endOf(progress.last) !== 'waiting';
    const conclusion = brokenOff({ cancelled: false, unknownBuild: error instanceof UnknownBuildError, lastEnded });
    const message = plain ? error.message : `reading ${nameOf(wait)} failed: ${errorMessage(error)}`;
    return new OperationError(message, outcomeOf(wait, { headline: `${nameOf(wait)}: error`, conclusion, seen, elapsedMs: elapsedMs() }), {
      cause: error,
    });
  }
  const lastStatus = progress.status;
  const stopped = options.stopOnCancel ? await stopAndSee(ctx.api, state.build, ctx.clock, ctx.log.info) : undefined;
  if (stopped?.status !== undefined) seeAfterStop(progress, stopped.status, ctx.clock.now());
  const message = `cancelled after ${formatElapsed(elapsedMs())}, last status ${lastStatus ?? 'unknown'}; ${stopped?.said ?? 'the build goes on in bk-ci'}`;
  const after = stopped?.status && endConclusion(stopped.status, state.detail);
  const conclusion = brokenOff({ cancelled: true, stopEnded: stopped?.ended === true, after });
  return new OperationError(
    message,
    outcomeOf(wait, { headline: `${nameOf(wait)}: cancelled`, conclusion, seen, elapsedMs: elapsedMs(), stopped: stopped?.shown }),
  );
}

/** The status read after the stop becomes the last one the step saw (the build-status output, the summary). */
function seeAfterStop(progress: Progress<BuildStatus>, status: BuildStatus, at: number): void {
  progress.last = status;
  if (status.status !== progress.status) progress.changes.push({ at, status: status.status });
  progress.status = status.status;
}

/** The outcome of every ending: the build as the step saw it, and what it showed besides its status. */
function outcomeOf(
  wait: BuildWait,
  end: {
    headline: string;
    conclusion: Conclusion;
    seen: ReportShown;
    elapsedMs: number;
    logAfterEndMs?: number;
    stopped?: string | undefined;
    files?: DownloadResult | undefined;
  },
): Outcome<BuildOutput> {
  notify(wait, end.conclusion);
  const { state } = wait;
  const described = describeBuild(end.headline, {
    ...state.build,
    // build-status without pipeline-id learns the pipeline from the model.
    url: urlOf(wait),
    progress: wait.progress,
    detail: state.detail,
    pending: state.pending,
    pauses: state.pauses,
    conclusion: end.conclusion,
    stopped: end.stopped,
    elapsedMs: end.elapsedMs,
    logAfterEndMs: end.logAfterEndMs,
    start: wait.ctx.start,
  });
  const report = wait.report.outputs;
  return {
    ...described,
    status: state.http,
    outputs: { ...described.outputs, ...report, ...end.files?.outputs },
    blocks: [...described.blocks, ...end.seen.blocks, ...(end.files?.blocks ?? [])],
    ...(end.seen.diagnostics === undefined ? {} : { diagnostics: end.seen.diagnostics }),
  };
}
