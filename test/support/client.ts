import { type Clock, systemClock } from '../../src/base/clock.ts';
import type { Log } from '../../src/base/log.ts';
import type { BkciApi } from '../../src/bkci/client.ts';
import { connect } from '../../src/bkci/connect.ts';
import { nodeTransport } from '../../src/http/node-transport.ts';
import type { BuildContext } from '../../src/pipeline/build.ts';
import { Secrets } from '../../src/runner/secrets.ts';

export interface LogLine {
  level: 'debug' | 'info' | 'warning';
  message: string;
}

export function memoryLog(): Log & { lines: LogLine[]; text: () => string } {
  const lines: LogLine[] = [];
  return {
    lines,
    debug: (message) => lines.push({ level: 'debug', message }),
    info: (message) => lines.push({ level: 'info', message }),
    warning: (message) => lines.push({ level: 'warning', message }),
    text: () => lines.map((l) => `${l.level}: ${l.message}`).join('\n'),
  };
}

export interface ClientSetup {
  baseUrl: string;
  accessToken?: string | undefined;
  bkToken?: string | undefined;
  userId?: string | undefined;
  clock?: Clock;
  random?: () => number;
  retries?: number;
  requestTimeoutMs?: number;
  deadline?: number;
  signal?: AbortSignal;
  renewMarginMs?: number;
  maxBodyBytes?: number;
}

/**
 * The action's client, built by the same connect() run() uses, against a loopback server.
 * Retry delays are recorded in `delays`; masked values in `masked`; log lines in `log`.
 */
export function makeClient(s: ClientSetup) {
  const clock = s.clock ?? systemClock;
  const log = memoryLog();
  const masked: string[] = [];
  const delays: number[] = [];
  const wire = nodeTransport({ keepAliveMs: 1000 });
  const { tokens, api } = connect({
    ...s,
    gateway: 'bk-ci',
    transport: wire.transport,
    clock: {
      now: () => clock.now(),
      sleep: (ms, signal) => {
        delays.push(ms);
        return clock.sleep(ms, signal);
      },
      timeout: (ms) => clock.timeout(ms),
    },
    random: s.random ?? (() => 0),
    log,
    secrets: new Secrets((v) => masked.push(v)),
    signal: s.signal ?? new AbortController().signal,
    requestTimeoutMs: s.requestTimeoutMs ?? 5000,
    retries: s.retries ?? 3,
  });
  return { api, tokens, log, masked, delays, close: async () => wire.close() };
}

/** What a build's wait, start or retry takes of the step, from a client made here: the calls, the clock, the log, the job's cancel, the start. */
export const stepContext = (c: Pick<ReturnType<typeof makeClient>, 'api' | 'log'>, clock: Clock, signal: AbortSignal) => ({
  api: c.api,
  clock,
  log: c.log,
  signal,
  start: clock.now(),
});

/** What watchBuild() needs of a step, for a watch run by a test: the client, its clock and log, a minute's timeout, a poll a second. */
export function watchContext(api: BkciApi, clock: Clock, log: Log, env?: NodeJS.ProcessEnv): BuildContext {
  return {
    api,
    clock,
    log,
    signal: new AbortController().signal,
    start: clock.now(),
    settings: { timeoutMs: 60_000, pollIntervalMs: 1000 },
    secrets: new Secrets(() => undefined),
    ...(env === undefined ? {} : { env }),
  };
}
