import type { Clock } from '../clock.ts';
import { HttpCaller } from '../http/caller.ts';
import { DEFAULT_RETRY_POLICY } from '../http/retry.ts';
import type { Transport } from '../http/transport.ts';
import type { Log } from '../log.ts';
import type { Secrets } from '../redact.ts';
import { BkciApi } from './client.ts';
import type { Gateway } from './routes.ts';
import { GivenToken, IssuedTokens, issueToken, type TokenSource } from './tokens.ts';
import { readError } from './wire.ts';

const USER_AGENT = 'bkci-action/0.1';
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** Where the gateway is, who the calls are made as, and how patient one request is. */
export interface ConnectionSettings {
  baseUrl: string;
  gateway: Gateway;
  accessToken?: string | undefined;
  bkToken?: string | undefined;
  /** X-DEVOPS-UID; with bk-token it defaults to the token's user. */
  userId?: string | undefined;
  appCode?: string | undefined;
  requestTimeoutMs: number;
  retries: number;
}

export interface ConnectOptions extends ConnectionSettings {
  /** No request starts past this instant, and no retry is scheduled past it. */
  deadline?: number | undefined;
  transport: Transport;
  clock: Clock;
  random: () => number;
  log: Log;
  secrets: Secrets;
  /** Aborted when the job is cancelled. */
  signal: AbortSignal;
  renewMarginMs?: number;
  maxBodyBytes?: number;
}

export interface Connection {
  tokens: TokenSource;
  api: BkciApi;
}

/**
 * The client: HTTP with retries, the token source the inputs call for (a given access-token, or
 * tokens from the token endpoint with bk-token or without a cookie), and the openapi on top.
 */
export function connect(o: ConnectOptions): Connection {
  const http = new HttpCaller({
    transport: o.transport,
    clock: o.clock,
    random: o.random,
    log: o.log,
    requestTimeoutMs: o.requestTimeoutMs,
    retry: { ...DEFAULT_RETRY_POLICY, retries: o.retries },
    signal: o.signal,
    maxBodyBytes: o.maxBodyBytes ?? MAX_BODY_BYTES,
    userAgent: USER_AGENT,
    scrub: (text) => o.secrets.redact(text),
    readError,
  });
  const tokens: TokenSource =
    o.accessToken !== undefined && o.bkToken === undefined
      ? new GivenToken(o.accessToken, o.userId ?? '')
      : new IssuedTokens({
          issue: () => issueToken({ http, baseUrl: o.baseUrl, bkToken: o.bkToken, deadline: o.deadline }),
          clock: o.clock,
          secrets: o.secrets,
          log: o.log,
          ...(o.userId === undefined ? {} : { userId: o.userId }),
          ...(o.renewMarginMs === undefined ? {} : { renewMarginMs: o.renewMarginMs }),
        });
  const api = new BkciApi(http, {
    baseUrl: o.baseUrl,
    gateway: o.gateway,
    tokens,
    deadline: o.deadline,
    appCode: o.appCode,
    clock: o.clock,
  });
  return { tokens, api };
}
