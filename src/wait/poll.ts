import type { Clock } from '../base/clock.ts';
import { countOf, formatElapsed, parseRetryAfter, utcTime } from '../base/duration.ts';
import { BudgetSpentError, CancelledError, DeadlineError, HttpError, NetworkError, RequestTimeoutError } from '../base/errors.ts';
import type { Log } from '../base/log.ts';
import type { Block } from '../base/outcome.ts';

/** What the wait has seen so far; the caller builds its outputs and messages from it. */
export interface Progress<T> {
  /** Reads made, answered or not (a read's retries are one read). */
  polls: number;
  last: T | undefined;
  status: string | undefined;
  changes: { at: number; status: string }[];
  /** Polls failing for a passing reason (5xx, 429, reset, timeout): since when, the last reason in short and in full. */
  trouble?: { since: number; reason: string; error: string };
}

export interface Watch<T> {
  /** One poll. */
  read(): Promise<T>;
  /** The status tracked for changes. */
  status(value: T): string;
  /** How the value reads in a log line: the status and what goes with it. */
  describe(value: T): string;
  /** What the heartbeat says the wait is on ("RUNNING", "waiting for review of stage 'Release'"); the status by default. */
  waitingOn?(value: T): string;
  /** `done` ends the wait well, `failed` ends it badly, `waiting` goes on. */
  verdict(value: T): 'done' | 'failed' | 'waiting';
  /** Reading that rides on the polls (the build's log): no timer of its own. */
  follow?: Follower<T>;
}

/**
 * What reads along with a wait. `afterRead` is awaited after each poll that got a value, and must
 * be over by `until` (when the next poll is due: it never pushes a poll back); once the wait has
 * ended, `settle` is awaited after a short pause for as long as `pending` says there may be more
 * to read (the follower bounds that), within `settleMs` of the end (its own time: not what the
 * wait left of the timeout), and not after a cancel. A follower's own failures are its own: it
 * never throws.
 */
export interface Follower<T> {
  afterRead(value: T, until: number): Promise<void>;
  pending(end: 'done' | 'failed'): boolean;
  settle(end: 'done' | 'failed', until: number): Promise<void>;
  /** How long reading on after the end may take in all. */
  readonly settleMs: number;
}

/** The pause between reads after the wait has ended (bk-ci makes new lines readable within about 3 s). */
const SETTLE_MS = 2000;

export interface PollOptions {
  /** When the step started (by `clock`); the deadline is start + timeout. */
  start: number;
  timeoutMs: number;
  intervalMs: number;
  /** false: read once, whatever the status. */
  wait: boolean;
  clock: Clock;
  log: Log;
  signal: AbortSignal;
  /** At most one "still …" line per this much time. Default 30 s. */
  heartbeatMs?: number;
}

export type PollEnd = 'done' | 'failed' | 'read-once' | 'timeout';

/** A failure that a later poll may not meet: an overloaded or restarting gateway, a dropped connection. */
export function isTransient(error: unknown): boolean {
  if (error instanceof HttpError) return error.status >= 500 || error.status === 429 || error.status === 423;
  return (error instanceof NetworkError && !error.permanent) || error instanceof RequestTimeoutError || error instanceof BudgetSpentError;
}

const reasonOf = (error: unknown): string =>
  error instanceof HttpError
    ? `bk-ci answered HTTP ${error.status}`
    : error instanceof RequestTimeoutError
      ? 'bk-ci did not answer in time'
      : 'the connection failed';

/**
 * The one poll loop: the first poll at once, then one every interval counted from the start of
 * the last (a slow answer does not push the schedule back), the last one at the deadline, never
 * a sleep past it. A passing failure costs one poll, not the step: the wait goes on, the
 * heartbeat says what is happening, and only the deadline ends it. Cancellation throws
 * CancelledError; any other failure is thrown as it is.
 */
export async function poll<T>(watch: Watch<T>, options: PollOptions, progress: Progress<T>): Promise<PollEnd> {
  const { clock, log } = options;
  const deadline = options.start + options.timeoutMs;
  const heartbeatMs = options.heartbeatMs ?? 30_000;
  const elapsed = (): string => formatElapsed(clock.now() - options.start);
  let lastLine = clock.now();
  for (;;) {
    const pollAt = clock.now();
    let value: T | undefined;
    /** No poll before this instant: the server's Retry-After on a failed one. */
    let notBefore = 0;
    try {
      value = await watch.read();
    } catch (cause) {
      if (cause instanceof DeadlineError) return 'timeout';
      notBefore = pollFailed(cause, pollAt, options, progress, elapsed);
    }
    if (value !== undefined) {
      progress.polls++;
      progress.last = value;
      if (progress.trouble !== undefined) {
        log.info(`${elapsed()}: bk-ci answers again, after ${formatElapsed(pollAt - progress.trouble.since)} of failed polls`);
        delete progress.trouble;
      }
      const status = watch.status(value);
      log.debug(`poll ${progress.polls}: ${watch.describe(value)}`);
      if (status !== progress.status) {
        progress.changes.push({ at: clock.now(), status });
        progress.status = status;
        log.info(`${elapsed()}: ${watch.describe(value)}`);
        lastLine = clock.now();
      }
      const verdict = watch.verdict(value);
      // What rides on the poll is over when the next poll is due.
      await watch.follow?.afterRead(value, Math.min(pollAt + options.intervalMs, deadline));
      if (verdict !== 'waiting') {
        if (watch.follow !== undefined) await settle(watch.follow, verdict, options);
        return verdict;
      }
      if (!options.wait) return 'read-once';
    }
    if (pollAt >= deadline) return 'timeout';
    if (clock.now() - lastLine >= heartbeatMs) {
      const trouble = progress.trouble;
      const failing = trouble === undefined ? '' : `; ${trouble.reason} for ${formatElapsed(clock.now() - trouble.since)}`;
      log.info(`still ${waitingOn(watch, progress)} after ${elapsed()}, ${countOf(progress.polls, 'poll')}${failing}`);
      lastLine = clock.now();
    }
    // A poll the server asked not to get before the deadline is not sent: the wait ends there.
    if (notBefore > deadline) return 'timeout';
    const next = Math.max(Math.min(pollAt + options.intervalMs, deadline), notBefore);
    await clock.sleep(Math.max(0, next - clock.now()), options.signal).catch(() => {
      throw new CancelledError();
    });
  }
}

/**
 * A read that failed: thrown on unless the wait goes on past it (a passing failure); then the
 * trouble is noted (said once) and the result is when the next poll may be sent at the earliest
 * (the server's Retry-After), 0 when it did not say.
 */
function pollFailed<T>(cause: unknown, pollAt: number, options: PollOptions, progress: Progress<T>, elapsed: () => string): number {
  // A read that was sent and failed is a poll too: `polls` counts the reads made, not the answers.
  if (!(cause instanceof CancelledError)) progress.polls++;
  if (!options.wait || !isTransient(cause)) throw cause;
  const { clock, log } = options;
  const after = cause instanceof HttpError ? parseRetryAfter(cause.retryAfter, clock.now()) : undefined;
  const notBefore = after === undefined ? 0 : clock.now() + after;
  const error = cause instanceof Error ? cause.message : String(cause);
  if (progress.trouble === undefined) log.info(`${elapsed()}: a poll failed (${error}); waiting on`);
  progress.trouble = { since: progress.trouble?.since ?? pollAt, reason: reasonOf(cause), error };
  return notBefore;
}

/** Reading on after the end, a pause between reads, until the follower has it all, its time is up or a cancel. */
async function settle<T>(follow: Follower<T>, end: 'done' | 'failed', options: PollOptions): Promise<void> {
  const pause = Math.min(options.intervalMs, SETTLE_MS);
  const until = options.clock.now() + follow.settleMs;
  while (follow.pending(end) && options.clock.now() + pause <= until && !options.signal.aborted) {
    try {
      await options.clock.sleep(pause, options.signal);
    } catch {
      return;
    }
    await follow.settle(end, until);
  }
}

/** "RUNNING", or what the operation says it waits on ("waiting for review of stage 'Release'"). */
function waitingOn<T>(watch: Watch<T>, progress: Progress<T>): string {
  const last = progress.last;
  return last === undefined ? 'waiting' : (watch.waitingOn?.(last) ?? watch.status(last));
}

/** What the trouble at the deadline was, for the timeout message; empty when there was none. */
export function troubleNote<T>(progress: Progress<T>, now: number): string {
  const trouble = progress.trouble;
  return trouble === undefined
    ? ''
    : ` The polls of the last ${formatElapsed(now - trouble.since)} failed; the last one: ${trouble.error}.`;
}

/** The summary's table of status changes, when there were any. */
export function changesTable<T>(progress: Progress<T>, start: number): Block[] {
  return progress.changes.length === 0
    ? []
    : [
        {
          kind: 'table',
          title: 'Status changes',
          headers: ['After', 'Time', 'Status'],
          rows: progress.changes.map((c) => [formatElapsed(c.at - start), utcTime(c.at), c.status]),
        },
      ];
}
