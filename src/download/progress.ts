// What a long download says while it runs: for more than 8 MiB in all, a line at most every 10 s
// by the step's clock, with the bytes, the percentage and the speed since the last line.
import type { Clock } from '../base/clock.ts';
import type { Log } from '../base/log.ts';
import { formatSize } from '../base/size.ts';

/** Downloads smaller than this say nothing while they run. */
const PROGRESS_FROM_BYTES = 8 * 1024 * 1024;
/** The least time between two lines. */
const PROGRESS_EVERY_MS = 10_000;

export class Progress {
  readonly #total: number;
  readonly #files: number;
  readonly #clock: Clock;
  readonly #say: (line: string) => void;
  #done = 0;
  #filesDone = 0;
  #lastAt: number;
  #lastDone = 0;

  /** `total` bytes in `files` files, as bk-ci lists them. */
  constructor(total: number, files: number, clock: Clock, log: Pick<Log, 'info'>) {
    this.#total = total;
    this.#files = files;
    this.#clock = clock;
    this.#say = (line) => log.info(line);
    this.#lastAt = clock.now();
  }

  /** Bytes kept (negative when a file starts again); a line when it is time for one. */
  add(bytes: number): void {
    this.#done += bytes;
    if (this.#total <= PROGRESS_FROM_BYTES) return;
    const now = this.#clock.now();
    if (now - this.#lastAt < PROGRESS_EVERY_MS) return;
    const speed = (Math.max(0, this.#done - this.#lastDone) * 1000) / (now - this.#lastAt);
    const percent = Math.min(100, Math.floor((this.#done * 100) / this.#total));
    this.#say(
      `downloading: ${formatSize(this.#done)} of ${formatSize(this.#total)} (${percent} %), ${formatSize(Math.round(speed))}/s; ${this.#filesDone} of ${this.#files} files done`,
    );
    this.#lastAt = now;
    this.#lastDone = this.#done;
  }

  fileDone(): void {
    this.#filesDone++;
  }
}
