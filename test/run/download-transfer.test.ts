// One file's transfer against servers that bend the rules (src/download/transfer.ts): one that
// offers ranges and then answers a Range with the whole file (taken from its first byte, not
// appended), one that answers 206 to a request for the whole file, and the step's timeout, which
// bounds a file that keeps going silent whatever `retries` allows. Loopback only.
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PartFile, TempFiles } from '../../src/download/part-file.ts';
import { type TransferSettings, transfer } from '../../src/download/transfer.ts';
import { DEFAULT_RETRY_POLICY } from '../../src/http/retry.ts';
import { nodeStreamClient } from '../../src/http/stream-get.ts';
import { memoryLog } from '../support/client.ts';
import { downloadDir, listed } from '../support/download-world.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { rawServer } from '../support/raw-server.ts';

const BODY = Buffer.from('0123456789'.repeat(1000));
const SHA = createHash('sha256').update(BODY).digest('hex');
const client = nodeStreamClient(4);
afterAll(() => client.close());

/** An answer's head and `body`, claiming `length` bytes (more than it sends: a cut). */
const answer = (status: string, headers: Record<string, string>, body: Buffer, length = body.length): Buffer =>
  Buffer.concat([
    Buffer.from(
      `HTTP/1.1 ${status}\r\n${Object.entries({ ...headers, 'content-length': String(length), connection: 'close' })
        .map(([k, v]) => `${k}: ${v}`)
        .join('\r\n')}\r\n\r\n`,
      'latin1',
    ),
    body,
  ]);

async function settings(clock = new FakeClock()): Promise<TransferSettings & { log: ReturnType<typeof memoryLog> }> {
  return {
    get: client.get,
    origins: [],
    token: undefined,
    userAgent: 'test',
    clock,
    random: () => 0,
    cancel: new AbortController().signal,
    deadline: clock.now() + 600_000,
    deadlineSignal: new AbortController().signal,
    silenceMs: 30_000,
    retry: DEFAULT_RETRY_POLICY,
    log: memoryLog(),
    temps: new TempFiles(),
    onBytes: () => undefined,
  };
}

async function folder(): Promise<string> {
  const { dir } = await downloadDir();
  await mkdir(dir);
  return dir;
}

describe('a transfer', () => {
  it('offered ranges, then answered a Range with the whole file: it takes the whole from its first byte', async () => {
    const server = await rawServer((req) =>
      /\r\nrange: bytes=\d+-/i.test(req.head)
        ? answer('200 OK', { etag: SHA }, BODY)
        : answer('200 OK', { etag: SHA, 'accept-ranges': 'bytes', 'x-checksum-sha256': SHA }, BODY.subarray(0, 4000), BODY.length),
    );
    try {
      const dir = await folder();
      const s = await settings();
      const part = await PartFile.open(dir, s.temps);
      const t = await transfer({ link: `${server.url}/f`, path: 'f', size: BODY.length }, part, join(dir, 'f'), s);
      expect(server.requests.map((r) => /range: (\S+)/i.exec(r.head)?.[1])).toEqual([undefined, expect.stringMatching(/^bytes=\d+-$/)]);
      expect(t).toMatchObject({ size: BODY.length, sha256: SHA, verified: 'sha256', resumes: 0, restarts: 1 });
      expect(await readFile(join(dir, 'f'))).toEqual(BODY);
      expect(await listed(dir)).toEqual(['f']);
    } finally {
      await server.close();
    }
  });

  it('answered 206 to a request for the whole file: refused, nothing kept', async () => {
    const server = await rawServer(() =>
      answer('206 Partial Content', { 'content-range': `bytes 0-9/${BODY.length}` }, BODY.subarray(0, 10)),
    );
    try {
      const dir = await folder();
      const s = await settings();
      const part = await PartFile.open(dir, s.temps);
      const failed = await transfer({ link: `${server.url}/f`, path: 'f', size: BODY.length }, part, join(dir, 'f'), s).catch(
        (e: unknown) => e,
      );
      expect(String(failed)).toContain('answered HTTP 206');
      expect(await listed(dir)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('silent again and again: the step’s timeout ends it, whatever retries are left', async () => {
    const server = await rawServer(() => answer('503 Service Unavailable', { 'retry-after': '20' }, Buffer.from('busy')));
    try {
      const dir = await folder();
      const clock = new FakeClock();
      const s = { ...(await settings(clock)), deadline: clock.now() + 45_000, retry: { ...DEFAULT_RETRY_POLICY, retries: 10 } };
      const part = await PartFile.open(dir, s.temps);
      const failed = await transfer({ link: `${server.url}/f`, path: 'f', size: BODY.length }, part, join(dir, 'f'), s).catch(
        (e: unknown) => e,
      );
      expect(String(failed)).toContain("the step's timeout passed while f was being downloaded; it was not kept");
      expect(server.requests).toHaveLength(3);
      expect(clock.sleeps).toEqual([20_000, 20_000]);
      expect(await listed(dir)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
