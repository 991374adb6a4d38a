import type { Clock } from '../../src/base/clock.ts';

/**
 * Request timeouts on a test's clock. Each fires after its own time in real time, as
 * AbortSignal.timeout does, unless the world says first that no answer is coming (the emulator
 * holds a request it was told to hang): then the newest timeout, the held request's, since the
 * step sends one request at a time, fires at once and the clock moves on to when it was due. A
 * request that hangs then costs the test no real time, and the step sees its request-timeout pass.
 */
class Timeouts {
  readonly #pending: { due: number; fire: () => void }[] = [];

  create(ms: number, now: number): AbortSignal {
    const controller = new AbortController();
    const entry = {
      due: now + ms,
      fire: (): void => {
        clearTimeout(timer);
        const at = this.#pending.indexOf(entry);
        if (at >= 0) this.#pending.splice(at, 1);
        controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
      },
    };
    const timer = setTimeout(entry.fire, ms);
    timer.unref();
    this.#pending.push(entry);
    return controller.signal;
  }

  /** When the newest pending timeout was due, or undefined when none is pending. */
  newestDue(): number | undefined {
    return this.#pending.at(-1)?.due;
  }

  /** Fires the newest pending timeout. */
  fireNewest(): void {
    this.#pending.at(-1)?.fire();
  }
}

/** A clock whose pending request timeout can be made to pass at once (see Timeouts). */
export interface LapsingClock extends Clock {
  /** No answer is coming to the request in flight: its timeout passes now, and the clock moves to it. */
  lapse(): void;
}

/** Time that moves only when the code under test sleeps, or a request's timeout lapses. */
export class FakeClock implements LapsingClock {
  t = 0;
  sleeps: number[] = [];
  readonly #timeouts = new Timeouts();
  now = (): number => this.t;
  sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) return Promise.reject(new Error('aborted'));
    this.sleeps.push(ms);
    this.t += ms;
    return Promise.resolve();
  };
  timeout = (ms: number): AbortSignal => this.#timeouts.create(ms, this.now());
  lapse = (): void => {
    this.t = Math.max(this.t, this.#timeouts.newestDue() ?? this.t);
    this.#timeouts.fireNewest();
  };
}

/** Real time for requests; a sleep, or a request's timeout that lapses, moves the clock forward at once instead of waiting. */
export class SkippingClock implements LapsingClock {
  skipped = 0;
  readonly #timeouts = new Timeouts();
  now = (): number => Date.now() + this.skipped;
  sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) return Promise.reject(new Error('aborted'));
    this.skipped += Math.max(0, ms);
    return Promise.resolve();
  };
  timeout = (ms: number): AbortSignal => this.#timeouts.create(ms, this.now());
  lapse = (): void => {
    this.skipped += Math.max(0, (this.#timeouts.newestDue() ?? 0) - this.now());
    this.#timeouts.fireNewest();
  };
}
