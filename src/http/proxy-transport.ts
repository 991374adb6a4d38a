// Behind a proxy from the environment: the proxy variables checked, and the undici package's
// fetch with its proxy agent as the transport (fetchTransport: a transport over any fetch).
import { BodyTooLargeError, declaredLength, identity, readBody, sinkFor, type Transport } from './transport.ts';

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
    const through = req.ownConnection && spare !== undefined ? spare() : dispatcher;
    if (through !== undefined) init.dispatcher = through;
    const res = await fetchImpl(req.url, init);
    let body = '';
    try {
      const declared = declaredLength(res.headers.get('content-length'), req.maxBodyBytes, res.status);
      // fetch has already decoded a compressed body: its Content-Length counts the encoded bytes.
      const exact = identity(res.headers.get('content-encoding')) ? declared : undefined;
      if (res.body) body = await readBody(res.body, exact, req.maxBodyBytes, res.status, sinkFor(req, res.status));
    } catch (error) {
      if (error instanceof BodyTooLargeError) await res.body?.cancel().catch(() => undefined);
      throw error;
    }
    return { status: res.status, headers: Object.fromEntries(res.headers), body };
  };
}

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
      const url = new URL(value);
      ok = (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
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
