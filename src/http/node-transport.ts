import type { IncomingMessage } from 'node:http';
import { pipeline, type Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createUnzip } from 'node:zlib';
import { declaredLength, identity, readBody, sinkFor, type Transport, type WireResponse } from './transport.ts';

// node:http and node:https taken as CommonJS modules: importing them as ES modules makes Node read
// every export, and one of node:http's is a getter that loads Node's own undici (~20 ms a start).
const { Agent: HttpAgent, request: httpRequest } = process.getBuiltinModule('node:http');
const { Agent: HttpsAgent, request: httpsRequest } = process.getBuiltinModule('node:https');

/**
 * A transport over node:http and node:https, for requests that need no proxy. Unlike fetch
 * (Node's or the undici package's, which take any `100 Continue` the client did not ask for as a
 * broken response), it reads past every interim 1xx answer, as curl does, and its parser is
 * native rather than WebAssembly, which V8 would recompile in the background at exit. Bodies in
 * gzip, deflate or br are decoded here. One keep-alive connection per origin serves every request
 * of the step, polls included.
 */
export function nodeTransport({ keepAliveMs }: { keepAliveMs: number }): { transport: Transport; close: () => void } {
  // An idle connection is kept this long: a poll interval for a wait, a moment otherwise.
  const options = { keepAlive: true, maxSockets: 1, timeout: keepAliveMs };
  const agents = { 'http:': new HttpAgent(options), 'https:': new HttpsAgent(options) };
  const transport: Transport = (req) =>
    new Promise<WireResponse>((resolve, reject) => {
      const url = new URL(req.url);
      const secure = url.protocol === 'https:';
      const send = secure ? httpsRequest : httpRequest;
      const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br', ...req.headers };
      if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
      const request = send(
        url,
        // agent: false is a connection of its own, closed after the answer.
        { method: req.method, headers, agent: req.ownConnection ? false : secure ? agents['https:'] : agents['http:'], signal: req.signal },
        (res) => {
          const status = res.statusCode ?? 0;
          const resHeaders: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) resHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
          const fail = (error: unknown): void => {
            res.destroy();
            reject(error);
          };
          try {
            const declared = declaredLength(resHeaders['content-length'], req.maxBodyBytes, status);
            const exact = identity(resHeaders['content-encoding']) ? declared : undefined;
            // The Content-Length framing is node:http's to check; a body cut short ends in an error.
            readBody(decoder(resHeaders['content-encoding'], res), exact, req.maxBodyBytes, status, sinkFor(req, status))
              .then((body) => resolve({ status, headers: resHeaders, body }))
              .catch(fail);
          } catch (cause) {
            fail(cause);
          }
        },
      );
      request.on('error', reject);
      request.end(req.body);
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
