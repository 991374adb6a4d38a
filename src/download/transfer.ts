// One file from bk-ci (or the storage it redirects to) into its place on the runner: streamed to a
// temporary file beside its destination and hashed on the way (src/download/part-file.ts),
// resumed with Range after a cut or a silence when the server offered it, else started again,
// within `retries`; renamed into place once its size and SHA-256 are what the server and bk-ci
// said. Every request's credential is decided by src/download/credential.ts. docs/download.md.
import { createHash, type Hash } from 'node:crypto';
import { type Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../base/clock.ts';
import { formatDuration } from '../base/duration.ts';
import { ActionError, CancelledError, LocalError } from '../base/errors.ts';
import type { Log } from '../base/log.ts';
import { collapse } from '../base/text.ts';
import { CERTIFICATE_HINT, describeCause, errorCode, isCertificateCode } from '../http/caller.ts';
import { type Failure, type RetryPolicy, retryDelay } from '../http/retry.ts';
import type { StreamGet, StreamResponse } from '../http/stream-get.ts';
import { firstHop, hopHeaders, redirectHop } from './credential.ts';
import type { Part, TempFiles } from './part-file.ts';

/** The file as bk-ci lists it: its link, its path (for words), its size when listed. */
export interface Source {
  link: string;
  path: string;
  size: number | undefined;
}

export interface TransferSettings {
  get: StreamGet;
  /** Origins that may receive the bk_token cookie; the ticket, when given. */
  origins: readonly string[];
  token: string | undefined;
  userAgent: string;
  clock: Clock;
  random: () => number;
  /** The job's cancel. */
  cancel: AbortSignal;
  /** The step's deadline (by `clock`), and a signal that aborts when it passes. */
  deadline: number;
  deadlineSignal: AbortSignal;
  /** The longest silence allowed (request-timeout): not a bound on the whole transfer. */
  silenceMs: number;
  retry: RetryPolicy;
  log: Log;
  temps: TempFiles;
  /** Bytes kept (negative when a file starts again). */
  onBytes(n: number): void;
}

export interface Transferred {
  size: number;
  sha256: string;
  /** `sha256`: the server's checksum matched; `size`: it sent none, the size did. */
  verified: 'sha256' | 'size';
  ms: number;
  resumes: number;
  restarts: number;
}

/** What the file's requests learnt: its size, checksum and identity, and whether it takes ranges. */
interface Fill {
  total: number | undefined;
  etag: string | undefined;
  checksum: { value: string; from: string } | undefined;
  ranges: boolean;
  resumes: number;
  restarts: number;
  hash: Hash;
}

/** Why a file was not downloaded. `login`: bk-ci refused who asked (401, 403), which every other file would meet too. */
export class FileError extends ActionError {
  override name = 'FileError';
  readonly kind: 'login' | 'integrity' | 'refused' | 'server' | 'network' | 'timeout';
  /** The request that was refused: its origin, and whether it carried the cookie. */
  readonly hop: { origin: string; cookie: boolean } | undefined;
  constructor(kind: FileError['kind'], message: string, o: { status?: number; hop?: FileError['hop']; cause?: unknown } = {}) {
    super(message, { status: o.status, cause: o.cause });
    this.kind = kind;
    this.hop = o.hop;
  }
}

/** A passing failure of one attempt: another may mend it (a cut, a silence, a 5xx). */
class Passing extends Error {
  readonly failure: Failure;
  constructor(why: string, failure: Failure) {
    super(why);
    this.failure = failure;
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Brings one file into `part` and keeps it at `dest` once verified; on any failure nothing stays. */
export async function transfer(src: Source, part: Part, dest: string, c: TransferSettings): Promise<Transferred> {
  const started = c.clock.now();
  try {
    const f = await fill(src, part, c);
    const sha256 = f.hash.digest('hex');
    const verified = verify(src, part.size, f, sha256);
    await part.keep(dest);
    return { size: part.size, sha256, verified, ms: c.clock.now() - started, resumes: f.resumes, restarts: f.restarts };
  } catch (e) {
    await part.discard();
    throw e;
  }
}

/** Attempts until the file is whole, each passing failure costing one of `retries`, Retry-After honoured. */
async function fill(src: Source, part: Part, c: TransferSettings): Promise<Fill> {
  const f: Fill = {
    total: src.size,
    etag: undefined,
    checksum: undefined,
    ranges: false,
    resumes: 0,
    restarts: 0,
    hash: createHash('sha256'),
  };
  for (let retry = 0; ; retry++) {
    try {
      if (c.clock.now() > c.deadline) throw timedOut(src);
      await attempt(src, part, f, c);
      if (f.total === undefined || part.size === f.total) return f;
      throw new Passing(`the answer ended after ${part.size} of ${f.total} bytes`, { kind: 'network', beforeSend: false });
    } catch (e) {
      if (!(e instanceof Passing)) throw e;
      const delay = retryDelay(retry + 1, e.failure, c.clock.now(), c.random, c.retry);
      if (retry < c.retry.retries && c.clock.now() + delay > c.deadline) throw timedOut(src);
      if (retry >= c.retry.retries || delay > c.retry.maxRetryAfterMs)
        throw new FileError(
          e.failure.kind === 'timeout' ? 'timeout' : e.failure.kind === 'status' ? 'server' : 'network',
          `${e.message}${retry > 0 ? ` (after ${retry} ${retry === 1 ? 'retry' : 'retries'})` : ''}`,
          e.failure.kind === 'status' ? { status: e.failure.status } : {},
        );
      const next = f.ranges && part.size > 0 ? `resuming at byte ${part.size}` : part.size > 0 ? 'starting it again' : 'trying again';
      c.log.info(`${src.path}: ${e.message}; ${next}, retry ${retry + 1} of ${c.retry.retries} in ${formatDuration(delay)}`);
      await c.clock.sleep(delay, AbortSignal.any([c.cancel, c.deadlineSignal])).catch(() => {
        throw c.cancel.aborted ? new CancelledError() : timedOut(src);
      });
    }
  }
}

const timedOut = (src: Source): FileError =>
  new FileError('timeout', `the step's timeout passed while ${src.path} was being downloaded; it was not kept`);

/** One request (and its redirects) and its body, from where the file stands. */
async function attempt(src: Source, part: Part, f: Fill, c: TransferSettings): Promise<void> {
  const from = f.ranges ? part.size : 0;
  if (from === 0 && part.size > 0) await restart(part, f, c);
  const silence = new AbortController();
  const watch = watchdog(c.clock, c.silenceMs, () => silence.abort());
  const signal = AbortSignal.any([c.cancel, c.deadlineSignal, silence.signal]);
  try {
    const res = await open(src, from, signal, c);
    watch.touch();
    await admit(res, from, part, f, c);
    await pump(res.body, part, f, watch, c);
  } catch (e) {
    if (c.cancel.aborted) throw new CancelledError();
    if (c.deadlineSignal.aborted) throw timedOut(src);
    if (e instanceof Passing || e instanceof FileError || e instanceof LocalError) throw e;
    if (silence.signal.aborted) throw new Passing(`nothing came for ${formatDuration(c.silenceMs)} (request-timeout)`, { kind: 'timeout' });
    const code = errorCode(e);
    if (isCertificateCode(code)) throw new FileError('network', `${describeCause(e)}. ${CERTIFICATE_HINT}`, { cause: e });
    throw new Passing(`the connection failed (${code ?? describeCause(e)})`, { kind: 'network', beforeSend: false });
  } finally {
    watch.stop();
  }
}

/** The file starts again from its first byte. */
async function restart(part: Part, f: Fill, c: TransferSettings): Promise<void> {
  c.onBytes(-part.size);
  await part.truncate();
  f.hash = createHash('sha256');
  f.restarts++;
}

/** The first request to bk-ci's link and the redirects after it, each hop's credential decided on its own. */
async function open(src: Source, from: number, signal: AbortSignal, c: TransferSettings): Promise<StreamResponse & { hop: Hopped }> {
  let hop = firstHop(src.link, c.origins);
  for (let redirects = 0; ; ) {
    if (!hop.go) throw new FileError('refused', `${src.path}: not fetched: ${hop.why}`);
    const hopped = { origin: new URL(hop.url).origin, cookie: hop.cookie && c.token !== undefined };
    c.log.debug(
      `GET ${shown(hop.url)} ${hopped.cookie ? 'with the bk_token cookie' : 'without credentials'}${from > 0 ? ` from byte ${from}` : ''}`,
    );
    const res = await c.get({ url: hop.url, headers: hopHeaders(hop, c.token, from, c.userAgent), signal });
    if (!REDIRECTS.has(res.status)) return { ...res, hop: hopped };
    res.body.destroy();
    hop = redirectHop(hop.url, res.headers.location, ++redirects, c.origins);
  }
}

type Hopped = NonNullable<FileError['hop']>;

/** A URL as messages show it: no query (a storage link's query is its signature), no user name. */
export const shown = (url: string): string => {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
};

/** Whether the answer continues the file; what it says of the file is learnt. Anything else is thrown: passing or not. */
async function admit(res: StreamResponse & { hop: Hopped }, from: number, part: Part, f: Fill, c: TransferSettings): Promise<void> {
  const { status, headers } = res;
  if (status === 200) {
    if (part.size > 0) await restart(part, f, c);
    learn(headers, f);
    return;
  }
  if (status === 206 && from > 0) {
    const range = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(headers['content-range'] ?? '');
    const total = range?.[2] === undefined || range[2] === '*' ? undefined : Number(range[2]);
    const same = Number(range?.[1]) === from && headers.etag === f.etag && (total === undefined || total === f.total);
    if (same) {
      f.resumes++;
      return;
    }
    res.body.destroy();
    f.ranges = false;
    throw new Passing(
      `the answer to resume at byte ${from} did not continue the file (Content-Range ${headers['content-range'] ?? 'none'}, ETag ${headers.etag === f.etag ? 'unchanged' : 'changed'})`,
      { kind: 'network', beforeSend: false },
    );
  }
  if (status === 416) {
    res.body.destroy();
    f.ranges = false;
    throw new Passing('the server refused the range (HTTP 416)', { kind: 'network', beforeSend: false });
  }
  const said = await excerpt(res.body);
  const words = `HTTP ${status}${said === '' ? '' : ` (${said})`}`;
  if (status === 401 || status === 403) throw new FileError('login', words, { status, hop: res.hop });
  if (status === 429 || status >= 500) throw new Passing(words, { kind: 'status', status, retryAfter: headers['retry-after'] });
  throw new FileError('server', `${res.hop.origin} answered ${words}`, { status });
}

/** A whole answer's headers: its size, checksum, identity, and whether it takes ranges. */
function learn(headers: Record<string, string>, f: Fill): void {
  const coding = headers['content-encoding'];
  if (coding !== undefined && !/^\s*(identity)?\s*$/i.test(coding))
    throw new FileError('integrity', `the server sent the file in the content coding "${coding}", which it was not asked for`);
  const length = /^\d+$/.test(headers['content-length'] ?? '') ? Number(headers['content-length']) : undefined;
  if (length !== undefined && f.total !== undefined && length !== f.total)
    throw new FileError('integrity', `bk-ci lists ${f.total} bytes, but the server's Content-Length is ${length}`);
  f.total ??= length;
  f.etag = headers.etag;
  f.checksum = checksumOf(headers);
  f.ranges = /(^|,)\s*bytes\s*(,|$)/i.test(headers['accept-ranges'] ?? '');
}

/** bk-repo's X-Checksum-Sha256, else an ETag of 64 hex digits (bk-repo's ETag is the file's SHA-256). */
export function checksumOf(headers: Record<string, string>): { value: string; from: string } | undefined {
  const sha = headers['x-checksum-sha256']?.trim();
  if (sha !== undefined && /^[0-9a-f]{64}$/i.test(sha)) return { value: sha.toLowerCase(), from: 'X-Checksum-Sha256' };
  const etag = headers.etag
    ?.trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');
  if (etag !== undefined && /^[0-9a-f]{64}$/i.test(etag)) return { value: etag.toLowerCase(), from: 'ETag' };
  return undefined;
}

/** The start of an error answer's body, as readable text. */
async function excerpt(body: Readable): Promise<string> {
  let text = '';
  try {
    for await (const chunk of body) {
      text += String(chunk);
      if (text.length > 4000) break;
    }
  } catch {
    // what came is enough
  } finally {
    body.destroy();
  }
  return said(text).slice(0, 300);
}

/** What an error body says: bk-ci's or bk-repo's JSON `message`, else its text without markup. */
function said(text: string): string {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') return body.message;
  } catch {
    // not JSON
  }
  return collapse(text);
}

/** The body into the file, hashed as it is written; the silence watch told of every chunk. */
async function pump(body: Readable, part: Part, f: Fill, watch: Watchdog, c: TransferSettings): Promise<void> {
  let writing: Promise<void> = Promise.resolve();
  let failed: unknown;
  const sink = new Writable({
    highWaterMark: 1 << 20,
    writev(entries, done) {
      watch.touch();
      const chunks = entries.map((e) => e.chunk as Buffer);
      const n = chunks.reduce((sum, ch) => sum + ch.byteLength, 0);
      if (f.total !== undefined && part.size + n > f.total) {
        done(new FileError('integrity', `the server sent more than the ${f.total} bytes bk-ci lists`));
        return;
      }
      for (const ch of chunks) f.hash.update(ch);
      writing = part.write(chunks).then(
        () => {
          c.onBytes(n);
          done();
        },
        (e: unknown) => {
          failed = e;
          done(e as Error);
        },
      );
    },
  });
  const piped = await pipeline(body, sink).then(
    () => undefined,
    (e: unknown) => ({ e }),
  );
  // What was on its way to the disk lands (or fails) before anything goes on from this size.
  await writing.catch(() => undefined);
  if (failed !== undefined) throw failed;
  if (piped !== undefined) throw piped.e;
}

/** Size and checksum, as the server and bk-ci said them; undefined sizes are an error, not a guess. */
function verify(src: Source, size: number, f: Fill, sha256: string): 'sha256' | 'size' {
  if (f.total === undefined)
    throw new FileError('integrity', 'neither bk-ci nor the server said how large the file is, so it cannot be verified');
  if (src.size !== undefined && size !== src.size) throw new FileError('integrity', `${size} bytes came, bk-ci lists ${src.size}`);
  if (f.checksum === undefined) return 'size';
  if (f.checksum.value !== sha256)
    throw new FileError('integrity', `its SHA-256 is ${sha256}, but the server's ${f.checksum.from} says ${f.checksum.value}`);
  return 'sha256';
}

interface Watchdog {
  touch(): void;
  stop(): void;
}

/**
 * Calls `silent` once nothing has happened for `ms` by the clock: request-timeout as the longest
 * silence, not a bound on the whole transfer. One timer at a time, re-armed for what is left.
 */
function watchdog(clock: Clock, ms: number, silent: () => void): Watchdog {
  let last = clock.now();
  let stopped = false;
  const arm = (wait: number): void => {
    clock.timeout(Math.max(1, wait)).addEventListener(
      'abort',
      () => {
        if (stopped) return;
        const idle = clock.now() - last;
        if (idle >= ms) silent();
        else arm(ms - idle);
      },
      { once: true },
    );
  };
  arm(ms);
  return {
    touch: () => {
      last = clock.now();
    },
    stop: () => {
      stopped = true;
    },
  };
}
