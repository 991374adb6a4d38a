import type { Clock } from '../../src/clock.ts';

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
