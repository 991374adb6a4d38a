// A GET whose body is a stream, for a file too large to hold: the answer's status and headers,
// and its body to be read (or destroyed) by the caller. node:http and node:https on a pool of a
// few keep-alive connections per origin of its own (the API's single connection is not held up by
// a file), or undici's agent behind a proxy from the environment. Redirects are the caller's.
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { proxyConfigured } from './proxy-transport.ts';

interface StreamRequest {
  url: string;
  /** Every header sent: nothing is added but what HTTP needs (host, connection). */
  headers: Record<string, string>;
  signal: AbortSignal;
}

export interface StreamResponse {
  status: number;
  /** Lower-case names; a header sent more than once joined with ", ". */
  headers: Record<string, string>;
  body: Readable;
}

export type StreamGet = (req: StreamRequest) => Promise<StreamResponse>;

export interface StreamClient {
  get: StreamGet;
  close(): Promise<void>;
}

const flat = (headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
};

// Taken as CommonJS modules, as src/http/transport.ts does (an ES import reads every export).
const { Agent: HttpAgent, request: httpRequest } = process.getBuiltinModule('node:http');
const { Agent: HttpsAgent, request: httpsRequest } = process.getBuiltinModule('node:https');

/** node:http and node:https, `sockets` keep-alive connections per origin at most. */
export function nodeStreamClient(sockets: number): StreamClient {
  const options = { keepAlive: true, maxSockets: sockets, timeout: 60_000 };
  const agents = { http: new HttpAgent(options), https: new HttpsAgent(options) };
  const get: StreamGet = (req) =>
    new Promise<StreamResponse>((resolve, reject) => {
      const url = new URL(req.url);
      const secure = url.protocol === 'https:';
      const request = (secure ? httpsRequest : httpRequest)(
        url,
        { method: 'GET', headers: req.headers, agent: secure ? agents.https : agents.http, signal: req.signal },
        (res) => resolve({ status: res.statusCode ?? 0, headers: flat(res.headers), body: res }),
      );
      request.on('error', reject);
      request.end();
    });
  return {
    get,
    close: async () => {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/** undici's request through the proxy the environment names (HTTPS_PROXY, HTTP_PROXY, NO_PROXY). */
async function proxyStreamClient(sockets: number): Promise<StreamClient> {
  const { EnvHttpProxyAgent, request } = await import('undici');
  const agent = new EnvHttpProxyAgent({ connections: sockets });
  return {
    get: async (req) => {
      const res = await request(req.url, { method: 'GET', headers: req.headers, signal: req.signal, dispatcher: agent });
      return { status: res.statusCode, headers: flat(res.headers), body: res.body };
    },
    close: () => agent.destroy(),
  };
}

/** The client for the environment: behind its proxy when it names one. */
export const streamClient = (env: NodeJS.ProcessEnv, sockets: number): Promise<StreamClient> =>
  proxyConfigured(env) ? proxyStreamClient(sockets) : Promise.resolve(nodeStreamClient(sockets));
