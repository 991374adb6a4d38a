import type { IncomingMessage } from 'node:http';
import { pipeline, type Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createUnzip } from 'node:zlib';

export interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  maxBodyBytes: number;
  /** Takes a successful (2xx) answer's body as it arrives, instead of it being kept: a fresh one per attempt. */
  sink?: (() => BodySink) | undefined;
  /**
   * On a connection of its own, not behind a request still under way on the shared one (after a
   * cancel, the start's POST may hang there while the build is looked for and stopped).
   */
  ownConnection?: boolean;
}

/**
 * Where a body goes a chunk at a time. What it finds wrong in the body it says later; it throws
 * only a LocalError (a file on the runner could not be written), which ends the request as it is.
 */
export interface BodySink {
  write(chunk: Uint8Array): void;
}

export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  /** Empty when the request's sink took it. */
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
 * undici package's with a dispatcher of our own. Redirects are not followed: the APIs it serves do
 * not redirect, and a redirect usually means a login page or a wrong base-url.
 */
export function fetchTransport<D>(fetchImpl: Fetch<D>, dispatcher?: D, spare?: () => D): Transport {
  return async (req) => {
    const init: FetchInit<D> = { method: req.method, headers: req.headers, signal: req.signal, redirect: 'manual' };
    if (req.body !== undefined) init.body = req.body;
    const d = req.ownConnection && spare !== undefined ? spare() : dispatcher;
    if (d !== undefined) init.dispatcher = d;
    const res = await fetchImpl(req.url, init);
    let body = '';
    try {
      const declared = declaredLength(res.headers.get('content-length'), req.maxBodyBytes, res.status);
      // fetch has already decoded a compressed body: its Content-Length counts the encoded bytes.
      const exact = identity(res.headers.get('content-encoding')) ? declared : undefined;
      if (res.body) body = await readBody(res.body, exact, req.maxBodyBytes, res.status, sinkFor(req, res.status));
    } catch (e) {
      if (e instanceof BodyTooLargeError) await res.body?.cancel().catch(() => undefined);
      throw e;
    }
    return { status: res.status, headers: Object.fromEntries(res.headers), body };
  };
}

const sinkFor = (req: WireRequest, status: number): BodySink | undefined => (status >= 200 && status < 300 ? req.sink?.() : undefined);

const identity = (encoding: string | null | undefined): boolean => encoding == null || /^\s*(identity)?\s*$/i.test(encoding);

/** The Content-Length, refused at once when it is over the cap. */
function declaredLength(header: string | null | undefined, max: number, status: number): number | undefined {
  const declared = header != null && /^\d+$/.test(header) ? Number(header) : undefined;
  if (declared !== undefined && declared > max)
    throw new BodyTooLargeError(`the response body of ${declared} bytes exceeds the limit of ${max} bytes`, status);
  return declared;
}

/**
 * The body as text, at most `max` bytes. With an exact length (no content coding) the chunks are
 * copied into one buffer as they come, rather than kept in a list and joined, which held the
 * body twice. With a sink, each chunk goes to it and nothing is kept.
 */
async function readBody(
  stream: AsyncIterable<Uint8Array>,
  exact: number | undefined,
  max: number,
  status: number,
  sink: BodySink | undefined,
): Promise<string> {
  const whole = exact === undefined || sink !== undefined ? undefined : Buffer.allocUnsafe(exact);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    if (size + chunk.byteLength > (whole?.length ?? max)) {
      throw new BodyTooLargeError(
        whole ? 'the response body is longer than its Content-Length' : `the response body exceeds the limit of ${max} bytes`,
        status,
      );
    }
    if (sink) sink.write(chunk);
    else if (whole) whole.set(chunk, size);
    else chunks.push(chunk);
    size += chunk.byteLength;
  }
  if (sink) return '';
  return (whole ?? Buffer.concat(chunks, size)).toString('utf8', 0, size);
}

/**
 * A transport over node:http and node:https, for requests that need no proxy. Unlike fetch
 * (Node's or the undici package's, which take any `100 Continue` the client did not ask for as a
 * broken response), it reads past every interim 1xx answer, as curl does, and its parser is
 * native rather than WebAssembly, which V8 would recompile in the background at exit. Bodies in
 * gzip, deflate or br are decoded here. One keep-alive connection per origin serves every request
 * of the step, polls included.
 */
// node:http and node:https taken as CommonJS modules: importing them as ES modules makes Node read
// every export, and one of node:http's is a getter that loads Node's own undici (~20 ms a start).
const { Agent: HttpAgent, request: httpRequest } = process.getBuiltinModule('node:http');
const { Agent: HttpsAgent, request: httpsRequest } = process.getBuiltinModule('node:https');

export function nodeTransport(o: { keepAliveMs: number }): { transport: Transport; close: () => void } {
  // An idle connection is kept this long: a poll interval for a wait, a moment otherwise.
  const options = { keepAlive: true, maxSockets: 1, timeout: o.keepAliveMs };
  const agents = { 'http:': new HttpAgent(options), 'https:': new HttpsAgent(options) };
  const transport: Transport = (req) =>
    new Promise<WireResponse>((resolve, reject) => {
      const url = new URL(req.url);
      const secure = url.protocol === 'https:';
      const send = secure ? httpsRequest : httpRequest;
      const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br', ...req.headers };
      if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
      const r = send(
        url,
        // agent: false is a connection of its own, closed after the answer.
        { method: req.method, headers, agent: req.ownConnection ? false : secure ? agents['https:'] : agents['http:'], signal: req.signal },
        (res) => {
          const status = res.statusCode ?? 0;
          const resHeaders: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) resHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
          const fail = (e: unknown): void => {
            res.destroy();
            reject(e);
          };
          try {
            const declared = declaredLength(resHeaders['content-length'], req.maxBodyBytes, status);
            const exact = identity(resHeaders['content-encoding']) ? declared : undefined;
            // The Content-Length framing is node:http's to check; a body cut short ends in an error.
            readBody(decoder(resHeaders['content-encoding'], res), exact, req.maxBodyBytes, status, sinkFor(req, status))
              .then((body) => resolve({ status, headers: resHeaders, body }))
              .catch(fail);
          } catch (e) {
            fail(e);
          }
        },
      );
      r.on('error', reject);
      r.end(req.body);
    });
  return {
    transport,
    close: () => {
      for (const agent of Object.values(agents)) agent.destroy();
    },
  };
}

/** The decoded body stream for a Content-Encoding; an unknown coding is an error, not garbage. */
function decoder(encoding: string | undefined, res: IncomingMessage): AsyncIterable<Uint8Array> {
  if (identity(encoding)) return res;
  const codings = (encoding ?? '')
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '' && c !== 'identity');
  let stream: Readable = res;
  // Codings are listed in the order they were applied: undone last first.
  for (const coding of codings.reverse()) {
    const step = DECODERS[coding];
    if (step === undefined) throw new Error(`the response uses the content coding "${coding}", which this action cannot decode`);
    stream = pipeline(stream, step(), () => undefined);
  }
  return stream;
}

const DECODERS: Record<string, () => Transform> = {
  gzip: () => createGunzip(),
  'x-gzip': () => createGunzip(),
  br: () => createBrotliDecompress(),
  // zlib-wrapped deflate, as HTTP defines it (unzip also takes a gzip stream sent as deflate).
  deflate: () => createUnzip(),
};

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

/** Whether requests must go through a proxy, which node:http does not do on its own. */
export const proxyConfigured = (env: NodeJS.ProcessEnv): boolean => PROXY_VARIABLES.some((v) => (env[v] ?? '') !== '');

/**
 * What is wrong with the proxy variables, if anything, in words that name the variable. A proxy
 * without a scheme (`proxy:3128`) parses as a URL of the scheme "proxy:", and the proxy agent
 * would fail deep inside with "Invalid URL".
 */
export function proxyProblem(env: NodeJS.ProcessEnv): string | undefined {
  for (const name of PROXY_VARIABLES) {
    const value = env[name] ?? '';
    if (value === '') continue;
    let ok = false;
    try {
      const u = new URL(value);
      ok = (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
    } catch {
      // not a URL at all
    }
    if (!ok) {
      const shown = value.replace(/\/\/[^/@]*@/, '//***@').replace(/^[^/@]*@/, '***@');
      return `the environment variable ${name} is "${shown}", which is not a proxy URL: write it with its scheme, e.g. http://${shown.replace(/^[a-z]+:\/\//i, '')}`;
    }
  }
  return undefined;
}

/**
 * The undici package, loaded only behind a proxy from the environment (HTTPS_PROXY, HTTP_PROXY,
 * NO_PROXY). Its agent keeps one connection per origin alive a minute (or as long as the
 * server's Keep-Alive header says), since the action's requests are sequential.
 */
export async function proxyTransport(): Promise<{ transport: Transport; close: () => Promise<void> }> {
  const { EnvHttpProxyAgent, fetch } = await import('undici');
  const agent = new EnvHttpProxyAgent({ connections: 1, keepAliveTimeout: 60_000, keepAliveMaxTimeout: 600_000 });
  let own: InstanceType<typeof EnvHttpProxyAgent> | undefined;
  const spare = (): InstanceType<typeof EnvHttpProxyAgent> => {
    own ??= new EnvHttpProxyAgent({ connections: 1 });
    return own;
  };
  return {
    transport: fetchTransport(fetch, agent, spare),
    close: async () => {
      await Promise.all([agent.destroy(), own?.destroy()]);
    },
  };
}
