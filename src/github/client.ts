// GitHub's REST API for the check run: @actions/github's Octokit (its auth, user agent, and the
// runner's proxy) on the step's clock. Every request is sent once, scrubbed of the step's secrets
// to the last string, with a timeout of its own that ends by the time the step may give GitHub;
// GitHub's rate limits are remembered, never waited out here. Nothing here throws: every answer is
// a result or a problem in words, since GitHub never decides the step.
import type { Clock } from '../base/clock.ts';
import { z } from '../base/schema.ts';
import { collapse, cut } from '../base/text.ts';
import type { Scrub } from './text.ts';

/** How long one request to GitHub may take: a slow GitHub must not hold the build's wait. */
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * forbidden, auth, refused: GitHub will not take the check from this token; invalid: it refused a
 * body (422); rate: it asked to wait; outage: it failed or could not be reached; timeout: no answer
 * in time; late: not sent, the step's time for GitHub was over.
 */
export type ProblemKind = 'forbidden' | 'auth' | 'refused' | 'invalid' | 'rate' | 'outage' | 'timeout' | 'late';

export interface Problem {
  kind: ProblemKind;
  status: number | undefined;
  /** GitHub's own words (one line), or what went wrong on the way. */
  message: string;
  /** The request may have been applied (no answer, or a server error): never sent again blindly. */
  maybeApplied: boolean;
  /** How long GitHub asked to wait, for a rate limit. */
  waitMs?: number | undefined;
}

export type Result<T> = { ok: true; data: T } | { ok: false; problem: Problem };

export interface Call {
  method: 'GET' | 'POST' | 'PATCH';
  /** `/repos/{owner}/{repo}/…`, its parameters filled in from `params`. */
  route: string;
  params: Record<string, unknown>;
}

/** What sends a call: Octokit's request(), or a test's. */
export type Send = (
  route: string,
  params: Record<string, unknown>,
) => Promise<{ status: number; data: unknown; headers?: Record<string, unknown> }>;

const errorShape = z.looseObject({
  status: z.number().optional(),
  message: z.string().optional(),
  response: z.looseObject({ headers: z.record(z.string(), z.unknown()).optional(), data: z.unknown().optional() }).optional(),
});

/**
 * GitHub's rate limits, from an answer's headers: the secondary limit's retry-after (seconds),
 * the primary limit's x-ratelimit-reset (epoch seconds, by the wall clock) once remaining is 0.
 * The wait in ms, or undefined when the answer is no rate limit.
 */
export function rateLimitWait(status: number | undefined, headers: Record<string, unknown>, wallNow: number): number | undefined {
  if (status !== 403 && status !== 429) return undefined;
  const after = Number(headers['retry-after']);
  if (headers['retry-after'] !== undefined && Number.isFinite(after)) return Math.max(0, after) * 1000;
  if (String(headers['x-ratelimit-remaining']) === '0') {
    const reset = Number(headers['x-ratelimit-reset']);
    return Number.isFinite(reset) ? Math.max(0, reset * 1000 - wallNow) : 60_000;
  }
  // A secondary limit said only in words: GitHub's docs ask for at least a minute.
  return status === 429 ? 60_000 : undefined;
}

/** What GitHub said, in one line: its JSON message, or an error page (HTML) reduced to its title or first words. */
export function saidOf(data: unknown, fallback: string): string {
  const json = z.looseObject({ message: z.string() }).safeParse(data);
  const text = json.success ? json.data.message : typeof data === 'string' && data.trim() !== '' ? data : fallback;
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
  return cut(
    collapse(title ?? text)
      .replace(/&middot;/g, '·')
      .replace(/&mdash;/g, '—')
      .replace(/&quot;/g, '"'),
    200,
  );
}

export function classify(error: unknown, wallNow: number): Problem {
  const parsed = errorShape.safeParse(error);
  const status = parsed.success && parsed.data.response !== undefined ? parsed.data.status : undefined;
  const message = saidOf(
    parsed.success ? parsed.data.response?.data : undefined,
    parsed.success ? (parsed.data.message ?? String(error)) : String(error),
  );
  const waitMs = rateLimitWait(status, (parsed.success ? parsed.data.response?.headers : undefined) ?? {}, wallNow);
  const problem = (kind: ProblemKind, maybeApplied = false): Problem => ({ kind, status, message, maybeApplied });
  if (waitMs !== undefined) return { ...problem('rate'), waitMs };
  if (status === 401) return problem('auth');
  if (status === 403 || status === 404) return problem('forbidden');
  if (status === 422) return problem('invalid');
  if (status !== undefined && status < 500) return problem('refused');
  return problem('outage', true);
}

/** Every string in the value scrubbed: nothing of the step's secrets leaves for GitHub, whatever field it is in. */
export function scrubDeep(value: unknown, scrub: Scrub): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, scrub));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubDeep(v, scrub)]));
  return value;
}

export interface GitHubOptions {
  clock: Clock;
  scrub: Scrub;
  /** When, by the clock, the step's time for GitHub is over: no request is sent past it, none waits beyond it. */
  until: () => number;
}

const notSent = (kind: ProblemKind, message: string): Result<never> => ({
  ok: false,
  problem: { kind, status: undefined, message, maybeApplied: false },
});

/** A redirect GitHub's API answered: not followed, nothing applied; where it led, said by its origin. */
function notFollowed(reply: { status: number; headers?: Record<string, unknown> }): Result<never> {
  const location = String(reply.headers?.location ?? '');
  let origin = 'nowhere named';
  try {
    origin = new URL(location).origin;
  } catch {
    if (location !== '') origin = 'a path of its own';
  }
  const message = `it answered with a redirect to ${origin}, which is not followed: GITHUB_API_URL must answer itself`;
  return { ok: false, problem: { kind: 'refused', status: reply.status, message, maybeApplied: false } };
}

/** One GitHub, rate limits remembered: a call made while GitHub asked to wait is not sent. */
export class GitHub {
  #blockedUntil = 0;
  #inFlight = new AbortController();
  readonly #send: Send;
  readonly #o: GitHubOptions;

  constructor(send: Send, options: GitHubOptions) {
    this.#send = send;
    this.#o = options;
  }

  /** How long GitHub asked to wait from now (0: not at all). */
  waitLeft(): number {
    return Math.max(0, this.#blockedUntil - this.#o.clock.now());
  }

  /** Gives up the requests under way (the job was cancelled: the last update goes out instead). */
  abortInFlight(): void {
    this.#inFlight.abort();
    this.#inFlight = new AbortController();
  }

  /** Sends once, within the step's time; a rate limit is remembered, not waited for (the caller decides whether to wait). */
  async call<T>(request: Call, data: z.ZodType<T>): Promise<Result<T>> {
    const { clock } = this.#o;
    const left = this.waitLeft();
    if (left > 0) return notSent('rate', `GitHub asked to wait ${Math.ceil(left / 1000)}s more`);
    const ms = Math.min(REQUEST_TIMEOUT_MS, this.#o.until() - clock.now());
    if (ms <= 0) return notSent('late', "the step's time for GitHub was over");
    // Not the step's cancel signal: the last update goes out after a cancel too.
    const timeout = clock.timeout(ms, 'github');
    const given = this.#inFlight.signal;
    try {
      const params = scrubDeep(request.params, this.#o.scrub) as Record<string, unknown>;
      const reply = await this.#send(`${request.method} ${request.route}`, {
        ...params,
        // A redirect is not followed: the body and its answer stay with GITHUB_API_URL (fetch would take them elsewhere).
        request: { signal: AbortSignal.any([timeout, given]), redirect: 'manual' },
      });
      if (reply.status >= 300 && reply.status < 400) return notFollowed(reply);
      const parsed = data.safeParse(reply.data);
      if (parsed.success) return { ok: true, data: parsed.data };
      const message = 'GitHub answered with an unexpected body';
      return { ok: false, problem: { kind: 'outage', status: reply.status, message, maybeApplied: true } };
    } catch (e) {
      if (timeout.aborted || given.aborted) {
        const message = given.aborted ? 'given up when the job was cancelled' : `no answer within ${Math.ceil(ms / 1000)}s`;
        return { ok: false, problem: { kind: 'timeout', status: undefined, message, maybeApplied: true } };
      }
      // x-ratelimit-reset is epoch seconds: the step's clock is the wall clock (a test's shares the emulator's).
      const problem = classify(e, clock.now());
      if (problem.waitMs !== undefined) this.#blockedUntil = clock.now() + problem.waitMs;
      return { ok: false, problem };
    }
  }
}

/** The Octokit of @actions/github for `token` at `apiUrl`: loaded here, only when a check is asked for. */
export async function octokitSend(token: string, apiUrl: string): Promise<Send> {
  const { getOctokit } = await import('@actions/github');
  const octokit = getOctokit(token, { baseUrl: apiUrl });
  return (route, params) => octokit.request(route, params);
}
