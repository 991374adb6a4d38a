// Where the access token comes from: given (access-token), or issued by the token endpoint
// (with bk-token, or without a cookie), masked at once, renewed before it runs out and once
// more when bk-ci says it expired. And what bk-ci's token errors mean.

import type { Clock } from '../base/clock.ts';
import { formatElapsed, MAX_DATE_MS, utcTime } from '../base/duration.ts';
import { AuthError, HttpError, MisdirectedError, ResponseFormatError, type TokenProblem } from '../base/errors.ts';
import type { RawJson } from '../base/json.ts';
import type { Log } from '../base/log.ts';
import { z } from '../base/schema.ts';
import { isControl } from '../base/text.ts';
import type { HttpCaller } from '../http/caller.ts';
import type { WireResponse } from '../http/transport.ts';
import type { Secrets } from '../runner/secrets.ts';
import { checked, parseJson, unwrap } from './result.ts';
import { perGateway, resolvePath } from './routes.ts';

export interface Credentials {
  /** As issued: percent-encoded, sent verbatim. */
  token: string;
  userId: string;
}

export interface IssuedToken {
  userId: string;
  /** As a number, for arithmetic; may be out of any sensible range (see expiresAt). */
  expirationTime: number;
  /** Exactly as the server wrote it, for outputs and messages. */
  expirationText: string;
  accessToken: string;
  /** The token endpoint's HTTP status, for the http-status output. */
  httpStatus?: number;
}

/**
 * When a token stops working, as far as the action can tell: the token endpoint's
 * `expirationTime` in ms, or in seconds where only that reading lies ahead (some gateways send
 * 10 digits). Undefined when it cannot be an instant (beyond year 275760, 2^63-1) or is already
 * past when the token arrives: the token is then renewed only when bk-ci says it expired, never
 * on every request.
 */
export function expiresAt(expirationTime: number, now: number): number | undefined {
  if (!Number.isFinite(expirationTime) || expirationTime > MAX_DATE_MS) return undefined;
  if (expirationTime > now) return expirationTime;
  return expirationTime < 1e11 && expirationTime * 1000 > now ? expirationTime * 1000 : undefined;
}

export interface TokenSource {
  readonly kind: 'given' | 'issued';
  /** The user the calls are made as, once known; reading it sends nothing. */
  readonly user: string | undefined;
  /**
   * The token to send. `unexpired`: the one in hand while it has not expired, not renewed early:
   * what a cancelled step still owes (stopping a build) must not wait on a renewal the cancel cut off.
   */
  current(o?: { unexpired?: boolean }): Promise<Credentials>;
  /** Called once the server says the token expired; true when a new one was obtained. */
  renewAfterExpiry(): Promise<boolean>;
}

/** `access-token` from the workflow: used as it is, never renewed. */
export class GivenToken implements TokenSource {
  readonly kind = 'given';
  readonly #creds: Credentials;
  constructor(token: string, userId: string) {
    this.#creds = { token, userId };
  }
  get user(): string {
    return this.#creds.userId;
  }
  current(): Promise<Credentials> {
    return Promise.resolve(this.#creds);
  }
  renewAfterExpiry(): Promise<boolean> {
    return Promise.resolve(false);
  }
}

export interface IssuedTokensOptions {
  issue: () => Promise<IssuedToken>;
  clock: Clock;
  secrets: Secrets;
  log: Log;
  /** Overrides the token's own user for X-DEVOPS-UID. */
  userId?: string;
  /** A token with less than this left (and less than a fifth of its lifetime) is renewed before use. Default 60 s. */
  renewMarginMs?: number;
}

/** Tokens from the token endpoint (with `bk-token`, or without a cookie): fetched, masked, renewed. */
export class IssuedTokens implements TokenSource {
  readonly kind = 'issued';
  readonly #o: IssuedTokensOptions;
  #info: IssuedToken | undefined;
  #expiresAt: number | undefined;
  /** How long the last token was issued for, as it arrived. */
  #lifetime = Number.POSITIVE_INFINITY;
  #pending: Promise<IssuedToken> | undefined;
  renewals = 0;

  constructor(options: IssuedTokensOptions) {
    this.#o = options;
  }

  /** The last token obtained, if any. */
  get info(): IssuedToken | undefined {
    return this.#info;
  }

  get user(): string | undefined {
    return this.#o.userId ?? this.#info?.userId;
  }

  async current(o: { unexpired?: boolean } = {}): Promise<Credentials> {
    const info = this.#info;
    // A fifth of the token's life at most: a 30-second token is not renewed before every request.
    const margin = o.unexpired ? 0 : Math.min(this.#o.renewMarginMs ?? 60_000, this.#lifetime / 5);
    const usable = info !== undefined && (this.#expiresAt === undefined || this.#expiresAt - this.#o.clock.now() >= margin);
    const fresh = usable ? info : await this.#renew();
    return { token: fresh.accessToken, userId: this.#o.userId ?? fresh.userId };
  }

  async renewAfterExpiry(): Promise<boolean> {
    this.#o.log.info('bk-ci says the access token expired; getting a new one');
    await this.#renew();
    return true;
  }

  /** One request at a time, however many callers ask. */
  #renew(): Promise<IssuedToken> {
    this.#pending ??= this.#fetch().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  async #fetch(): Promise<IssuedToken> {
    const had = this.#info !== undefined;
    const info = await this.#o.issue();
    // Masked before anything else can print it.
    this.#o.secrets.add(info.accessToken);
    this.#info = info;
    const now = this.#o.clock.now();
    this.#expiresAt = expiresAt(info.expirationTime, now);
    this.#lifetime = this.#expiresAt === undefined ? Number.POSITIVE_INFINITY : this.#expiresAt - now;
    if (this.#expiresAt === undefined)
      this.#o.log.warning(
        `the token endpoint says the token expires at ${utcTime(info.expirationTime, info.expirationText)}, which is not a time still to come; the action will renew it only when bk-ci says it expired`,
      );
    if (had) {
      this.renewals++;
      this.#o.log.info(`renewed the access token; the new one expires at ${utcTime(info.expirationTime, info.expirationText)}`);
    }
    return info;
  }
}

/**
 * What an error says about the token, in either dialect: the spec's HTTP 401 JSON, or bk-ci's
 * HTTP 400 plain text from AccessTokenFilter (`Verification failed : … Access token expired in: <ms>`).
 */
export function tokenProblem(error: unknown): TokenProblem | undefined {
  if (!(error instanceof HttpError) || (error.status !== 400 && error.status !== 401)) return undefined;
  const m = error.serverMessage;
  const at = /expired in:\s*(\d{10,})/i.exec(m)?.[1];
  if (at !== undefined) return { kind: 'expired', at: Number(at), written: at };
  if (/token\W{0,3}\w{0,12}\W{0,3}expir|token过期/i.test(m)) return { kind: 'expired' };
  if (/accessToken is empty|access token is empty/i.test(m)) return { kind: 'empty' };
  if (/token\s*(illegal|invalid)|Access token (illegal|invalid)|token参数非法/i.test(m)) return { kind: 'illegal' };
  if (/^Verification failed/i.test(m)) return { kind: 'illegal' };
  return error.status === 401 ? { kind: 'refused' } : undefined;
}

/** A message that says what went wrong with the token and what to do about it. */
export function describeTokenProblem(
  problem: TokenProblem,
  tokens: TokenSource,
  cause: unknown,
  afterRenewal: boolean,
  now: number,
): AuthError {
  const said = cause instanceof HttpError ? ` (HTTP ${cause.status}: ${cause.serverMessage})` : '';
  const status = cause instanceof HttpError ? cause.status : undefined;
  const opts = { cause, ...(status === undefined ? {} : { status }) };
  switch (problem.kind) {
    case 'expired': {
      const when = problem.at === undefined ? '' : ` at ${utcTime(problem.at, problem.written)}`;
      if (tokens.kind === 'given') {
        const ago = problem.at === undefined || problem.at > now ? '' : `, ${formatElapsed(now - problem.at)} ago`;
        return new AuthError(
          `the access-token expired${when}${ago}${said}. bk-ci tokens live a few hours; get a new one from the token endpoint and update the secret, or give bk-token instead so that the action gets and renews tokens itself.`,
          problem,
          opts,
        );
      }
      return new AuthError(
        `bk-ci says the access token expired${when}${afterRenewal ? ' even right after it was renewed' : ''}${said}: check that the server's clock is right and its token lifetime longer than a request takes.`,
        problem,
        opts,
      );
    }
    case 'empty':
      return new AuthError(`bk-ci received no access token${said}. Set access-token (with user-id) or bk-token.`, problem, opts);
    case 'illegal':
      return new AuthError(
        `bk-ci rejected the access token as illegal${said}. Pass it exactly as the token endpoint issued it (already percent-encoded: do not decode it or encode it again), and check that it was issued by this bk-ci installation.`,
        problem,
        opts,
      );
    case 'refused':
      return new AuthError(`bk-ci refused the credentials${said}. Check access-token and user-id, or bk-token.`, problem, opts);
  }
}

/** What a refused bk-token means and what to do, wherever bk-ci refuses it (the token endpoint, a download). */
export const TICKET_REFUSED =
  'the BlueKing login ticket has expired or belongs to another installation. Log in again and store the new bk_token cookie as the secret.';

/** The token endpoint: not under the OpenAPI, and only on bk-ci's own gateway. */
export const TOKEN_ENDPOINT = perGateway('GET', '/ms/auth/api/user/token/get', null);

/** `expirationTime` kept as written too: 2^63-1 and friends are not exact as doubles. */
const tokenInfo = z.lazy(() =>
  z
    .object({
      // Sent back as X-DEVOPS-UID: a value a header cannot carry is the server's fault, said at once.
      userId: z.string().refine((v) => ![...v].some((c) => isControl(c.charCodeAt(0)) || c.charCodeAt(0) > 0xff), {
        error: 'userId holds a character an HTTP header cannot carry (a control character or one beyond Latin-1)',
      }),
      expirationTime: z.union([z.number(), z.custom<RawJson>((v) => JSON.isRawJSON(v))]),
      accessToken: z.string().min(1),
    })
    .transform(({ expirationTime: e, ...rest }) => ({
      ...rest,
      expirationTime: typeof e === 'number' ? e : Number(e.rawJSON),
      expirationText: typeof e === 'number' ? String(e) : e.rawJSON,
    })),
);

export interface IssueOptions {
  http: HttpCaller;
  baseUrl: string;
  bkToken: string | undefined;
  deadline?: number | undefined;
}

/**
 * GET the token endpoint with the `bk_token` login cookie (or none). bk-ci's code wraps the
 * answer in the common Result; its docs show the bare object. Both are accepted.
 */
export async function issueToken(o: IssueOptions): Promise<IssuedToken> {
  const url = `${o.baseUrl}${resolvePath(TOKEN_ENDPOINT, 'bk-ci') ?? ''}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (o.bkToken !== undefined) headers.cookie = `bk_token=${o.bkToken}`;
  let res: WireResponse;
  try {
    res = await o.http.call({ method: 'GET', url, shownUrl: url, headers, ...(o.deadline === undefined ? {} : { deadline: o.deadline }) });
  } catch (e) {
    if (e instanceof HttpError && e.status === 401) {
      throw new AuthError(
        o.bkToken === undefined
          ? `the token endpoint refused a request without a login ticket (HTTP 401: ${e.serverMessage}). Set access-token (with user-id) or bk-token.`
          : `the token endpoint refused bk-token (HTTP 401: ${e.serverMessage}): ${TICKET_REFUSED}`,
        { kind: 'refused' },
        { cause: e, status: 401 },
      );
    }
    // Every bk-ci has this endpoint: its 404 says base-url is not bk-ci's address, nothing about
    // the project or pipeline the step was going to ask for.
    if (e instanceof HttpError && e.status === 404)
      throw new MisdirectedError({
        method: 'GET',
        url,
        status: 404,
        serverMessage: `the token endpoint is not at this base-url${e.serverMessage ? ` ("${e.serverMessage}")` : ''}, which every bk-ci has, so base-url is not bk-ci's address: give the address the console is served from, up to the host (e.g. https://devops.example.com)`,
      });
    throw e;
  }
  const scrub = (t: string): string => o.http.scrub(t);
  const value = parseJson(res, 'GET', url, scrub, true);
  const bare = typeof value === 'object' && value !== null && 'accessToken' in value;
  const info = bare ? checked(value, tokenInfo, res, 'GET', url) : unwrap(value, tokenInfo, res, 'GET', url, scrub);
  if (info === undefined) throw new ResponseFormatError({ method: 'GET', url, status: res.status, detail: 'the token result has no data' });
  return { ...info, httpStatus: res.status };
}
