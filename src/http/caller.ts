// Generic HTTP: one request with per-attempt timeouts, the retry policy, cancellation and the
// step's deadline, and every failure as a typed error. What an error body means, and which URL
// may be shown, is the caller's dialect, handed in.
import type { Clock } from '../base/clock.ts';
import { formatDuration } from '../base/duration.ts';
import {
  BudgetSpentError,
  CancelledError,
  DeadlineError,
  HttpError,
  LocalError,
  MisdirectedError,
  NetworkError,
  type RequestError,
  RequestTimeoutError,
  ResponseFormatError,
} from '../base/errors.ts';
import type { Log } from '../base/log.ts';
import { networkError } from './network-failure.ts';
import { type CallKind, type Failure, isRetryable, kindOf, type RetryPolicy, retryDelay } from './retry.ts';
import { type BodySink, BodyTooLargeError, type Transport, type WireResponse } from './transport.ts';

export interface CallerOptions {
  transport: Transport;
  clock: Clock;
  random: () => number;
  log: Log;
  requestTimeoutMs: number;
  retry: RetryPolicy;
  /** Aborted when the job is cancelled. */
  signal: AbortSignal;
  maxBodyBytes: number;
  userAgent: string;
  /** Takes secrets out of server text; applied before any text is cut to an excerpt. */
  scrub: (text: string) => string;
  /** What an error body says, in the server's dialect: readable text (scrubbed, then cut) and its own code. */
  readError: (res: WireResponse, scrub: (text: string) => string) => ErrorBody;
}

export interface ErrorBody {
  message: string;
  serverStatus?: number;
  /** The body shows the request reached another service than the one meant (a wrong base-url or gateway). */
  misdirected?: boolean;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface CallRequest {
  method: Method;
  url: string;
  /** The URL as messages may show it: secrets in it replaced. */
  shownUrl: string;
  headers: Record<string, string>;
  body?: string;
  /** No retry is scheduled past this instant (by the injected clock). */
  deadline?: number;
  /**
   * Sent even after the job was cancelled, once, within this time: the one request a cancelled
   * step still owes (stopping the build it started), inside the runner's grace period.
   */
  detached?: { timeoutMs: number };
  /**
   * The attempt under way is not cut off when the job is cancelled, only by request-timeout: its
   * answer may be the one thing that says what the request did (a build's id). No new attempt
   * starts after the cancel.
   */
  survivesCancel?: boolean;
  /** One attempt within this time, no retry: a look whose answer is wanted soon or not at all. */
  once?: { timeoutMs: number };
  /** What the call is (a read published as POST is still a read); the verb's default when not said. */
  kind?: CallKind;
  /** A side read's own budget: it replaces the step's deadline (see SideBudget). */
  budget?: SideBudget;
  /** Takes a successful answer's body as it arrives (a fresh one per attempt); the response's body is then empty. */
  sink?: (() => BodySink) | undefined;
}

/**
 * What a read beside the wait may spend: each attempt at most `attemptMs` (and never past
 * `until`), at most `retries` retries, none that would start after `until`. A read within it
 * cannot hold up what it rides beside.
 */
export interface SideBudget {
  attemptMs: number;
  retries: number;
  /** No attempt runs, and no retry is scheduled, past this instant (by the injected clock). */
  until: number;
}

/**
 * Timers fire a little late: a poll scheduled for the deadline itself still goes out. Past this,
 * no request starts, so a step overruns its timeout by at most one request-timeout.
 */
const START_SLACK_MS = 250;

/** HTTP with per-attempt timeouts, the retry policy, cancellation, and failures turned into typed errors. */
export class HttpCaller {
  readonly #options: CallerOptions;
  constructor(options: CallerOptions) {
    this.#options = options;
  }

  /** Secrets out of server text, for the layers above that read bodies. */
  scrub(text: string): string {
    return this.#options.scrub(text);
  }

  async call(req: CallRequest): Promise<WireResponse> {
    const { clock, log, retry } = this.#options;
    const shown = req.shownUrl;
    const deadline = req.budget?.until ?? req.deadline;
    const retries = Math.min(retry.retries, req.budget?.retries ?? retry.retries);
    const kind = kindOf(req.method, req.kind);
    for (let attempt = 0; ; attempt++) {
      if (req.budget !== undefined && clock.now() >= req.budget.until) throw new BudgetSpentError({ method: req.method, url: shown });
      if (deadline !== undefined && clock.now() > deadline + START_SLACK_MS) throw new DeadlineError({ method: req.method, url: shown });
      let error: RequestError;
      let failure: Failure;
      try {
        const res = await this.#attempt(req, shown);
        if (res.status >= 200 && res.status < 300) return res;
        const { message, serverStatus, misdirected } = this.#options.readError(res, this.#options.scrub);
        const retryAfter = res.headers['retry-after'];
        if (misdirected) throw new MisdirectedError({ method: req.method, url: shown, status: res.status, serverMessage: message });
        error = new HttpError({
          method: req.method,
          url: shown,
          status: res.status,
          serverMessage: message,
          ...(serverStatus === undefined ? {} : { serverStatus }),
          ...(retryAfter === undefined ? {} : { retryAfter }),
        });
        failure = { kind: 'status', status: res.status, retryAfter };
      } catch (cause) {
        if (cause instanceof NetworkError)
          failure = {
            kind: 'network',
            beforeSend: cause.beforeSend,
            permanent: cause.permanent,
          };
        else if (cause instanceof RequestTimeoutError) failure = { kind: 'timeout' };
        else throw cause;
        error = cause;
      }
      if (attempt >= retries || req.detached !== undefined || req.once !== undefined || !isRetryable(kind, failure)) throw error;
      const delay = retryDelay(attempt + 1, failure, clock.now(), this.#options.random, retry);
      if (delay > retry.maxRetryAfterMs) {
        log.info(
          `${req.method} ${stripQuery(shown)}: HTTP ${error.status}; not retried: the server asks to wait ${formatDuration(delay)} (Retry-After), longer than the action waits for a retry (${formatDuration(retry.maxRetryAfterMs)})`,
        );
        throw error;
      }
      if (deadline !== undefined && clock.now() + delay > deadline) throw error;
      // A side read's retry that could only start as its budget ends would be no request at all.
      if (req.budget !== undefined && clock.now() + delay >= req.budget.until) throw error;
      const reason =
        error instanceof HttpError
          ? `HTTP ${error.status}`
          : error instanceof RequestTimeoutError
            ? 'no answer within request-timeout'
            : `network error (${(error as NetworkError).code ?? 'unknown'})`;
      log.info(`${req.method} ${stripQuery(shown)}: ${reason}; retry ${attempt + 1} of ${retries} in ${formatDuration(delay)}`);
      await clock.sleep(delay, this.#options.signal).catch(() => {
        throw new CancelledError();
      });
    }
  }

  async #attempt(req: CallRequest, shown: string): Promise<WireResponse> {
    if (req.detached === undefined && this.#options.signal.aborted) throw new CancelledError();
    const signal = req.detached === undefined && !req.survivesCancel ? this.#options.signal : new AbortController().signal;
    const own = req.detached?.timeoutMs ?? req.once?.timeoutMs ?? this.#options.requestTimeoutMs;
    const left = req.budget === undefined ? own : Math.min(own, req.budget.attemptMs, req.budget.until - this.#options.clock.now());
    const requestTimeoutMs = Math.max(1, Math.min(left, this.#options.requestTimeoutMs));
    const timeout = this.#options.clock.timeout(requestTimeoutMs);
    const headers = { 'user-agent': this.#options.userAgent, ...req.headers };
    this.#options.log.debug(`${req.method} ${shown}`);
    try {
      return await this.#options.transport({
        method: req.method,
        url: req.url,
        headers,
        ...(req.body === undefined ? {} : { body: req.body }),
        signal: AbortSignal.any([signal, timeout]),
        maxBodyBytes: this.#options.maxBodyBytes,
        ...(req.sink === undefined ? {} : { sink: req.sink }),
        // What a cancelled step still owes must not queue behind a request that hangs.
        ...(req.detached === undefined ? {} : { ownConnection: true }),
      });
    } catch (error) {
      // The answer was being written to a file that failed: the runner's side, not the wire's.
      if (error instanceof LocalError) throw error;
      // A write cut off on its way may have reached bk-ci all the same: said, never assumed undone.
      if (signal.aborted)
        throw new CancelledError(kindOf(req.method, req.kind) === 'read' ? undefined : `${req.method} ${stripQuery(shown)}`);
      if (timeout.aborted) throw new RequestTimeoutError({ method: req.method, url: shown, timeoutMs: requestTimeoutMs, cause: error });
      if (error instanceof BodyTooLargeError)
        throw new ResponseFormatError({ method: req.method, url: shown, status: error.status, detail: error.message, cause: error });
      throw networkError(error, { method: req.method, url: req.url, shownUrl: shown }, this.#options.scrub);
    }
  }
}

const stripQuery = (url: string): string => url.split('?')[0] ?? url;
