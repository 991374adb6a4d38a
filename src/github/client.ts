// GitHub's REST API for the check run: @actions/github's Octokit (its auth, user agent, and the
// runner's proxy) with GitHub's rate limits honoured on the step's clock. Nothing here throws:
// every answer is a result or a problem in words, since GitHub never decides the step.
import type { Clock } from '../base/clock.ts';
import { z } from '../base/schema.ts';

/** How long one request to GitHub may take: a slow GitHub must not hold the build's wait. */
const REQUEST_TIMEOUT_MS = 10_000;

export type ProblemKind = 'forbidden' | 'auth' | 'rate' | 'refused' | 'outage';

export interface Problem {
  kind: ProblemKind;
  status: number | undefined;
  /** GitHub's own words, or what went wrong on the way. */
  message: string;
  /** The request may have been applied (no answer, or a server error): never sent again blindly. */
  maybeApplied: boolean;
}

export type Result<T> = { ok: true; data: T } | { ok: false; problem: Problem };

export interface Call {
  method: 'GET' | 'POST' | 'PATCH';
  /** `/repos/{owner}/{repo}/…`, its parameters filled in from `params`. */
  route: string;
  params: Record<string, unknown>;
}

/** What sends a call: Octokit's request(), or a test's. */
export type Send = (route: string, params: Record<string, unknown>) => Promise<{ status: number; data: unknown }>;

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

export function classify(e: unknown, wallNow: number): Problem & { waitMs?: number } {
  const p = errorShape.safeParse(e);
  const status = p.success && p.data.response !== undefined ? p.data.status : undefined;
  const said = z.looseObject({ message: z.string() }).safeParse(p.success ? p.data.response?.data : undefined);
  const message = said.success ? said.data.message : p.success ? (p.data.message ?? String(e)) : String(e);
  const wait = rateLimitWait(status, (p.success ? p.data.response?.headers : undefined) ?? {}, wallNow);
  if (wait !== undefined) return { kind: 'rate', status, message, maybeApplied: false, waitMs: wait };
  if (status === 401) return { kind: 'auth', status, message, maybeApplied: false };
  if (status === 403 || status === 404) return { kind: 'forbidden', status, message, maybeApplied: false };
  if (status !== undefined && status < 500) return { kind: 'refused', status, message, maybeApplied: false };
  return { kind: 'outage', status, message, maybeApplied: true };
}

export interface GitHubOptions {
  clock: Clock;
  signal: AbortSignal;
  /** The wall clock, for x-ratelimit-reset (epoch seconds). */
  wallNow?: () => number;
}

/** One GitHub, rate limits remembered: a call made while GitHub asked to wait is not sent. */
export class GitHub {
  #blockedUntil = 0;
  requests = 0;
  private readonly send: Send;
  private readonly o: GitHubOptions;

  constructor(send: Send, o: GitHubOptions) {
    this.send = send;
    this.o = o;
  }

  /** How long GitHub asked to wait from now (0: not at all). */
  waitLeft(): number {
    return Math.max(0, this.#blockedUntil - this.o.clock.now());
  }

  /** Sends once; a rate limit is remembered, not waited for (the caller decides whether to wait). */
  async call<T>(c: Call, data: z.ZodType<T>): Promise<Result<T>> {
    if (this.waitLeft() > 0)
      return { ok: false, problem: { kind: 'rate', status: undefined, message: 'GitHub asked to wait', maybeApplied: false } };
    this.requests += 1;
    try {
      // Not the step's cancel signal: the last update goes out after a cancel too.
      const signal = this.o.clock.timeout(REQUEST_TIMEOUT_MS);
      const reply = await this.send(`${c.method} ${c.route}`, { ...c.params, request: { signal } });
      const parsed = data.safeParse(reply.data);
      if (!parsed.success)
        return {
          ok: false,
          problem: { kind: 'outage', status: reply.status, message: 'GitHub answered with an unexpected body', maybeApplied: true },
        };
      return { ok: true, data: parsed.data };
    } catch (e) {
      const problem = classify(e, (this.o.wallNow ?? Date.now)());
      if (problem.waitMs !== undefined) this.#blockedUntil = this.o.clock.now() + problem.waitMs;
      const { waitMs: _w, ...rest } = problem;
      return { ok: false, problem: rest };
    }
  }

  /** Waits out GitHub's rate limit when it ends within `budgetMs`; false when it would not. */
  async waitOut(budgetMs: number): Promise<boolean> {
    const left = this.waitLeft();
    if (left > budgetMs) return false;
    if (left > 0) await this.o.clock.sleep(left, this.o.signal).catch(() => undefined);
    return this.waitLeft() === 0;
  }
}

/** The Octokit of @actions/github for `token` at `apiUrl`: loaded here, only when a check is asked for. */
export async function octokitSend(token: string, apiUrl: string): Promise<Send> {
  const { getOctokit } = await import('@actions/github');
  const octokit = getOctokit(token, { baseUrl: apiUrl });
  return (route, params) => octokit.request(route, params);
}
