// Who may call: BlueKing login tickets (the `bk_token` cookie) and the OpenAPI's access tokens, issued
// and checked as bk-ci's ApiAccessTokenService does. A user is a ticket and a ready token
// (POST /__emulator/users).
import { randomBytes } from 'node:crypto';
import { z } from 'zod';

export interface TokenInfo {
  userId: string;
  expirationTime: number;
  /** As bk-ci returns it: base64, then percent-encoded once. */
  accessToken: string;
}

/** POST /__emulator/users. */
export const userBody = z.object({ userId: z.string().min(1).default('admin'), tokenLifetimeMs: z.number().int().optional() }).strict();

/** A user as the control API makes one: a login ticket and a ready access token. */
export interface User {
  bkToken: string;
  token: TokenInfo;
}

/** The login ticket a request's Cookie header carries (`bk_token`), if any. */
export const ticketOf = (cookie: string | undefined): string | undefined => /(?:^|;\s*)bk_token=([^;]*)/.exec(cookie ?? '')?.[1];

export type TokenCheck =
  | { ok: true; userId: string }
  | { ok: false; reason: 'empty' }
  | { ok: false; reason: 'illegal' }
  | { ok: false; reason: 'expired'; expiredAt: number };

/**
 * Issues and validates tokens the way bk-ci's ApiAccessTokenService does, minus the AES:
 * an opaque base64 string, percent-encoded once before it is handed out.
 */
export class TokenAuthority {
  readonly #issued = new Map<string, { userId: string; expirationTime: number }>();
  readonly #tickets = new Map<string, string>();

  readonly #lifetimeMs: () => number;
  readonly #now: () => number;

  constructor(lifetimeMs: () => number, now: () => number) {
    this.#lifetimeMs = lifetimeMs;
    this.#now = now;
  }

  /** A user with a login ticket (`bk_token`) and a ready access token. */
  addUser(userId: string, lifetimeMs?: number): User {
    return { bkToken: this.addTicket(userId), token: this.issue(userId, lifetimeMs) };
  }

  /** A BlueKing login ticket (the `bk_token` cookie) for `userId`. */
  addTicket(userId: string, ticket = randomBytes(18).toString('base64url')): string {
    this.#tickets.set(ticket, userId);
    return ticket;
  }

  userOfTicket(ticket: string | undefined): string | undefined {
    return ticket === undefined ? undefined : this.#tickets.get(ticket);
  }

  issue(userId: string, lifetimeMs = this.#lifetimeMs()): TokenInfo {
    const expirationTime = this.#now() + lifetimeMs;
    let raw: string;
    // Every issued token holds '+', '/' and '=' so that a client that decodes it, or
    // encodes it a second time in the wrong way, is caught.
    do {
      raw = randomBytes(47).toString('base64');
    } while (!raw.includes('+') || !raw.includes('/') || !raw.endsWith('='));
    this.#issued.set(raw, { userId, expirationTime });
    return { userId, expirationTime, accessToken: encodeURIComponent(raw) };
  }

  /**
   * `value` is the query parameter after the one decoding the HTTP layer does. bk-ci hands
   * it on through Feign, which leaves `%XX` alone and so decodes a double-encoded token once
   * more; the emulator does the same, so both the verbatim and the double-encoded form pass.
   */
  check(value: string | null): TokenCheck {
    if (value === null || value.trim() === '') return { ok: false, reason: 'empty' };
    let raw = value;
    if (raw.includes('%')) {
      try {
        raw = decodeURIComponent(raw);
      } catch {
        return { ok: false, reason: 'illegal' };
      }
    }
    const info = this.#issued.get(raw);
    if (info === undefined) return { ok: false, reason: 'illegal' };
    if (info.expirationTime < this.#now()) return { ok: false, reason: 'expired', expiredAt: info.expirationTime };
    return { ok: true, userId: info.userId };
  }
}
