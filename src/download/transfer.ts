// One file from bk-ci (or the storage it redirects to) into its place on the runner: streamed to a
// temporary file beside its destination and hashed on the way (src/download/part-file.ts),
// resumed with Range after a cut or a silence when the server offered it, else started again,
// within `retries`; renamed into place once its size and SHA-256 are what the server and bk-ci
// said. Each request and what its answer says: src/download/answer.ts. docs/download.md.
import { createHash } from 'node:crypto';
import { type Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../base/clock.ts';
import { formatDuration } from '../base/duration.ts';
import { CancelledError, LocalError } from '../base/errors.ts';
import { CERTIFICATE_HINT, describeCause, errorCode, isCertificateCode } from '../http/network-failure.ts';
import { type RetryPolicy, retryDelay } from '../http/retry.ts';
import { admit, FileError, type FileFacts, open, PassingFailure, type Requests } from './answer.ts';
import type { Part, TempFiles } from './part-file.ts';
import { type Watchdog, watchdog } from './silence.ts';

/** The file as bk-ci lists it: its link, its path (for words), its size when listed. */
export interface Source {
  link: string;
  path: string;
  size: number | undefined;
}

export interface TransferSettings extends Requests {
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
  temps: TempFiles;
  /** Bytes kept (negative when a file starts again). */
  onBytes(bytes: number): void;
}

export interface TransferResult {
  size: number;
  sha256: string;
  /** `sha256`: the server's checksum matched; `size`: it sent none, the size did. */
  verified: 'sha256' | 'size';
  ms: number;
  resumes: number;
  restarts: number;
}

/** Brings one file into `part` and keeps it at `dest` once verified; on any failure nothing stays. */
export async function transfer(src: Source, part: Part, dest: string, settings: TransferSettings): Promise<TransferResult> {
  const started = settings.clock.now();
  try {
    const facts = await fill(src, part, settings);
    const sha256 = facts.hash.digest('hex');
    const verified = verify(src, part.size, facts, sha256);
    await part.keep(dest);
    return { size: part.size, sha256, verified, ms: settings.clock.now() - started, resumes: facts.resumes, restarts: facts.restarts };
  } catch (e) {
    await part.discard();
    throw e;
  }
}

/** Attempts until the file is whole, each passing failure costing one of `retries`, Retry-After honoured. */
async function fill(src: Source, part: Part, settings: TransferSettings): Promise<FileFacts> {
  const facts: FileFacts = {
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
      if (settings.clock.now() > settings.deadline) throw timedOut(src);
      await attempt(src, part, facts, settings);
      if (facts.total === undefined || part.size === facts.total) return facts;
      throw new PassingFailure(`the answer ended after ${part.size} of ${facts.total} bytes`, { kind: 'network', beforeSend: false });
    } catch (e) {
      if (!(e instanceof PassingFailure)) throw e;
      const delay = retryDelay(retry + 1, e.failure, settings.clock.now(), settings.random, settings.retry);
      if (retry < settings.retry.retries && settings.clock.now() + delay > settings.deadline) throw timedOut(src);
      if (retry >= settings.retry.retries || delay > settings.retry.maxRetryAfterMs)
        throw new FileError(
          e.failure.kind === 'timeout' ? 'timeout' : e.failure.kind === 'status' ? 'server' : 'network',
          `${e.message}${retry > 0 ? ` (after ${retry} ${retry === 1 ? 'retry' : 'retries'})` : ''}`,
          e.failure.kind === 'status' ? { status: e.failure.status } : {},
        );
      const next = facts.ranges && part.size > 0 ? `resuming at byte ${part.size}` : part.size > 0 ? 'starting it again' : 'trying again';
      settings.log.info(`${src.path}: ${e.message}; ${next}, retry ${retry + 1} of ${settings.retry.retries} in ${formatDuration(delay)}`);
      await settings.clock.sleep(delay, AbortSignal.any([settings.cancel, settings.deadlineSignal])).catch(() => {
        throw settings.cancel.aborted ? new CancelledError() : timedOut(src);
      });
    }
  }
}

const timedOut = (src: Source): FileError =>
  new FileError('timeout', `the step's timeout passed while ${src.path} was being downloaded; it was not kept`);

/** One request (and its redirects) and its body, from where the file stands. */
async function attempt(src: Source, part: Part, facts: FileFacts, settings: TransferSettings): Promise<void> {
  const from = facts.ranges ? part.size : 0;
  if (from === 0 && part.size > 0) await restart(part, facts, settings);
  const silence = new AbortController();
  const watch = watchdog(settings.clock, settings.silenceMs, () => silence.abort());
  const signal = AbortSignal.any([settings.cancel, settings.deadlineSignal, silence.signal]);
  try {
    const res = await open(src, from, signal, settings);
    watch.touch();
    if ((await admit(res, from, facts)) === 'rest') facts.resumes++;
    // The whole file, where a part of it is already written: it starts again.
    else if (part.size > 0) await restart(part, facts, settings);
    await pump(res.body, part, facts, watch, settings);
  } catch (e) {
    if (settings.cancel.aborted) throw new CancelledError();
    if (settings.deadlineSignal.aborted) throw timedOut(src);
    if (e instanceof PassingFailure || e instanceof FileError || e instanceof LocalError) throw e;
    if (silence.signal.aborted)
      throw new PassingFailure(`nothing came for ${formatDuration(settings.silenceMs)} (request-timeout)`, { kind: 'timeout' });
    const code = errorCode(e);
    if (isCertificateCode(code)) throw new FileError('network', `${describeCause(e)}. ${CERTIFICATE_HINT}`, { cause: e });
    throw new PassingFailure(`the connection failed (${code ?? describeCause(e)})`, { kind: 'network', beforeSend: false });
  } finally {
    watch.stop();
  }
}

/** The file starts again from its first byte. */
async function restart(part: Part, facts: FileFacts, settings: TransferSettings): Promise<void> {
  settings.onBytes(-part.size);
  await part.truncate();
  facts.hash = createHash('sha256');
  facts.restarts++;
}

/** The body into the file, hashed as it is written; the silence watch told of every chunk. */
async function pump(body: Readable, part: Part, facts: FileFacts, watch: Watchdog, settings: TransferSettings): Promise<void> {
  let writing: Promise<void> = Promise.resolve();
  let failed: unknown;
  const sink = new Writable({
    highWaterMark: 1 << 20,
    writev(entries, done) {
      watch.touch();
      const chunks = entries.map((e) => e.chunk as Buffer);
      const bytes = chunks.reduce((sum, ch) => sum + ch.byteLength, 0);
      if (facts.total !== undefined && part.size + bytes > facts.total) {
        done(new FileError('integrity', `the server sent more than the ${facts.total} bytes bk-ci lists`));
        return;
      }
      for (const ch of chunks) facts.hash.update(ch);
      writing = part.write(chunks).then(
        () => {
          settings.onBytes(bytes);
          done();
        },
        (error: unknown) => {
          failed = error;
          done(error as Error);
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
function verify(src: Source, size: number, facts: FileFacts, sha256: string): 'sha256' | 'size' {
  if (facts.total === undefined)
    throw new FileError('integrity', 'neither bk-ci nor the server said how large the file is, so it cannot be verified');
  if (src.size !== undefined && size !== src.size) throw new FileError('integrity', `${size} bytes came, bk-ci lists ${src.size}`);
  if (facts.checksum === undefined) return 'size';
  if (facts.checksum.value !== sha256)
    throw new FileError('integrity', `its SHA-256 is ${sha256}, but the server's ${facts.checksum.from} says ${facts.checksum.value}`);
  return 'sha256';
}
