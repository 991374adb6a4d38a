// The step's life as a process: the job's cancel (SIGINT, then SIGTERM 7.5 s later from the
// runner), the exit backstop that ends a cancelled step in time whatever is still under way, the
// hold an operation may ask for (stopping a build it started), and the guard against a run()
// that never settles (Node would end the process with exit code 0, and the step would pass).

/** The runner sends SIGTERM 7.5 s after SIGINT; a cancelled step is gone well before that. */
export const CANCEL_EXIT_MS = 1800;
/** The most an operation may hold the exit after a cancel (holdExit), inside the runner's 7.5 s. */
export const MAX_HOLD_MS = 6900;

/** What of the process the lifecycle uses: the real one by default, a stand-in in tests. */
export interface ProcessSeam {
  /** Listens for (or, with `on` false, stops listening for) SIGINT and SIGTERM. */
  signals(listener: (signal: NodeJS.Signals) => void, on: boolean): void;
  /** Listens once for (or, with `on` false, stops listening for) Node's beforeExit. */
  beforeExit(listener: () => void, on: boolean): void;
  exit(code: number): void;
  /** Wall-clock time: the backstop counts real time, whatever clock the operation was given. */
  now(): number;
  setTimeout(run: () => void, ms: number): { unref(): unknown };
  clearTimeout(timer: { unref(): unknown } | undefined): void;
}

const realProcess: ProcessSeam = {
  signals: (listener, on) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) on ? process.on(signal, listener) : process.off(signal, listener);
  },
  beforeExit: (listener, on) => (on ? process.once('beforeExit', listener) : process.off('beforeExit', listener)),
  exit: (code) => process.exit(code),
  now: () => Date.now(),
  setTimeout: (f, ms) => setTimeout(f, ms),
  clearTimeout: (t) => clearTimeout(t as NodeJS.Timeout | undefined),
};

export interface LifecycleOptions {
  /** Said once, at the first signal. */
  onSignal(signal: NodeJS.Signals): void;
  /** Called when Node is about to end the process while run() has not settled. */
  onUnsettled(): void;
  /** Whether the step is this process: only then is an unsettled run() watched for. */
  ownsProcess: boolean;
  process?: ProcessSeam;
}

export interface Lifecycle {
  /** Aborted at the job's first cancel signal. */
  readonly signal: AbortSignal;
  /** Lets the step exit up to `ms` after a cancel (capped at MAX_HOLD_MS); the release undoes it if no signal came yet. */
  holdExit(ms: number): () => void;
  /** run() has settled: the handlers go. */
  close(): void;
}

/** Listens for the job's cancel and arms the exit backstop when it comes. */
export function startLifecycle(options: LifecycleOptions): Lifecycle {
  const proc = options.process ?? realProcess;
  const cancel = new AbortController();
  let exitAfterMs = CANCEL_EXIT_MS;
  let signalledAt: number | undefined;
  let exitTimer: { unref(): unknown } | undefined;
  const armExit = (): void => {
    if (signalledAt === undefined) return;
    proc.clearTimeout(exitTimer);
    exitTimer = proc.setTimeout(() => proc.exit(1), Math.max(0, signalledAt + exitAfterMs - proc.now()));
    exitTimer.unref();
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    if (cancel.signal.aborted) return;
    options.onSignal(signal);
    signalledAt = proc.now();
    cancel.abort();
    armExit();
  };
  let settled = false;
  const unsettled = (): void => {
    if (!settled) options.onUnsettled();
  };
  if (options.ownsProcess) proc.beforeExit(unsettled, true);
  proc.signals(onSignal, true);
  return {
    signal: cancel.signal,
    holdExit: (ms) => {
      exitAfterMs = Math.max(exitAfterMs, Math.min(ms, MAX_HOLD_MS));
      armExit();
      // Released before any signal: a later cancel gets the short backstop again.
      return () => {
        if (signalledAt === undefined) exitAfterMs = CANCEL_EXIT_MS;
      };
    },
    close: () => {
      proc.signals(onSignal, false);
      settled = true;
      proc.beforeExit(unsettled, false);
    },
  };
}
