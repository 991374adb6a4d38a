/** What every failure of a request carries: the method, the URL with secrets redacted, a status when there was one. */
export abstract class RequestError extends Error {
  readonly method: string;
  readonly url: string;
  constructor(message: string, method: string, url: string, options?: ErrorOptions) {
    super(message, options);
    this.method = method;
    this.url = url;
  }
}

/** The server answered with HTTP 4xx/5xx. `serverMessage` is readable text, never a raw HTML page. */
export class HttpError extends RequestError {
  override name = 'HttpError';
  readonly status: number;
  readonly serverMessage: string;
  /** The wrapper's `status` (or `code`) when the body was bk-ci JSON. */
  readonly serverStatus: number | undefined;
  readonly retryAfter: string | undefined;
  constructor(init: { method: string; url: string; status: number; serverMessage: string; serverStatus?: number; retryAfter?: string }) {
    super(
      `${init.method} ${init.url} answered HTTP ${init.status}${init.serverMessage ? `: ${init.serverMessage}` : ''}`,
      init.method,
      init.url,
    );
    this.status = init.status;
    this.serverMessage = init.serverMessage;
    this.serverStatus = init.serverStatus;
    this.retryAfter = init.retryAfter;
  }
}

/** HTTP 2xx, but the wrapper's `status`/`code` says the call failed. */
export class WrapperStatusError extends RequestError {
  override name = 'WrapperStatusError';
  readonly status: number;
  readonly serverStatus: number;
  readonly serverMessage: string;
  constructor(init: { method: string; url: string; status: number; serverStatus: number; serverMessage: string }) {
    super(
      `${init.method} ${init.url} answered HTTP ${init.status} with error status ${init.serverStatus}${init.serverMessage ? `: ${init.serverMessage}` : ''}`,
      init.method,
      init.url,
    );
    this.status = init.status;
    this.serverStatus = init.serverStatus;
    this.serverMessage = init.serverMessage;
  }
}

/** No HTTP answer: refused, reset, DNS, TLS. `beforeSend` when the request cannot have reached the server. */
export class NetworkError extends RequestError {
  override name = 'NetworkError';
  readonly code: string | undefined;
  readonly beforeSend: boolean;
  constructor(init: { method: string; url: string; code?: string; beforeSend: boolean; detail: string; cause: unknown }) {
    super(`${init.method} ${init.url} failed: ${init.detail}`, init.method, init.url, { cause: init.cause });
    this.code = init.code;
    this.beforeSend = init.beforeSend;
  }
}

export class RequestTimeoutError extends RequestError {
  override name = 'RequestTimeoutError';
  readonly timeoutMs: number;
  constructor(init: { method: string; url: string; timeoutMs: number; cause?: unknown }) {
    super(`${init.method} ${init.url} got no complete answer within request-timeout (${init.timeoutMs / 1000}s)`, init.method, init.url, {
      cause: init.cause,
    });
    this.timeoutMs = init.timeoutMs;
  }
}

/** The answer was 2xx but not what the API promises: not JSON, cut short, or the wrong shape. */
export class ResponseFormatError extends RequestError {
  override name = 'ResponseFormatError';
  readonly status: number;
  constructor(init: { method: string; url: string; status: number; detail: string; cause?: unknown }) {
    super(`${init.method} ${init.url} answered HTTP ${init.status} with an unexpected body: ${init.detail}`, init.method, init.url, {
      cause: init.cause,
    });
    this.status = init.status;
  }
}

/** The step's deadline passed before the request could start: it was never sent. */
export class DeadlineError extends RequestError {
  override name = 'DeadlineError';
  constructor(init: { method: string; url: string }) {
    super(
      `the step's timeout passed before ${init.method} ${init.url.split('?')[0]} could be sent; it was not sent`,
      init.method,
      init.url,
    );
  }
}

/** The job was cancelled (SIGINT/SIGTERM) while a request or a wait was under way. */
export class CancelledError extends Error {
  override name = 'CancelledError';
  constructor() {
    super('cancelled');
  }
}

/** The HTTP status a failure carries, if it has one. */
export function statusOf(error: unknown): number | undefined {
  return error instanceof HttpError || error instanceof WrapperStatusError || error instanceof ResponseFormatError
    ? error.status
    : undefined;
}
