// The base of every failure the action raises on purpose (ActionError: a message and an optional
// HTTP status, which run() says and sets as http-status), and the failures every layer meets: a
// request's (which factsOf reads: not applied, or maybe applied), the inputs', the runner's, the
// credentials', an operation's with its outcome. A room's own live where they are raised and told
// apart: bk-ci's answers about a build (src/bkci/builds.ts), a build's start and retry
// (src/pipeline/build-failures.ts), a file of the download (src/download/answer.ts).
import { formatDuration } from './duration.ts';
import type { Outcome } from './outcome.ts';

/** The base of every failure the action raises on purpose; `status` is the HTTP status when there was an answer. */
export class ActionError extends Error {
  override name = 'ActionError';
  readonly status: number | undefined;
  constructor(message: string, options: ErrorOptions & { status?: number | undefined } = {}) {
    super(message, options);
    this.status = options.status;
  }
}

/** What every failure of a request carries: the method, the URL with secrets redacted. */
export abstract class RequestError extends ActionError {
  readonly method: string;
  readonly url: string;
  constructor(message: string, init: { method: string; url: string; status?: number | undefined; cause?: unknown }) {
    super(message, { status: init.status, cause: init.cause });
    this.method = init.method;
    this.url = init.url;
  }
}

/** The server said the call failed, in its own words and with its own code. */
export abstract class ServerSaidError extends RequestError {
  declare readonly status: number;
  readonly serverMessage: string;
  /** The body's own code (bk-ci's `status`/`code`, the gateway's `code`), when it had one. */
  readonly serverStatus: number | undefined;
  constructor(
    message: string,
    init: { method: string; url: string; status: number; serverMessage: string; serverStatus?: number | undefined },
  ) {
    super(message, init);
    this.serverMessage = init.serverMessage;
    this.serverStatus = init.serverStatus;
  }
}

/** The server answered with HTTP 4xx/5xx. `serverMessage` is readable text, never a raw HTML page. */
export class HttpError extends ServerSaidError {
  override name = 'HttpError';
  readonly retryAfter: string | undefined;
  constructor(init: { method: string; url: string; status: number; serverMessage: string; serverStatus?: number; retryAfter?: string }) {
    super(`${init.method} ${init.url} answered HTTP ${init.status}${init.serverMessage ? `: ${init.serverMessage}` : ''}`, init);
    this.retryAfter = init.retryAfter;
  }
}

/**
 * The answer came from a front door, not from bk-ci behind it: another front door than the one
 * the step was told to use (`gateway`), the BlueKing API Gateway's own refusal, or a base-url
 * under which bk-ci's paths are not found. It says nothing about the resource asked for, so no
 * one may read its 404 as "not found", and the request never reached bk-ci.
 */
export class MisdirectedError extends RequestError {
  override name = 'MisdirectedError';
  declare readonly status: number;
  constructor(init: { method: string; url: string; status: number; serverMessage: string }) {
    super(`${init.method} ${init.url} answered HTTP ${init.status}: ${init.serverMessage}`, init);
  }
}

/** HTTP 2xx, but bk-ci's wrapper (`status`, or `code` on project calls) says the call failed. */
export class WrapperStatusError extends ServerSaidError {
  override name = 'WrapperStatusError';
  declare readonly serverStatus: number;
  constructor(init: { method: string; url: string; status: number; serverStatus: number; serverMessage: string }) {
    super(
      `${init.method} ${init.url} answered HTTP ${init.status} with error status ${init.serverStatus}${init.serverMessage ? `: ${init.serverMessage}` : ''}`,
      init,
    );
  }
}

/** No HTTP answer: refused, reset, DNS, TLS. `beforeSend` when the request cannot have reached the server. */
export class NetworkError extends RequestError {
  override name = 'NetworkError';
  readonly code: string | undefined;
  readonly beforeSend: boolean;
  /** No retry can mend it: the detail says what to change. */
  readonly permanent: boolean;
  constructor(init: {
    method: string;
    url: string;
    code?: string;
    beforeSend: boolean;
    permanent?: boolean;
    detail: string;
    cause: unknown;
  }) {
    super(`${init.method} ${init.url} failed: ${init.detail}`, init);
    this.code = init.code;
    this.beforeSend = init.beforeSend;
    this.permanent = init.permanent ?? false;
  }
}

export class RequestTimeoutError extends RequestError {
  override name = 'RequestTimeoutError';
  readonly timeoutMs: number;
  constructor(init: { method: string; url: string; timeoutMs: number; cause?: unknown }) {
    super(`${init.method} ${init.url} got no complete answer within request-timeout (${formatDuration(init.timeoutMs)})`, init);
    this.timeoutMs = init.timeoutMs;
  }
}

/** The answer was 2xx but not what the API promises: not JSON, cut short, the wrong shape, no data. */
export class ResponseFormatError extends RequestError {
  override name = 'ResponseFormatError';
  declare readonly status: number;
  constructor(init: { method: string; url: string; status: number; detail: string; cause?: unknown }) {
    super(`${init.method} ${init.url} answered HTTP ${init.status} with an unexpected body: ${init.detail}`, init);
  }
}

/** The step's deadline passed before the request could start: it was never sent. */
export class DeadlineError extends RequestError {
  override name = 'DeadlineError';
  constructor(init: { method: string; url: string }) {
    super(`the step's timeout passed before ${init.method} ${init.url.split('?')[0]} could be sent; it was not sent`, init);
  }
}

/** A read beside the wait found its own budget spent before it could be sent: it was not sent. */
export class BudgetSpentError extends RequestError {
  override name = 'BudgetSpentError';
  constructor(init: { method: string; url: string }) {
    super(`${init.method} ${init.url.split('?')[0]} was not sent: the time it may take beside the wait was spent`, init);
  }
}

/** The job was cancelled (SIGINT/SIGTERM) while a request or a wait was under way. */
export class CancelledError extends ActionError {
  override name = 'CancelledError';
  /** A write that was on its way when the job was cancelled ("PUT …/projects/demo"): bk-ci may have applied it. */
  readonly inFlight: string | undefined;
  constructor(inFlight?: string) {
    super('cancelled');
    this.inFlight = inFlight;
  }
}

/**
 * A failure on the runner's side: a file the action writes (the data file in RUNNER_TEMP,
 * GITHUB_OUTPUT, the job summary). No retry can mend it, and it is never taken for a network
 * error; run() says what the server had done before it.
 */
export class LocalError extends ActionError {
  override name = 'LocalError';
}

/** `act`, any failure of it said as a local one: what could not be written, and why. */
export function local<T>(what: string, act: () => T): T {
  try {
    return act();
  } catch (e) {
    throw e instanceof LocalError ? e : new LocalError(`could not write ${what} on the runner: ${errorMessage(e)}`, { cause: e });
  }
}

/** A list that cannot be read whole: the server ignores paging, or the list is beyond the action's bound. */
export class PagingError extends ActionError {
  override name = 'PagingError';
}

/** One or more inputs are wrong; nothing was sent. */
export class InputError extends ActionError {
  override name = 'InputError';
  readonly problems: string[];
  constructor(problems: string[]) {
    super(problems.length === 1 ? `invalid input: ${problems[0]}` : `invalid inputs:\n- ${problems.join('\n- ')}`);
    this.problems = problems;
  }
}

export type TokenProblem =
  | { kind: 'expired'; at?: number; written?: string }
  | { kind: 'empty' }
  | { kind: 'illegal' }
  | { kind: 'refused' };

/** bk-ci or the token endpoint refused the credentials; the message says what to do. */
export class AuthError extends ActionError {
  override name = 'AuthError';
  readonly problem: TokenProblem;
  constructor(message: string, problem: TokenProblem, options: ErrorOptions & { status?: number | undefined }) {
    super(message, options);
    this.problem = problem;
  }
}

/** A failure that still has outputs and a summary to show: a FAIL status, a timeout, failed events, a write half done. */
export class OperationError extends ActionError {
  override name = 'OperationError';
  readonly outcome: Outcome;
  constructor(message: string, outcome: Outcome, options?: ErrorOptions) {
    super(message, { ...options, status: outcome.status });
    this.outcome = outcome;
  }
}

/** bk-ci refused a project write, or the action refused to send one that would lose data. */
export class ProjectWriteError extends ActionError {
  override name = 'ProjectWriteError';
}

/**
 * A write bk-ci never applied because what it needed first failed: its access token could not be
 * had (it was never sent), or bk-ci refused it for an expired token and a new one could not be had
 * (it was not sent again). The message says so, naming the request, so that no reader takes it
 * for a write that may have been applied.
 */
export class NotSentError extends ActionError {
  override name = 'NotSentError';
  /** The request, as messages show it: "POST https://…/build_start". */
  readonly request: string;
  constructor(request: string, how: 'token' | 'renewal', cause: unknown) {
    super(
      how === 'token'
        ? `${request} was never sent: getting an access token for it failed: ${errorMessage(cause)}`
        : `${request} was not applied: bk-ci refused it for an expired access token, and getting a new one failed, so it was not sent again: ${errorMessage(cause)}`,
      { cause, status: statusOf(cause) },
    );
    this.request = request;
  }
}

/** Failures marked as coming before the request they stand for was sent (its token could not be had, say). */
const unsent = new WeakSet<object>();

/** Marks `error` as a failure before the request was sent; returns it. */
export function notSent<E>(error: E): E {
  if (typeof error === 'object' && error !== null) unsent.add(error);
  return error;
}

/** `error` and its causes, outermost first (a bounded walk: a cycle cannot hold it). */
function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  for (
    let link: unknown = error;
    link !== undefined && link !== null && out.length < 8 && !out.includes(link);
    link = link instanceof Error ? link.cause : undefined
  )
    out.push(link);
  return out;
}

/**
 * What a failure, however wrapped, says of the request it stands for: `cancelled` when the job's
 * cancel is in it, `inFlight` when a write was on its way then, `mayHaveApplied` only when the
 * request was sent and its answer lost (no answer, a cut one, a timeout, a 5xx). An answer (a
 * 4xx, a 404 from another service, bk-ci's own refusal) or a failure before the request was
 * sent (its token, the deadline, a refused connection, a cancel before it left) is the opposite.
 */
export function factsOf(error: unknown): { cancelled: boolean; inFlight: string | undefined; mayHaveApplied: boolean } {
  const links = chain(error);
  const cancel = links.find((x): x is CancelledError => x instanceof CancelledError);
  const inFlight = cancel?.inFlight;
  // The first link that says what happened to the request decides: wrappers around it say no more.
  let mayHaveApplied = true;
  for (const link of links) {
    if (unsent.has(link as object)) {
      mayHaveApplied = false;
      break;
    }
    const said = sentFact(link);
    if (said !== undefined) {
      mayHaveApplied = said;
      break;
    }
  }
  return { cancelled: cancel !== undefined, inFlight, mayHaveApplied };
}

/** Failures of a request that was answered, or never sent: it was not applied. */
const ANSWERED_OR_UNSENT = [ServerSaidError, MisdirectedError, DeadlineError, BudgetSpentError, AuthError, InputError];

/** Whether the request behind this one failure may have been applied; undefined when it does not say. */
function sentFact(link: unknown): boolean | undefined {
  if (link instanceof NotSentError) return false;
  if (link instanceof CancelledError) return link.inFlight !== undefined;
  if (link instanceof HttpError) return link.status >= 500;
  if (link instanceof NetworkError) return !link.beforeSend;
  if (link instanceof RequestTimeoutError || link instanceof ResponseFormatError) return true;
  return ANSWERED_OR_UNSENT.some((kind) => link instanceof kind) ? false : undefined;
}

export const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The HTTP status a failure carries, if it has one. */
export const statusOf = (e: unknown): number | undefined => (e instanceof ActionError ? e.status : undefined);
