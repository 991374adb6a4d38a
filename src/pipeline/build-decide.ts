// What the wait on a build makes of what it read, as pure functions: whether a poll reads the
// build's model, which review the build waits for, whether the wait goes on, and, once it is
// over, the conclusion and the words. Reading is src/pipeline/build-read.ts; the loop that joins
// them, src/pipeline/watch.ts. bk-ci's statuses: docs/bkci/builds.md.

import { countOf, formatDuration } from '../base/duration.ts';
import type { BuildDetail, BuildStatus } from '../bkci/builds.ts';
import type { PollEnd } from '../wait/poll.ts';
import type { FailedStep } from './failed-steps.ts';
import { describePending, describeRejection, type PendingReview, pendingReview, rejection, reviewTimeoutHours } from './review-state.ts';
import { type Conclusion, endOf, firstError, stagePaused, waitingOn } from './status.ts';

/** While a build runs, how often its model is read to see a manual-review step (bk-ci's status does not show one). */
export const DETAIL_EVERY_MS = 30_000;

const queued = (status: string): boolean => status === 'QUEUE' || status === 'QUEUE_CACHE';

/** Who may decide a review, in words. */
export const who = (p: PendingReview): string =>
  p.reviewers.length > 0 ? `${p.reviewers.join(', ')} may approve it` : 'bk-ci names nobody who may approve it';

/** What a poll knows when it decides whether to read the build's model. */
export interface ModelFacts {
  status: BuildStatus;
  /** The status of the poll before this one. */
  previous: string | undefined;
  /** When the model was last read; undefined: never. */
  detailAt: number | undefined;
  now: number;
  pending: PendingReview | undefined;
}

/**
 * Whether this poll reads the model: `needed` when the verdict depends on it (a STAGE_SUCCESS
 * end, which a rejected review also shows), `side` when it is read beside the wait (the first
 * poll, an end, a retry sending the build back to the queue, a stage pause not yet known, every
 * DETAIL_EVERY_MS while it runs), `none` otherwise.
 */
export function modelRead(facts: ModelFacts): 'needed' | 'side' | 'none' {
  const status = facts.status;
  const ended = endOf(status) !== 'waiting';
  const moving = !queued(status.status);
  const stale = facts.detailAt === undefined || facts.now - facts.detailAt >= DETAIL_EVERY_MS;
  // A retry keeps the build's id and sends it back through the queue under a new executeCount,
  // which only the model tells: read it at once, so the log follows the new run from its start.
  const requeued = !moving && facts.previous !== undefined && !queued(facts.previous);
  const read =
    facts.detailAt === undefined || ended || requeued || (stagePaused(status) && facts.pending?.kind !== 'stage') || (moving && stale);
  if (!read) return 'none';
  return ended && status.status === 'STAGE_SUCCESS' ? 'needed' : 'side';
}

/** The review the build waits for now: its model's, unless it ended or bk-ci's status says the stage's pause is over. */
export function reviewNow(status: BuildStatus, detail: BuildDetail | undefined): PendingReview | undefined {
  const now = endOf(status) !== 'waiting' || detail === undefined ? undefined : pendingReview(detail);
  return now?.kind === 'stage' && !stagePaused(status) ? undefined : now;
}

/** What one poll's status means for the wait: `done`, `failed`, or `waiting` on. */
export function pollVerdict(
  status: BuildStatus,
  pending: PendingReview | undefined,
  gateOpen: boolean,
  onReview: 'wait' | 'fail',
): 'done' | 'failed' | 'waiting' {
  const end = endOf(status);
  // Before a retried build's new run showed, the end bk-ci shows is the run before it.
  if (end !== 'waiting' && !gateOpen) return 'waiting';
  if (end === 'success') return 'done';
  if (end !== 'waiting') return 'failed';
  return onReview === 'fail' && (pending !== undefined || stagePaused(status)) ? 'failed' : 'waiting';
}

/** How the build ended for what is read after the wait (why it failed, variables, artifacts): undefined when it goes on. */
export function reportEnd(end: PollEnd, last: BuildStatus | undefined, gateOpen: boolean): 'done' | 'failed' | undefined {
  const over = last === undefined || end === 'timeout' || !gateOpen ? 'waiting' : endOf(last);
  return over === 'waiting' ? undefined : over === 'success' ? 'done' : 'failed';
}

/**
 * The conclusion of a wait broken off: by the job's cancel (the build stopped or not; `after`, the
 * end bk-ci showed once the stop was sent: a build that had already ended keeps its own), or by a
 * read that failed.
 */
export function brokenOff(
  how:
    | { cancelled: true; stopEnded: boolean; after?: BuildEnd | undefined }
    | { cancelled: false; unknownBuild: boolean; lastEnded: boolean },
): Conclusion {
  if (how.cancelled) return how.after !== undefined && how.after !== 'running' ? how.after : how.stopEnded ? 'cancelled' : 'running';
  return how.unknownBuild || how.lastEnded ? 'failure' : 'running';
}

/** What the step knows when the poll loop is over. */
export interface EndFacts {
  end: PollEnd;
  last: BuildStatus | undefined;
  /** Whether an end counts (src/pipeline/rerun-gate.ts). */
  gateOpen: boolean;
  detail: BuildDetail | undefined;
  pending: PendingReview | undefined;
  failed: readonly FailedStep[];
  /** "build #3 (b-…)", and " of pipeline p-…" or "". */
  name: string;
  ofPipeline: string;
  /** The build's time in words, the polls made, the timeout. */
  elapsed: string;
  polls: number;
  timeoutMs: number;
  /** What the failing polls at the deadline were, or "" (src/wait/poll.ts troubleNote). */
  trouble: string;
  /** Variables a later step needs could not be read. */
  problem: string | undefined;
}

/** How the step ends: its conclusion and headline, and the words it fails with (none: it succeeds). */
export interface EndDecision {
  conclusion: Conclusion;
  headline: string;
  error?: string;
  /** What was done before the failure: the build's own end, when only a later read failed. */
  done?: string;
}

/** How a build stands as the step states it: bk-ci's end (src/pipeline/status.ts), a refused review told apart by the model. */
export type BuildEnd = Extract<Conclusion, 'success' | 'failure' | 'cancelled' | 'rejected' | 'running'>;

/**
 * The conclusion bk-ci's status and the build's model (when read) make: `running` while it has
 * not ended; `rejected` when it ended (as a success or a failure) after a review was refused,
 * which its status alone cannot tell (STAGE_SUCCESS). The wait's end and a re-run both decide by it.
 */
export function endConclusion(
  status: Pick<BuildStatus, 'status' | 'endTime'> & { startTime?: number | null | undefined },
  detail: BuildDetail | undefined,
): BuildEnd {
  const end = endOf(status);
  if (end === 'waiting') return 'running';
  if ((end === 'success' || end === 'failure') && detail !== undefined && rejection(detail) !== undefined) return 'rejected';
  return end;
}

/** The end of the wait: timed out, waiting for a review, succeeded, not waited for, rejected, or ended badly. */
export function decideEnd(facts: EndFacts): EndDecision {
  const { last, name } = facts;
  if (facts.end === 'timeout' || last === undefined) return timedOut(facts);
  const conclusion = facts.gateOpen ? endConclusion(last, facts.detail) : 'running';
  if (conclusion === 'running' && facts.end === 'failed') {
    const what =
      facts.pending === undefined
        ? waitingOn(last).replace(/^waiting for /, '')
        : `review of ${describePending(facts.pending)}: ${who(facts.pending)}`;
    const error = `${name} waits for ${what}. on-review: fail ends the step here; the build goes on waiting in bk-ci`;
    return { conclusion: 'waiting-review', headline: `${name}: waiting for review`, error };
  }
  if (conclusion === 'success') {
    const headline = `${name}: ${waitingOn(last)} after ${facts.elapsed}, ${countOf(facts.polls, 'poll')}`;
    if (facts.problem === undefined) return { conclusion: 'success', headline };
    return { conclusion: 'success', headline, error: facts.problem, done: `${name} ended ${last.status}` };
  }
  if (conclusion === 'running') return { conclusion: 'running', headline: `${name}: ${waitingOn(last)} (not waited for)` };
  const refused = facts.detail === undefined ? undefined : rejection(facts.detail);
  if (conclusion === 'rejected' && refused !== undefined) {
    const why = describeRejection(refused, facts.detail && reviewTimeoutHours(facts.detail));
    const error = `${name}${facts.ofPipeline} was stopped by a rejected review: ${why} (bk-ci shows such a build as ${last.status})`;
    return { conclusion: 'rejected', headline: `${name}: rejected`, error };
  }
  const why = whyEnded(conclusion === 'cancelled', last, facts.detail, facts.failed);
  const error = `${name}${facts.ofPipeline} ended ${last.status}${why === undefined ? '' : `: ${why}`}`;
  return { conclusion: conclusion === 'cancelled' ? 'cancelled' : 'failure', headline: `${name}: ${last.status}`, error };
}

function timedOut(facts: EndFacts): EndDecision {
  const still =
    facts.last === undefined
      ? 'could not be read'
      : `is still ${facts.pending ? `waiting for review of ${describePending(facts.pending)}` : waitingOn(facts.last)}`;
  const error = `${facts.name} ${still} after ${facts.elapsed} (${countOf(facts.polls, 'poll')}, timeout ${formatDuration(facts.timeoutMs)}). The step stopped waiting; the build goes on in bk-ci.${facts.trouble}`;
  return { conclusion: 'timed-out', headline: `${facts.name}: timed out`, error };
}

/** Why a build ended badly: who cancelled it, that it never ran, or bk-ci's first error (else the first failed step the model shows). */
function whyEnded(
  cancelled: boolean,
  last: BuildStatus,
  detail: BuildDetail | undefined,
  failed: readonly FailedStep[],
): string | undefined {
  if (cancelled && detail?.cancelUserId) return `cancelled by ${detail.cancelUserId}`;
  const first = firstError(last);
  if (last.status === 'UNEXEC') return `the build never ran (bk-ci ended it before it left the queue)${first ? `; ${first}` : ''}`;
  return first ?? (failed[0] === undefined ? undefined : `${failed[0].name}: ${failed[0].error}`);
}
