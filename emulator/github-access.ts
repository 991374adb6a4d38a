// Who may call GitHub's API here, and how often: the tokens GitHub knows (each may write checks or
// only read them, as a pull request from a fork's token), `401` for none or one it does not know,
// and the primary rate limit (`403` with `x-ratelimit-remaining: 0` once it is used up), whose
// `x-ratelimit-*` headers every answer carries.
import type { Access } from './check-runs.ts';
import { type Answer, message } from './github-faults.ts';

export class GitHubAccess {
  readonly #tokens = new Map<string, Access>();
  readonly #now: () => number;
  #limit = 1000;
  #used = 0;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** A token GitHub knows, and what it may do with checks. */
  addToken(token: string, access: Access): void {
    this.#tokens.set(token, access);
  }

  /** The primary limit from now on, none of it used. */
  setLimit(limit: number): void {
    this.#limit = limit;
    this.#used = 0;
  }

  /** The token's access, counted against the primary limit; or GitHub's refusal. */
  admit(authorization: string | undefined): { access: Access } | { refusal: Answer } {
    const token = /^(?:token|bearer)\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    if (token === undefined) return { refusal: message(401, 'Requires authentication') };
    const access = this.#tokens.get(token);
    if (access === undefined) return { refusal: message(401, 'Bad credentials') };
    this.#used += 1;
    if (this.#used > this.#limit)
      return {
        refusal: {
          ...message(403, 'API rate limit exceeded for installation ID 1.'),
          headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': this.#resetAt() },
        },
      };
    return { access };
  }

  /** The primary limit as every answer shows it. */
  rateHeaders(): Record<string, string> {
    return {
      'x-ratelimit-limit': String(this.#limit),
      'x-ratelimit-remaining': String(Math.max(0, this.#limit - this.#used)),
      'x-ratelimit-used': String(this.#used),
      'x-ratelimit-reset': this.#resetAt(),
      'x-ratelimit-resource': 'core',
    };
  }

  /** An hour from now, in epoch seconds. */
  #resetAt(): string {
    return String(Math.ceil(this.#now() / 1000) + 3600);
  }
}
