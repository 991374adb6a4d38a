// bk-ci's token endpoint (GET /ms/auth/api/user/token/get): a BlueKing login ticket in, an access
// token out, in bk-ci's wrapper (what its code returns) or bare (what its docs show), with the rate
// limit bk-ci's gateway can put on it.
import type { IncomingHttpHeaders } from 'node:http';
import { type TokenAuthority, ticketOf } from './tokens.ts';
import { html, json, type Reply, type Wire } from './wire.ts';

export interface TokenEndpointOptions {
  /** `wrapped` is what bk-ci's code returns, `bare` what its docs show. */
  response: 'wrapped' | 'bare';
  /** Requests per second and user (bk-ci's gateway allows 20); none when not given. */
  rateLimit: number | undefined;
}

export class TokenEndpoint {
  readonly #wire: Wire;
  readonly #tokens: TokenAuthority;
  readonly #now: () => number;
  readonly #options: TokenEndpointOptions;
  /** When each user asked, within the last second. */
  readonly #hits = new Map<string, number[]>();

  constructor(wire: Wire, tokens: TokenAuthority, now: () => number, options: TokenEndpointOptions) {
    this.#wire = wire;
    this.#tokens = tokens;
    this.#now = now;
    this.#options = options;
  }

  answer(method: string, headers: IncomingHttpHeaders): Reply {
    if (method !== 'GET') return this.#wire.error(405, 405, 'HTTP方法不被允许。');
    const userId = this.#tokens.userOfTicket(ticketOf(headers.cookie));
    if (userId === undefined) return this.#wire.gatewayError(401, '用户权限验证失败。');
    if (this.#tooMany(userId)) return html(429, 'Too Many Requests');
    const info = this.#tokens.issue(userId);
    return this.#options.response === 'wrapped' ? this.#wire.ok(info) : json(200, info);
  }

  #tooMany(userId: string): boolean {
    const limit = this.#options.rateLimit;
    if (limit === undefined) return false;
    const now = this.#now();
    const hits = (this.#hits.get(userId) ?? []).filter((hit) => now - hit < 1000);
    hits.push(now);
    this.#hits.set(userId, hits);
    return hits.length > limit;
  }
}
