import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeTransport } from '../../src/http/node-transport.ts';
import { fetchTransport } from '../../src/http/proxy-transport.ts';
import { BodyTooLargeError, type Transport } from '../../src/http/transport.ts';
import { DataFile } from '../../src/runner/data-output.ts';

let server: Server;
let base: string;
const body = `{"status":0,"data":"${'é'.repeat(5000)}"}`;
beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/gzip') {
      // Compressed, chunked, in small pieces: the sink sees the decoded bytes.
      res.setHeader('content-encoding', 'gzip');
      const zipped = gzipSync(body);
      for (let i = 0; i < zipped.length; i += 100) res.write(zipped.subarray(i, i + 100));
      res.end();
    } else if (req.url === '/missing') {
      res.statusCode = 404;
      res.end('{"status":404,"message":"no"}');
    } else if (req.url === '/chunked') {
      // No Content-Length: several writes go out chunked.
      for (let i = 0; i < body.length; i += 1000) res.write(body.slice(i, i + 1000));
      res.end();
    } else {
      res.setHeader('content-length', Buffer.byteLength(body));
      res.end(body);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const send = (path: string, maxBodyBytes: number) =>
  fetchTransport(globalThis.fetch)({ method: 'GET', url: `${base}${path}`, headers: {}, signal: AbortSignal.timeout(5000), maxBodyBytes });

describe('fetchTransport', () => {
  it.each(['/sized', '/chunked'])('reads %s whole, multi-byte characters intact', async (path) => {
    const res = await send(path, 1_000_000);
    expect(res.status).toBe(200);
    expect(res.body).toBe(body);
    expect(res.headers['content-type']).toBe('application/json');
  });

  it.each([
    ['/sized', /body of 10\d{3} bytes exceeds the limit of 1000 bytes/],
    ['/chunked', /body exceeds the limit of 1000 bytes/],
  ])('refuses %s over the cap', async (path, message) => {
    const error = await send(path, 1000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodyTooLargeError);
    expect((error as Error).message).toMatch(message);
  });
});

describe.each([
  ['fetchTransport (behind a proxy)', () => ({ transport: fetchTransport(globalThis.fetch), close: () => undefined })],
  ['nodeTransport', () => nodeTransport({ keepAliveMs: 1000 })],
] as [string, () => { transport: Transport; close: () => void }][])('%s with a sink', (_, open) => {
  it.each(['/sized', '/chunked', '/gzip'])('gives %s to the sink as it comes, decoded, and keeps none of it', async (path) => {
    const { transport, close } = open();
    const chunks: Buffer[] = [];
    let sinks = 0;
    const res = await transport({
      method: 'GET',
      url: `${base}${path}`,
      headers: {},
      signal: AbortSignal.timeout(5000),
      maxBodyBytes: 1_000_000,
      sink: () => {
        sinks++;
        return { write: (chunk) => chunks.push(Buffer.from(chunk)) };
      },
    });
    close();
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
    expect(sinks).toBe(1);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(body);
  });

  it('keeps an error answer for its message: the sink is for success only', async () => {
    const { transport, close } = open();
    let sinks = 0;
    const res = await transport({
      method: 'GET',
      url: `${base}/missing`,
      headers: {},
      signal: AbortSignal.timeout(5000),
      maxBodyBytes: 1_000_000,
      sink: () => {
        sinks++;
        return { write: () => undefined };
      },
    });
    close();
    expect(res.status).toBe(404);
    expect(res.body).toBe('{"status":404,"message":"no"}');
    expect(sinks).toBe(0);
  });
});

describe('DataFile', () => {
  it.each([
    ['a small object', { a: 1, b: ['x'] }, true],
    ['a list written in batches', Array.from({ length: 1234 }, (_, i) => ({ i, name: `p-${i}` })), true],
    ['a list with holes', [1, undefined, 3], true],
    ['a list over 1 MiB', Array.from({ length: 30_000 }, (_, i) => ({ i, pad: 'x'.repeat(40) })), false],
  ])('%s: the file holds the JSON; inline only under 1 MiB', async (_, data, inline) => {
    const dir = await mkdtemp(join(tmpdir(), 'data-'));
    const out = new DataFile('op', dir).write(data);
    const text = await readFile(out.file, 'utf8');
    expect(text).toBe(JSON.stringify(data));
    expect(out.inline).toBe(inline ? text : undefined);
    await rm(dir, { recursive: true, force: true });
  });
});
