import { randomUUID } from 'node:crypto';
import { closeSync, ftruncateSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { local } from '../base/errors.ts';
import type { JsonItemSink } from '../base/json-stream.ts';

const DATA_OUTPUT_LIMIT = 1024 * 1024;
const BATCH = 500;

/**
 * An operation's `data` as JSON in a file under RUNNER_TEMP, and inline too when it fits in
 * 1 MiB. A list is written a batch of items at a time, so a large one never becomes a single
 * string; given item by item (as a list answer arrives), it is never whole in memory at all.
 * `scrub` takes out secrets; each piece holds whole items, so a secret is never split between
 * two. Writes are synchronous: items come from inside a socket's data handler, and a local file
 * is quick.
 */
export class DataFile implements JsonItemSink {
  readonly path: string;
  readonly #scrub: (text: string) => string;
  #fd: number | undefined;
  #bytes = 0;
  #inline: string[] | undefined = [];
  #batch: string[] = [];
  #items = 0;
  #opened = false;

  constructor(operation: string, runnerTemp: string | undefined, scrub: (text: string) => string = (text) => text) {
    this.path = join(runnerTemp || tmpdir(), `bkci-${operation}-${randomUUID()}.json`);
    this.#scrub = scrub;
  }

  restart(): void {
    const fd = this.#fd;
    if (fd !== undefined) local(this.#what, () => ftruncateSync(fd, 0));
    this.#bytes = 0;
    this.#inline = [];
    this.#batch = [];
    this.#items = 0;
    this.#opened = false;
  }

  add(text: string): void {
    this.#batch.push(text);
    if (this.#batch.length === BATCH) this.#flush();
  }

  /** The list of every item added, closed: the file and, when it fits, the text. */
  endList(): { file: string; inline: string | undefined } {
    this.#flush();
    if (!this.#opened) this.#write('[');
    this.#write(']');
    return this.#close();
  }

  /** `data` written whole (a list a batch of items at a time), closed. */
  write(data: unknown): { file: string; inline: string | undefined } {
    if (!Array.isArray(data)) {
      this.#write(JSON.stringify(data ?? null));
      return this.#close();
    }
    for (const item of data) this.add(JSON.stringify(item) ?? 'null');
    return this.endList();
  }

  /** Removed when it was begun but never finished: a list answer that failed half-way. */
  abandon(): void {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
    rmSync(this.path, { force: true });
  }

  #flush(): void {
    if (this.#batch.length === 0) return;
    const part = this.#batch.join(',');
    if (!this.#opened) this.#write('[');
    this.#opened = true;
    this.#write(this.#items === 0 ? part : `,${part}`);
    this.#items += this.#batch.length;
    this.#batch = [];
  }

  get #what(): string {
    return `the data file ${this.path}`;
  }

  #open(): number {
    this.#fd ??= local(this.#what, () => openSync(this.path, 'w', 0o600));
    return this.#fd;
  }

  #write(raw: string): void {
    const text = this.#scrub(raw);
    const fd = this.#open();
    const at = this.#bytes;
    this.#bytes += Buffer.byteLength(text);
    if (this.#bytes > DATA_OUTPUT_LIMIT) this.#inline = undefined;
    else this.#inline?.push(text);
    // At its place: after a restart the file is empty, but its offset is where it was.
    local(this.#what, () => writeSync(fd, text, at));
  }

  #close(): { file: string; inline: string | undefined } {
    const fd = this.#open();
    this.#fd = undefined;
    local(this.#what, () => closeSync(fd));
    return { file: this.path, inline: this.#inline?.join('') };
  }
}
