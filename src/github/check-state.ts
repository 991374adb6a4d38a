// The check run's state, as decisions check.ts acts on: which check run on the commit is this
// build's, when the next write may go (a cadence that every failure lengthens), how long GitHub
// may hold the step, which problems were said already, and what a failed last update leads to.
// Pure: time is handed in.
import type { Problem, ProblemKind } from './client.ts';

/** GitHub's GITHUB_TOKEN has 1,000 requests an hour per repository, shared by every job: at most one update per 10 s. */
export const UPDATE_EVERY_MS = 10_000;
/** The longest a failure makes the next write wait: the interval doubled per failure in a row, up to this. */
export const MAX_BACKOFF_MS = 80_000;
/** How long after the step's timeout its last writes to GitHub may still go (docs/start-build.md). */
export const END_GRACE_MS = 5_000;
/** How long the end may wait for GitHub after the build's end (a slow or failing GitHub), within the grace. */
export const FINAL_BUDGET_MS = 15_000;
/** After the job's cancel, what GitHub gets: the runner's backstop ends the step 1.8 s after the signal. */
export const CANCEL_WINDOW_MS = 1_500;
/** The last update is sent at most this often (the first once the build ended, then once a cadence later). */
const FINAL_ATTEMPTS = 2;

/** What GitHub shows of a check run, as far as telling whose it is goes. */
export interface RunSeen {
  id: number;
  name: string;
  status: string;
  external_id?: string | null | undefined;
}

/**
 * This build's check run among those on the commit: its name, its build id (external_id), not
 * completed (a completed one is an earlier verdict, left as it is); the newest. A run of the same
 * name for another build is never this one's.
 */
export function ownRun<R extends RunSeen>(runs: readonly R[], name: string, buildId: string): R | undefined {
  let own: R | undefined;
  for (const run of runs)
    if (run.name === name && run.external_id === buildId && run.status !== 'completed' && (own === undefined || run.id > own.id)) own = run;
  return own;
}

/** The wait before the next write after `failures` failures in a row. */
export const backoff = (failures: number): number => Math.min(UPDATE_EVERY_MS * 2 ** Math.max(0, failures - 1), MAX_BACKOFF_MS);

/** When the next write may go: an interval after a write GitHub took, a longer one after each failure, never before GitHub's own wait. */
export class Cadence {
  #failures = 0;
  #next = Number.NEGATIVE_INFINITY;

  ok(now: number): void {
    this.#failures = 0;
    this.#next = now + UPDATE_EVERY_MS;
  }

  failed(now: number, githubWaitMs: number): void {
    this.#failures += 1;
    this.#next = now + Math.max(backoff(this.#failures), githubWaitMs);
  }

  /** Whether the last write failed. */
  get failing(): boolean {
    return this.#failures > 0;
  }

  /** How long from `now` until the next write may go (0: it may). */
  waitFrom(now: number): number {
    return Math.max(0, this.#next - now);
  }
}

/** When the time GitHub may take is over: the step's timeout and its grace, the end's own budget, a cancel's window. */
export function until(times: {
  deadline: number;
  finishedAt?: number | undefined;
  cancelledAt?: number | undefined;
  /** Whether GitHub took the last write (or none was sent yet). */
  answering?: boolean;
}): number {
  // The grace runs from the timeout; for a GitHub that has been answering, from the end when the
  // reads of bk-ci after the build's end (each on a budget of its own, docs/seeing-the-build.md)
  // ran past the timeout: a check GitHub would take is not left in progress for time the step
  // spent on bk-ci. A GitHub that failed keeps the timeout's grace.
  const graceFrom = times.answering === true ? Math.max(times.deadline, times.finishedAt ?? times.deadline) : times.deadline;
  return Math.min(
    graceFrom + END_GRACE_MS,
    times.finishedAt === undefined ? Number.POSITIVE_INFINITY : times.finishedAt + FINAL_BUDGET_MS,
    times.cancelledAt === undefined ? Number.POSITIVE_INFINITY : times.cancelledAt + CANCEL_WINDOW_MS,
  );
}

/** Problems that end the check for this step: GitHub will not take it from this token. */
export const ENDS_CHECK: ReadonlySet<ProblemKind> = new Set(['forbidden', 'auth', 'refused']);

/** One warning per kind of problem: true the first time a kind is seen, false after. */
export class FirstOfKind {
  readonly #seen = new Set<string>();

  first(kind: string): boolean {
    if (this.#seen.has(kind)) return false;
    this.#seen.add(kind);
    return true;
  }
}

/**
 * What a last update that failed leads to: a smaller body at once when GitHub refused this one
 * (422), again after the cadence when GitHub failed and another attempt is left, else stop.
 */
export function afterFailedFinal(problem: Problem, size: number, smallest: number, attempts: number): 'smaller' | 'again' | 'stop' {
  if (problem.kind === 'invalid') return size < smallest ? 'smaller' : 'stop';
  if (ENDS_CHECK.has(problem.kind) || problem.kind === 'late') return 'stop';
  return attempts < FINAL_ATTEMPTS ? 'again' : 'stop';
}

/**
 * The size of a last update sent again after one that failed: GitHub adds an update's annotations
 * to those the run has, so after one that may have been applied (its answer lost) they are not
 * sent a second time.
 */
export const sizeAgain = (p: Problem, size: number): number => (p.maybeApplied && size === 0 ? 1 : size);
