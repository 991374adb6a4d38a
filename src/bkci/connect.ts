import type { Clock } from '../base/clock.ts';
import type { Log } from '../base/log.ts';
import { HttpCaller } from '../http/caller.ts';
import { DEFAULT_RETRY_POLICY } from '../http/retry.ts';
import type { Transport } from '../http/transport.ts';
import type { Secrets } from '../runner/secrets.ts';
import { BkciApi } from './client.ts';
import { readError } from './error-body.ts';
import type { ApiType, Gateway } from './routes.ts';
import { issueToken } from './token-endpoint.ts';
import { GivenToken, IssuedTokens, type TokenSource } from './tokens.ts';

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
  /** With app-code, the BlueKing app's secret: the app's credential on the BlueKing API Gateway. */
  appSecret?: string | undefined;
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
    // One reader of every error body, told which front door the step expects, so that an
    // answer from the other one says so.
    readError: (res, scrub) => readError(res, scrub, o.gateway),
  });
  if (o.gateway === 'bk-apigateway') {
    const { header, type } = gatewayAuthorization(o);
    // The header carries the app secret and the user's credential: masked like them.
    o.secrets.add(header);
    const tokens = new GivenToken('', o.userId ?? '');
    const api = new BkciApi(http, { ...o, tokens, gatewayAuth: { header, type, user: o.userId } });
    return { tokens, api };
  }
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
  const api = new BkciApi(http, { ...o, tokens });
  return { tokens, api };
}

/**
 * `X-Bkapi-Authorization` for the BlueKing API Gateway: the app (code and secret) when given,
 * and one user credential: the login ticket, a gateway access token, or just a user name (which
 * the gateway does not verify). With an app the calls are app-state (`apigw-app`).
 */
export function gatewayAuthorization(o: ConnectionSettings): { header: string; type: ApiType } {
  const auth: Record<string, string> = {};
  const app = o.appCode !== undefined && o.appSecret !== undefined;
  if (app) Object.assign(auth, { bk_app_code: o.appCode, bk_app_secret: o.appSecret });
  if (o.bkToken !== undefined) auth.bk_token = o.bkToken;
  else if (o.accessToken !== undefined) auth.access_token = o.accessToken;
  else if (o.userId !== undefined) auth.bk_username = o.userId;
  return { header: JSON.stringify(auth), type: app ? 'apigw-app' : 'apigw-user' };
}
