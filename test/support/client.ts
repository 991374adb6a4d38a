import { Agent, fetch } from 'undici';
import { GivenToken, IssuedTokens, type TokenSource } from '../../src/auth.ts';
import { type Clock, systemClock } from '../../src/clock.ts';
import { BkciApi, issueToken } from '../../src/http/api.ts';
import { HttpCaller } from '../../src/http/caller.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../src/http/retry.ts';
import { fetchTransport } from '../../src/http/transport.ts';
import type { Log } from '../../src/log.ts';
import { Secrets } from '../../src/redact.ts';

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
  retry?: Partial<RetryPolicy>;
  requestTimeoutMs?: number;
  deadline?: number;
  signal?: AbortSignal;
  renewMarginMs?: number;
  maxBodyBytes?: number;
}

/** The action's client stack, wired as run() wires it, against a loopback server. */
export function makeClient(s: ClientSetup) {
  const clock = s.clock ?? systemClock;
  const log = memoryLog();
  const masked: string[] = [];
  const secrets = new Secrets((v) => masked.push(v));
  const delays: number[] = [];
  const dispatcher = new Agent({ keepAliveTimeout: 10, keepAliveMaxTimeout: 10 });
  const http = new HttpCaller({
    transport: fetchTransport(fetch, dispatcher),
    clock: {
      now: () => clock.now(),
      sleep: (ms, signal) => {
        delays.push(ms);
        return clock.sleep(ms, signal);
      },
    },
    random: s.random ?? (() => 0),
    log,
    requestTimeoutMs: s.requestTimeoutMs ?? 5000,
    retry: { ...DEFAULT_RETRY_POLICY, ...s.retry },
    signal: s.signal ?? new AbortController().signal,
    maxBodyBytes: s.maxBodyBytes ?? 64 * 1024 * 1024,
    userAgent: 'bkci-action-test',
  });
  const tokens: TokenSource =
    s.accessToken !== undefined && s.bkToken === undefined
      ? new GivenToken(s.accessToken, s.userId ?? 'admin')
      : new IssuedTokens({
          issue: () => issueToken(http, s.baseUrl, s.bkToken, s.deadline),
          clock,
          secrets,
          log,
          ...(s.userId === undefined ? {} : { userId: s.userId }),
          ...(s.renewMarginMs === undefined ? {} : { renewMarginMs: s.renewMarginMs }),
        });
  const api = new BkciApi(http, { baseUrl: s.baseUrl, tokens, ...(s.deadline === undefined ? {} : { deadline: s.deadline }) });
  return { api, http, tokens, log, masked, delays, close: () => dispatcher.close() };
}
