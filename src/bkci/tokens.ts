// Where the access token comes from: given (access-token), or issued by the token endpoint
// (token-endpoint.ts; with bk-token, or without a cookie), masked at once, renewed before it runs
// out and once more when bk-ci says it expired (token-problems.ts reads what bk-ci says).

import type { Clock } from '../base/clock.ts';
import { MAX_DATE_MS, utcTime } from '../base/duration.ts';
import type { Log } from '../base/log.ts';
import type { Secrets } from '../runner/secrets.ts';

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
  current(when?: { unexpired?: boolean }): Promise<Credentials>;
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
  readonly #options: IssuedTokensOptions;
  #info: IssuedToken | undefined;
  #expiresAt: number | undefined;
  /** How long the last token was issued for, as it arrived. */
  #lifetime = Number.POSITIVE_INFINITY;
  #pending: Promise<IssuedToken> | undefined;
  renewals = 0;

  constructor(options: IssuedTokensOptions) {
    this.#options = options;
  }

  /** The last token obtained, if any. */
  get info(): IssuedToken | undefined {
    return this.#info;
  }

  get user(): string | undefined {
    return this.#options.userId ?? this.#info?.userId;
  }

  async current(when: { unexpired?: boolean } = {}): Promise<Credentials> {
    const info = this.#info;
    // A fifth of the token's life at most: a 30-second token is not renewed before every request.
    const margin = when.unexpired ? 0 : Math.min(this.#options.renewMarginMs ?? 60_000, this.#lifetime / 5);
    const usable = info !== undefined && (this.#expiresAt === undefined || this.#expiresAt - this.#options.clock.now() >= margin);
    const fresh = usable ? info : await this.#renew();
    return { token: fresh.accessToken, userId: this.#options.userId ?? fresh.userId };
  }

  async renewAfterExpiry(): Promise<boolean> {
    this.#options.log.info('bk-ci says the access token expired; getting a new one');
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
    const info = await this.#options.issue();
    // Masked before anything else can print it.
    this.#options.secrets.add(info.accessToken);
    this.#info = info;
    const now = this.#options.clock.now();
    this.#expiresAt = expiresAt(info.expirationTime, now);
    this.#lifetime = this.#expiresAt === undefined ? Number.POSITIVE_INFINITY : this.#expiresAt - now;
    if (this.#expiresAt === undefined)
      this.#options.log.warning(
        `the token endpoint says the token expires at ${utcTime(info.expirationTime, info.expirationText)}, which is not a time still to come; the action will renew it only when bk-ci says it expired`,
      );
    if (had) {
      this.renewals++;
      this.#options.log.info(`renewed the access token; the new one expires at ${utcTime(info.expirationTime, info.expirationText)}`);
    }
    return info;
  }
}
