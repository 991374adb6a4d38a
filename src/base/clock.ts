/** Time as a dependency: the wait, retry delays and deadlines read it, tests replace it. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason once it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * A signal that aborts (a TimeoutError) once `ms` have passed: one request's own deadline. `of`
   * names whose requests it bounds when not bk-ci's (`github`): a test's clock can then let the
   * right one pass when a server holds a request.
   */
  timeout(ms: number, of?: string): AbortSignal;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal?.reason as Error);
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  timeout: (ms) => AbortSignal.timeout(ms),
};
