import { z } from 'zod';
import type { Clock } from '../clock.ts';
import { formatDuration } from '../duration.ts';
import type { Log } from '../log.ts';
import { redactUrl } from '../redact.ts';
import { collapse, cut, stripBom } from '../text.ts';
import {
  CancelledError,
  DeadlineError,
  HttpError,
  NetworkError,
  type RequestError,
  RequestTimeoutError,
  ResponseFormatError,
} from './errors.ts';
import { type Failure, isRetryable, type RetryPolicy, retryDelay } from './retry.ts';
import { BodyTooLargeError, type Transport, type WireResponse } from './transport.ts';

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
}

export interface CallRequest {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** No retry is scheduled past this instant (by the injected clock). */
  deadline?: number;
}

/** Codes that mean the connection was never made, so the request cannot have been sent. */
const BEFORE_SEND = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Certificate problems: retrying cannot help, and the fix is on the runner's side. */
const CERTIFICATE =
  /^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_\w+|ERR_TLS_CERT_ALTNAME_INVALID)$/;
const CERTIFICATE_HINT =
  'If the gateway uses a certificate from a private CA, give the step the environment variable NODE_EXTRA_CA_CERTS with the path of the CA certificate (PEM).';

const errorBody = z.object({
  status: z.number().optional(),
  code: z.number().optional(),
  message: z.string().nullish(),
});

/**
 * A readable account of an error body: bk-ci JSON, plain text (bk-ci's token filter) or an HTML
 * page. Secrets are scrubbed from the whole text before it is cut, so no part of one survives.
 */
function describeErrorBody(res: WireResponse, scrub: (text: string) => string): { message: string; serverStatus?: number } {
  const text = stripBom(res.body).trim();
  if (text.startsWith('{')) {
    try {
      const parsed = errorBody.safeParse(JSON.parse(text));
      if (parsed.success) {
        const serverStatus = parsed.data.code ?? parsed.data.status;
        return { message: cut(scrub(parsed.data.message ?? ''), 500), ...(serverStatus === undefined ? {} : { serverStatus }) };
      }
    } catch {
      // not JSON after all: shown as text
    }
  }
  return { message: cut(scrub(collapse(text)), 300) };
}

/**
 * Timers fire a little late: a poll scheduled for the deadline itself still goes out. Past this,
 * no request starts, so a step overruns its timeout by at most one request-timeout.
 */
export const START_SLACK_MS = 250;

/** HTTP with per-attempt timeouts, the retry policy, cancellation, and failures turned into typed errors. */
export class HttpCaller {
  readonly #o: CallerOptions;
  /** HTTP status of the last answer received. */
  lastStatus: number | undefined;

  constructor(options: CallerOptions) {
    this.#o = options;
  }

  /** Secrets out of server text, for the layers above that read bodies. */
  scrub(text: string): string {
    return this.#o.scrub(text);
  }

  async call(req: CallRequest): Promise<WireResponse> {
    const { clock, log, retry } = this.#o;
    const shown = redactUrl(req.url);
    for (let attempt = 0; ; attempt++) {
      if (req.deadline !== undefined && clock.now() > req.deadline + START_SLACK_MS)
        throw new DeadlineError({ method: req.method, url: shown });
      let error: RequestError;
      let failure: Failure;
      try {
        const res = await this.#attempt(req, shown);
        this.lastStatus = res.status;
        if (res.status >= 200 && res.status < 300) return res;
        const { message, serverStatus } = describeErrorBody(res, this.#o.scrub);
        const retryAfter = res.headers['retry-after'];
        error = new HttpError({
          method: req.method,
          url: shown,
          status: res.status,
          serverMessage: message,
          ...(serverStatus === undefined ? {} : { serverStatus }),
          ...(retryAfter === undefined ? {} : { retryAfter }),
        });
        failure = { kind: 'status', status: res.status, retryAfter };
      } catch (e) {
        if (e instanceof NetworkError)
          failure = { kind: 'network', beforeSend: e.beforeSend, permanent: e.code !== undefined && CERTIFICATE.test(e.code) };
        else if (e instanceof RequestTimeoutError) failure = { kind: 'timeout' };
        else throw e;
        error = e;
      }
      if (attempt >= retry.retries || !isRetryable(req.method, failure)) throw error;
      const delay = retryDelay(attempt + 1, failure, clock.now(), this.#o.random, retry);
      if (req.deadline !== undefined && clock.now() + delay > req.deadline) throw error;
      const reason =
        error instanceof HttpError
          ? `HTTP ${error.status}`
          : error instanceof RequestTimeoutError
            ? 'no answer within request-timeout'
            : `network error (${(error as NetworkError).code ?? 'unknown'})`;
      log.info(`${req.method} ${stripQuery(shown)}: ${reason}; retry ${attempt + 1} of ${retry.retries} in ${formatDuration(delay)}`);
      await clock.sleep(delay, this.#o.signal).catch(() => {
        throw new CancelledError();
      });
    }
  }

  async #attempt(req: CallRequest, shown: string): Promise<WireResponse> {
    const { signal, requestTimeoutMs } = this.#o;
    if (signal.aborted) throw new CancelledError();
    const timeout = AbortSignal.timeout(requestTimeoutMs);
    const headers = { 'user-agent': this.#o.userAgent, ...req.headers };
    this.#o.log.debug(`${req.method} ${shown}`);
    try {
      return await this.#o.transport({
        method: req.method,
        url: req.url,
        headers,
        ...(req.body === undefined ? {} : { body: req.body }),
        signal: AbortSignal.any([signal, timeout]),
        maxBodyBytes: this.#o.maxBodyBytes,
      });
    } catch (e) {
      if (signal.aborted) throw new CancelledError();
      if (timeout.aborted) throw new RequestTimeoutError({ method: req.method, url: shown, timeoutMs: requestTimeoutMs, cause: e });
      if (e instanceof BodyTooLargeError)
        throw new ResponseFormatError({ method: req.method, url: shown, status: e.status, detail: e.message, cause: e });
      const code = errorCode(e);
      let detail = cut(this.#o.scrub(describeCause(e)), 2000).replace(
        /; if the root CA is installed locally, try running Node\.js with --use-system-ca$/,
        '',
      );
      if (code !== undefined && CERTIFICATE.test(code)) detail = `${detail}. ${CERTIFICATE_HINT}`;
      throw new NetworkError({
        method: req.method,
        url: shown,
        beforeSend: code !== undefined && BEFORE_SEND.has(code),
        detail,
        cause: e,
        ...(code === undefined ? {} : { code }),
      });
    }
  }
}

function errorCode(e: unknown): string | undefined {
  for (let x: unknown = e, depth = 0; x instanceof Error && depth < 4; x = x.cause, depth++) {
    const code = (x as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

function describeCause(e: unknown): string {
  const parts: string[] = [];
  for (let x: unknown = e, depth = 0; x instanceof Error && depth < 4; x = x.cause, depth++) {
    // fetch wraps every failure in "fetch failed"; the causes say what happened.
    if (x.message && x.message !== 'fetch failed' && !parts.includes(x.message)) parts.push(x.message);
  }
  return parts.join(': ') || String(e);
}

export const stripQuery = (url: string): string => url.split('?')[0] ?? url;
