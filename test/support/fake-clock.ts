import type { Clock } from '../../src/base/clock.ts';

/** Time that moves only when the code under test sleeps or a fake request takes time. */
export class FakeClock implements Clock {
  t = 0;
  sleeps: number[] = [];
  now = (): number => this.t;
  sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) return Promise.reject(new Error('aborted'));
    this.sleeps.push(ms);
    this.t += ms;
    return Promise.resolve();
  };
}

/** Real time for requests; a sleep moves the clock forward at once instead of waiting. */
export class SkippingClock implements Clock {
  skipped = 0;
  now = (): number => Date.now() + this.skipped;
  sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) return Promise.reject(new Error('aborted'));
    this.skipped += Math.max(0, ms);
    return Promise.resolve();
  };
}
