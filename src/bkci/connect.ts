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
export function connect(options: ConnectOptions): Connection {
  const http = new HttpCaller({
    transport: options.transport,
    clock: options.clock,
    random: options.random,
    log: options.log,
    requestTimeoutMs: options.requestTimeoutMs,
    retry: { ...DEFAULT_RETRY_POLICY, retries: options.retries },
    signal: options.signal,
    maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
    userAgent: USER_AGENT,
    scrub: (text) => options.secrets.redact(text),
    // One reader of every error body, told which front door the step expects, so that an
    // answer from the other one says so.
    readError: (res, scrub) => readError(res, scrub, options.gateway),
  });
  if (options.gateway === 'bk-apigateway') {
    const { header, type } = gatewayAuthorization(options);
    // The header carries the app secret and the user's credential: masked like them.
    options.secrets.add(header);
    const tokens = new GivenToken('', options.userId ?? '');
    const api = new BkciApi(http, { ...options, tokens, gatewayAuth: { header, type, user: options.userId } });
    return { tokens, api };
  }
  const tokens: TokenSource =
    options.accessToken !== undefined && options.bkToken === undefined
      ? new GivenToken(options.accessToken, options.userId ?? '')
      : new IssuedTokens({
          issue: () => issueToken({ http, baseUrl: options.baseUrl, bkToken: options.bkToken, deadline: options.deadline }),
          clock: options.clock,
          secrets: options.secrets,
          log: options.log,
          ...(options.userId === undefined ? {} : { userId: options.userId }),
          ...(options.renewMarginMs === undefined ? {} : { renewMarginMs: options.renewMarginMs }),
        });
  const api = new BkciApi(http, { ...options, tokens });
  return { tokens, api };
}

/**
 * `X-Bkapi-Authorization` for the BlueKing API Gateway: the app (code and secret) when given,
 * and one user credential: the login ticket, a gateway access token, or just a user name (which
 * the gateway does not verify). With an app the calls are app-state (`apigw-app`).
 */
function gatewayAuthorization(settings: ConnectionSettings): { header: string; type: ApiType } {
  const auth: Record<string, string> = {};
  const app = settings.appCode !== undefined && settings.appSecret !== undefined;
  if (app) Object.assign(auth, { bk_app_code: settings.appCode, bk_app_secret: settings.appSecret });
  if (settings.bkToken !== undefined) auth.bk_token = settings.bkToken;
  else if (settings.accessToken !== undefined) auth.access_token = settings.accessToken;
  else if (settings.userId !== undefined) auth.bk_username = settings.userId;
  return { header: JSON.stringify(auth), type: app ? 'apigw-app' : 'apigw-user' };
}
