// Reads beside the wait: the build's log, its model, its variables and artifacts, and its status
// read again after a stop. None decides the verdict (the build's status does; the one model read a
// STAGE_SUCCESS end needs has its own bound, below). Each read has its own small budget on the
// step's clock, counted from when it begins, whether the build runs or has ended: while it runs,
// it is also over by the next poll; after the end, it is its own, never what the wait left of the
// timeout nor what another read left. The log, the model, the variables and the artifacts get the
// client only through SideReads: it is the one way they reach bk-ci.
import type { Clock } from '../base/clock.ts';
import type { Calls } from '../bkci/builds.ts';

/** What a side read is. */
export type SideRead = 'log' | 'model' | 'variables' | 'artifacts' | 'status';

/**
 * What one side read may take in all (its attempts and retries), from when it begins. A log read
 * is a page of lines; listing the artifacts is every page and every link.
 */
export const SIDE_READ_MS: Readonly<Record<SideRead, number>> = {
  log: 5000,
  model: 10_000,
  variables: 15_000,
  artifacts: 30_000,
  status: 10_000,
};
/** Each attempt of a side read, at most. */
export const SIDE_ATTEMPT_MS = 10_000;
/** Retries of a side read, at most (and none past its budget). */
const SIDE_RETRIES = 2;
/** After the end, how long the log is read on for its last lines, at most (a read that fails ends it sooner). */
export const SETTLE_BUDGET_MS = 30_000;
/**
 * After a STAGE_SUCCESS end, how long the model that tells a rejected review from a success is
 * tried, poll after poll, before the step says it could not be read: not until the timeout.
 */
export const DECIDING_MODEL_MS = 30_000;

/** The one way a read beside the wait reaches bk-ci: each read with its own budget. */
export class SideReads {
  readonly #api: Calls;
  readonly #clock: Clock;

  constructor(api: Calls, clock: Clock) {
    this.#api = api;
    this.#clock = clock;
  }

  /** When the reads' budgets are counted. */
  get clock(): Clock {
    return this.#clock;
  }

  /**
   * The client for one read of `kind`: every call it makes within the read's budget, counted from
   * now, and over by `until` too when given (the next poll, or a stop's window).
   */
  read(kind: SideRead, until?: number): Calls {
    const budget = {
      attemptMs: SIDE_ATTEMPT_MS,
      retries: SIDE_RETRIES,
      until: Math.min(this.#clock.now() + SIDE_READ_MS[kind], until ?? Number.POSITIVE_INFINITY),
    };
    return { call: (spec) => this.#api.call({ ...spec, budget }) };
  }
}
