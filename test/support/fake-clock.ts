import type { Clock } from '../../src/base/clock.ts';

/**
 * Request timeouts on a test's clock. Each fires after its own time in real time, as
 * AbortSignal.timeout does, unless the world says first that no answer is coming (the emulator
 * holds a request it was told to hang): then the newest timeout, the held request's, since the
 * step sends one request at a time, fires at once and the clock moves on to when it was due. A
 * request that hangs then costs the test no real time, and the step sees its request-timeout pass.
 * Requests to GitHub (the check run) go beside bk-ci's: their timeouts are told apart by `of`.
 */
class Timeouts {
  readonly #pending: { due: number; of: string | undefined; fire: () => void }[] = [];

  create(ms: number, now: number, of: string | undefined): AbortSignal {
    const controller = new AbortController();
    const entry = {
      due: now + ms,
      of,
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

  /** When the newest pending timeout of `of`'s requests was due, or undefined when none is pending. */
  newestDue(of: string | undefined): number | undefined {
    return this.#newest(of)?.due;
  }

  /** Fires the newest pending timeout of `of`'s requests (bk-ci's when undefined). */
  fireNewest(of: string | undefined): void {
    this.#newest(of)?.fire();
  }

  #newest(of: string | undefined) {
    return this.#pending.findLast((e) => e.of === of);
  }
}

/** A clock whose pending request timeout can be made to pass at once (see Timeouts). */
interface LapsingClock extends Clock {
  /** No answer is coming to the request in flight (bk-ci's, or `of`'s): its timeout passes now, and the clock moves to it. */
  lapse(of?: string): void;
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
  timeout = (ms: number, of?: string): AbortSignal => this.#timeouts.create(ms, this.now(), of);
  lapse = (of?: string): void => {
    this.t = Math.max(this.t, this.#timeouts.newestDue(of) ?? this.t);
    this.#timeouts.fireNewest(of);
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
  timeout = (ms: number, of?: string): AbortSignal => this.#timeouts.create(ms, this.now(), of);
  lapse = (of?: string): void => {
    this.skipped += Math.max(0, (this.#timeouts.newestDue(of) ?? 0) - this.now());
    this.#timeouts.fireNewest(of);
  };
}
