export interface WireRequest {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  maxBodyBytes: number;
}

export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One HTTP exchange, the whole body read under the request's signal. */
export type Transport = (req: WireRequest) => Promise<WireResponse>;

export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
  /** The HTTP status of the answer whose body was refused. */
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

/** `D`: the dispatcher type of the fetch in use (Node's own and the undici package's differ). */
interface FetchInit<D> {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  redirect: 'manual';
  dispatcher?: D;
}

/** What this transport needs of a Response: Node's and the undici package's both fit. */
interface FetchResponse {
  status: number;
  headers: Iterable<[string, string]> & { get(name: string): string | null };
  body: (AsyncIterable<Uint8Array> & { cancel(): Promise<void> }) | null;
}

export type Fetch<D> = (url: string, init: FetchInit<D>) => Promise<FetchResponse>;

/**
 * A transport over a fetch function: Node's own (undici inside Node, nothing to load) or the
 * undici package's with a dispatcher of our own. Redirects are not followed: bk-ci's API does
 * not redirect, and a redirect usually means a login page or a wrong base-url.
 */
export function fetchTransport<D>(fetchImpl: Fetch<D>, dispatcher?: D): Transport {
  return async (req) => {
    const init: FetchInit<D> = { method: req.method, headers: req.headers, signal: req.signal, redirect: 'manual' };
    if (req.body !== undefined) init.body = req.body;
    if (dispatcher !== undefined) init.dispatcher = dispatcher;
    const res = await fetchImpl(req.url, init);
    const length = res.headers.get('content-length');
    const declared = length !== null && /^\d+$/.test(length) ? Number(length) : undefined;
    if (declared !== undefined && declared > req.maxBodyBytes) {
      await res.body?.cancel();
      throw new BodyTooLargeError(`the response body of ${declared} bytes exceeds the limit of ${req.maxBodyBytes} bytes`, res.status);
    }
    const body = res.body ? await readBody(res.body, declared, req.maxBodyBytes, res.status) : '';
    return { status: res.status, headers: Object.fromEntries(res.headers), body };
  };
}

/**
 * The body as text, at most `max` bytes. With a declared length the chunks are copied into one
 * buffer as they come, rather than kept in a list and joined, which held the body twice.
 */
async function readBody(
  stream: AsyncIterable<Uint8Array> & { cancel(): Promise<void> },
  declared: number | undefined,
  max: number,
  status: number,
): Promise<string> {
  const whole = declared === undefined ? undefined : Buffer.allocUnsafe(declared);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    if (size + chunk.byteLength > (whole?.length ?? max)) {
      await stream.cancel().catch(() => undefined);
      throw new BodyTooLargeError(
        whole ? 'the response body is longer than its Content-Length' : `the response body exceeds the limit of ${max} bytes`,
        status,
      );
    }
    if (whole) whole.set(chunk, size);
    else chunks.push(chunk);
    size += chunk.byteLength;
  }
  return (whole ?? Buffer.concat(chunks, size)).toString('utf8', 0, size);
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

/** Whether requests must go through a proxy, which Node's own fetch does not do on its own. */
export const proxyConfigured = (env: NodeJS.ProcessEnv): boolean => PROXY_VARIABLES.some((v) => (env[v] ?? '') !== '');

/**
 * The undici package, loaded only when needed: a proxy from the environment, or a wait whose
 * polls should share one connection. Node's fetch drops idle connections after 4 s, less than
 * the default 5 s poll interval; this agent keeps them a minute (or as long as the server's
 * Keep-Alive header says) and holds one per origin, since the action's requests are sequential.
 */
export async function agentTransport(): Promise<{ transport: Transport; close: () => Promise<void> }> {
  const { EnvHttpProxyAgent, fetch } = await import('undici');
  const agent = new EnvHttpProxyAgent({ connections: 1, keepAliveTimeout: 60_000, keepAliveMaxTimeout: 600_000 });
  return { transport: fetchTransport(fetch, agent), close: () => agent.destroy() };
}
