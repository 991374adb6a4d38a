// A file being downloaded: written to a temporary file beside its destination, hashed as it is
// written, and renamed into place only once it is whole and verified. A file at its final path is
// therefore always whole; no temporary file outlives a failure, a cancel or the process (a full
// disk, the exit backstop after a cancel). The folders on the way are made here, and a symbolic
// link on the way is never followed. docs/download.md.
import { randomBytes } from 'node:crypto';
import { constants, unlinkSync } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, rename, rmdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage, LocalError } from '../base/errors.ts';

/** Every temporary file not yet kept or removed: removed at the process's exit, whatever ended it. */
export class TempFiles {
  readonly #live = new Set<string>();
  readonly #atExit = (): void => {
    for (const path of this.#live) {
      try {
        unlinkSync(path);
      } catch {
        // gone already
      }
    }
  };

  add(path: string): void {
    if (this.#live.size === 0) process.on('exit', this.#atExit);
    this.#live.add(path);
  }

  remove(path: string): void {
    this.#live.delete(path);
    if (this.#live.size === 0) process.off('exit', this.#atExit);
  }

  get size(): number {
    return this.#live.size;
  }
}

const code = (e: unknown): string | undefined => (e as { code?: unknown }).code as string | undefined;

/** Words for a failure of the runner's file system. */
function cannotWrite(what: string, error: unknown): LocalError {
  const why = code(error) === 'ENOSPC' ? "the runner's disk is full" : errorMessage(error);
  return new LocalError(`could not write ${what}: ${why}`, { cause: error });
}

/** Removes the folders a download made that stayed empty (its files failed), the deepest first. */
export async function removeEmpty(made: ReadonlySet<string>): Promise<void> {
  for (const dir of [...made].sort((a, b) => b.length - a.length)) await rmdir(dir).catch(() => undefined);
}

/**
 * The folder `local`'s file goes in, below `root`, made where missing (and added to `made`). Each folder on the way is
 * looked at, not followed: a symbolic link there (or a file) stops the file from being written.
 */
export async function folderFor(root: string, local: string, made: Set<string>): Promise<string> {
  let dir = root;
  for (const name of local.split('/').slice(0, -1)) {
    dir = join(dir, name);
    try {
      await mkdir(dir);
      made.add(dir);
      continue;
    } catch (e) {
      if (code(e) !== 'EEXIST') throw folderFailed(dir, e);
    }
    const st = await lstat(dir).catch((e: unknown) => {
      throw folderFailed(dir, e);
    });
    if (st.isSymbolicLink())
      throw new LocalError(`${dir} is a symbolic link, which is not followed: remove it or choose another download-path`);
    if (!st.isDirectory()) throw new LocalError(`${dir} is a file where the download needs a folder`);
  }
  return dir;
}
const folderFailed = (dir: string, e: unknown): LocalError => cannotWrite(`the folder ${dir}`, e);

/** A file being filled, as a transfer uses it. */
export interface Part {
  readonly path: string;
  /** Bytes written and kept, from the start of the file. */
  readonly size: number;
  write(chunks: readonly Uint8Array[]): Promise<void>;
  truncate(): Promise<void>;
  keep(dest: string): Promise<void>;
  discard(): Promise<void>;
}

/** A temporary file being filled: positional writes, the bytes counted once written. */
export class PartFile implements Part {
  readonly path: string;
  readonly #fd: FileHandle;
  readonly #temps: TempFiles;
  /** Bytes written and kept, from the start of the file. */
  size = 0;
  #closed = false;

  private constructor(path: string, fd: FileHandle, temps: TempFiles) {
    this.path = path;
    this.#fd = fd;
    this.#temps = temps;
  }

  /**
   * A new temporary file in `dir`, created exclusively: never one that exists, never through a
   * link. `opener` is the file system's (a test gives one whose disk is full).
   */
  static async open(dir: string, temps: TempFiles, opener: typeof open = open): Promise<PartFile> {
    const path = join(dir, `.bkci-${randomBytes(6).toString('hex')}.part`);
    temps.add(path);
    try {
      const fd = await opener(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o644);
      return new PartFile(path, fd, temps);
    } catch (e) {
      temps.remove(path);
      throw cannotWrite(`a temporary file in ${dir}`, e);
    }
  }

  /** Writes the chunks after what is written; the bytes count once they are on disk. */
  async write(chunks: readonly Uint8Array[]): Promise<void> {
    let at = this.size;
    try {
      let left = chunks.slice();
      while (left.length > 0) {
        const { bytesWritten } = await this.#fd.writev(left as Uint8Array[], at);
        at += bytesWritten;
        left = rest(left, bytesWritten);
      }
    } catch (e) {
      throw cannotWrite(this.path, e);
    }
    this.size = at;
  }

  /** Empties the file: the download starts again. */
  async truncate(): Promise<void> {
    await this.#fd.truncate(0).catch((e: unknown) => {
      throw cannotWrite(this.path, e);
    });
    this.size = 0;
  }

  /** Closes it and moves it to `dest`, replacing what is there (a symbolic link itself, never what it points to). */
  async keep(dest: string): Promise<void> {
    await this.#close();
    try {
      await rename(this.path, dest);
    } catch (e) {
      const why = code(e) === 'EISDIR' || code(e) === 'ENOTEMPTY' ? 'a folder is there' : errorMessage(e);
      throw new LocalError(`could not put the file at ${dest}: ${why}`, { cause: e });
    }
    this.#temps.remove(this.path);
  }

  /** Closes and removes it: nothing of a failed download stays. */
  async discard(): Promise<void> {
    await this.#close().catch(() => undefined);
    await unlink(this.path).catch(() => undefined);
    this.#temps.remove(this.path);
  }

  async #close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#fd.close();
  }
}

/** The chunks after their first `bytes` bytes. */
function rest(chunks: readonly Uint8Array[], bytes: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let skip = bytes;
  for (const chunk of chunks) {
    if (skip >= chunk.byteLength) {
      skip -= chunk.byteLength;
      continue;
    }
    out.push(skip > 0 ? chunk.subarray(skip) : chunk);
    skip = 0;
  }
  return out;
}
