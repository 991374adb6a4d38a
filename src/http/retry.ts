import { parseRetryAfter } from '../base/duration.ts';

/** When and how long to wait before trying a request again. Data, so that it is read in one place. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** Start of the exponential backoff; the n-th retry waits up to base·2ⁿ⁻¹. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** The longest Retry-After the action waits for; a server asking for longer is not retried at all, never sooner. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY = {
  retries: 3,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
} as const satisfies RetryPolicy;

export type Failure =
  | { kind: 'status'; status: number; retryAfter?: string | undefined }
  /** `permanent`: a failure no retry can mend, such as a certificate that cannot be verified. */
  | { kind: 'network'; beforeSend: boolean; permanent?: boolean }
  | { kind: 'timeout' };

/**
 * What a call is, whatever its verb: a `read` changes nothing (bk-ci publishes some reads as
 * POST: build_variables takes its names in the body); a `write` may be repeated (PUT, DELETE:
 * the same state again); a `write-once` creates something each time it is applied (a start, a
 * review decision) and is never repeated blindly.
 */
export type CallKind = 'read' | 'write' | 'write-once';

/** The kind a verb stands for when the endpoint declares none. */
export function kindOf(method: string, declared?: CallKind): CallKind {
  if (declared !== undefined) return declared;
  return method === 'POST' ? 'write-once' : method === 'GET' ? 'read' : 'write';
}

/**
 * Reads and writes that may be repeated are retried on any passing failure; a write-once only
 * when the server said it did not take it (423, 429) or the connection never got as far as
 * sending it. `what` is the call's kind, or its verb (then the verb's default kind).
 */
export function isRetryable(what: CallKind | string, failure: Failure): boolean {
  const kind = what === 'read' || what === 'write' || what === 'write-once' ? what : kindOf(what);
  if (failure.kind === 'network' && failure.permanent) return false;
  const throttled = failure.kind === 'status' && (failure.status === 423 || failure.status === 429);
  if (kind === 'write-once') return throttled || (failure.kind === 'network' && failure.beforeSend);
  if (failure.kind === 'status') return throttled || failure.status >= 500;
  return true;
}

/**
 * The delay before retry number `retry` (1 for the first). A server's Retry-After wins, as it is
 * (never shortened: the caller gives up when it is longer than it waits); otherwise full jitter
 * over an exponential ceiling, so that many runners do not retry in step.
 */
export function retryDelay(
  retry: number,
  failure: Failure,
  now: number,
  random: () => number,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): number {
  if (failure.kind === 'status') {
    const after = parseRetryAfter(failure.retryAfter, now);
    if (after !== undefined) return after;
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(random() * ceiling);
}
