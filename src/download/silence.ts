// request-timeout as the longest silence of a download, not a bound on the whole transfer.
import type { Clock } from '../base/clock.ts';

export interface Watchdog {
  touch(): void;
  stop(): void;
}

/**
 * Calls `silent` once nothing has happened for `ms` by the clock: request-timeout as the longest
 * silence, not a bound on the whole transfer. One timer at a time, re-armed for what is left.
 */
export function watchdog(clock: Clock, ms: number, silent: () => void): Watchdog {
  let last = clock.now();
  let stopped = false;
  const arm = (wait: number): void => {
    clock.timeout(Math.max(1, wait)).addEventListener(
      'abort',
      () => {
        if (stopped) return;
        const idle = clock.now() - last;
        if (idle >= ms) silent();
        else arm(ms - idle);
      },
      { once: true },
    );
  };
  arm(ms);
  return {
    touch: () => {
      last = clock.now();
    },
    stop: () => {
      stopped = true;
    },
  };
}
