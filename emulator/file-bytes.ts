// A build file's bytes, made up but fixed: a text the seed gives, or a 1 MiB block of pseudo-random
// bytes (from the file's path) repeated to its size, so that a 1 GiB file costs no memory. Its
// SHA-256 is worked out once, when first asked for. And bk-repo's reading of a Range header.
import { createHash } from 'node:crypto';

const BLOCK = 1 << 20;

export class FileBytes {
  readonly size: number;
  readonly #block: Buffer;
  #sha256: string | undefined;
  #md5: string | undefined;

  constructor(key: string, size: number, text?: string) {
    if (text !== undefined) {
      this.#block = Buffer.from(text);
      this.size = this.#block.length;
      return;
    }
    this.size = size;
    const block = Buffer.allocUnsafe(Math.min(BLOCK, Math.max(size, 1)));
    const seed = createHash('sha256').update(key).digest();
    for (let at = 0, round = 0; at < block.length; at += 32, round++)
      createHash('sha256').update(seed).update(String(round)).digest().copy(block, at);
    this.#block = block;
  }

  /** The bytes from `start` up to (not including) `end`, a block's worth at a time, copied from nothing. */
  *chunks(start: number, end: number): Generator<Buffer> {
    for (let at = start; at < end; ) {
      const offset = at % this.#block.length;
      const length = Math.min(this.#block.length - offset, end - at);
      yield this.#block.subarray(offset, offset + length);
      at += length;
    }
  }

  sha256(): string {
    this.#sha256 ??= this.#digest('sha256');
    return this.#sha256;
  }

  md5(): string {
    this.#md5 ??= this.#digest('md5');
    return this.#md5;
  }

  #digest(algorithm: string): string {
    const hash = createHash(algorithm);
    for (const chunk of this.chunks(0, this.size)) hash.update(chunk);
    return hash.digest('hex');
  }
}

/**
 * A Range header as bk-repo reads it (HttpRangeUtils.resolveRange): one range, `bytes=a-b`,
 * `a-` or `-n`; the bytes it asks for ([start, end)), or `unsatisfiable` (HTTP 416), or undefined
 * when none was sent.
 */
export function readRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (match === null || (match[1] === '' && match[2] === '')) return 'unsatisfiable';
  if (match[1] === '') {
    const count = Number(match[2]);
    return count === 0 ? 'unsatisfiable' : { start: Math.max(0, size - count), end: size };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size : Math.min(size, Number(match[2]) + 1);
  return start >= size || end <= start ? 'unsatisfiable' : { start, end };
}
