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
    for (let at = 0, n = 0; at < block.length; at += 32, n++) createHash('sha256').update(seed).update(String(n)).digest().copy(block, at);
    this.#block = block;
  }

  /** The bytes from `start` up to (not including) `end`, a block's worth at a time, copied from nothing. */
  *chunks(start: number, end: number): Generator<Buffer> {
    for (let at = start; at < end; ) {
      const offset = at % this.#block.length;
      const n = Math.min(this.#block.length - offset, end - at);
      yield this.#block.subarray(offset, offset + n);
      at += n;
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
    const h = createHash(algorithm);
    for (const c of this.chunks(0, this.size)) h.update(c);
    return h.digest('hex');
  }
}

/**
 * A Range header as bk-repo reads it (HttpRangeUtils.resolveRange): one range, `bytes=a-b`,
 * `a-` or `-n`; the bytes it asks for ([start, end)), or `unsatisfiable` (HTTP 416), or undefined
 * when none was sent.
 */
export function readRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (m === null || (m[1] === '' && m[2] === '')) return 'unsatisfiable';
  if (m[1] === '') {
    const n = Number(m[2]);
    return n === 0 ? 'unsatisfiable' : { start: Math.max(0, size - n), end: size };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size : Math.min(size, Number(m[2]) + 1);
  return start >= size || end <= start ? 'unsatisfiable' : { start, end };
}
