// The build's log lines on their way out: to the step's log, a foldable group per run of one
// step's lines, each labelled with its job and step, through the one writer (which defuses runner
// commands and scrubs secrets); a bounded number per step there, every one to the log file and
// to the compiler messages' collector; and the last few of each step kept for the summary of a failure.
import { randomUUID } from 'node:crypto';
import { appendFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Log } from '../base/log.ts';
import { defuse } from '../base/text.ts';
import type { DiagnosticsCollector } from './diagnostics.ts';
import type { TailLine } from './log-tail.ts';

/** At most this many lines of one step in the step's log; the rest only in the file. */
export const LINES_PER_STEP = 1000;
/** The last lines of each step kept for a failure's summary. */
const TAIL_LINES = 20;

/** A line as one line of text: its breaks shown, not taken. */
const oneLine = (text: string): string => text.replace(/\r\n|\r|\n|\u2028|\u2029|\u0085/g, ' ⏎ ');

/**
 * Every line read, in line-number order, one per line, secrets scrubbed and runner commands
 * defused (a later step may print it), in a file under RUNNER_TEMP. Written as lines come, a
 * batch at a time: a long log is never whole in memory. A file that cannot be made or grow
 * (a full disk, EFBIG, EACCES) is one warning, and writing stops: it never fails the step that
 * watches a build (a step that fails after a start is re-run, and the pipeline runs twice).
 */
export class LogFile {
  readonly path: string;
  readonly #scrub: (text: string) => string;
  readonly #warn: (message: string) => void;
  #batch: string[] = [];
  #lines = 0;
  /** Why the file stopped growing, once it did. */
  #failed: string | undefined;

  constructor(runnerTemp: string | undefined, scrub: (text: string) => string, warn: (message: string) => void = () => undefined) {
    this.path = join(runnerTemp || tmpdir(), `bkci-build-log-${randomUUID()}.txt`);
    this.#scrub = scrub;
    this.#warn = warn;
    this.#write(() => writeFileSync(this.path, '', { mode: 0o600 }));
  }

  get lines(): number {
    return this.#lines;
  }

  /** Why the file is not whole, when it is not. */
  get failed(): string | undefined {
    return this.#failed;
  }

  add(label: string, message: string): void {
    if (this.#failed !== undefined) return;
    this.#batch.push(defuse(oneLine(this.#scrub(`[${label}] ${message}`))));
    this.#lines++;
    if (this.#batch.length >= 500) this.flush();
  }

  flush(): void {
    if (this.#batch.length === 0 || this.#failed !== undefined) return;
    this.#write(() => appendFileSync(this.path, `${this.#batch.join('\n')}\n`));
    this.#batch = [];
  }

  #write(act: () => void): void {
    try {
      act();
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      this.#failed = `the log file ${this.path} could not be written${typeof code === 'string' ? ` (${code})` : ''}: ${e instanceof Error ? e.message : String(e)}; it holds only the lines before that`;
      this.#batch = [];
      this.#warn(this.#failed);
    }
  }
}

/** A step's last lines, for the summary of a failure. */
export interface StepTail {
  key: string;
  label: string;
  lines: string[];
  /** How many of its lines were read in all. */
  count: number;
}

export interface PrinterOptions {
  log: Log;
  file: LogFile | undefined;
  /** Print to the step's log (`logs: live`); otherwise lines only go to the file and the tails. */
  live: boolean;
  label(line: TailLine): string;
  linesPerStep?: number;
  /** Reads every line for compiler messages (with `check: true`, for the check run's annotations). */
  diagnostics?: DiagnosticsCollector | undefined;
}

/** Which step a line belongs to: its elementId, else its job and step ids. */
const stepKey = (line: TailLine): string => line.tag || `${line.jobId}/${line.stepId}`;

export class LogPrinter {
  readonly #o: PrinterOptions;
  readonly #tails = new Map<string, StepTail>();
  /** Steps whose lines went over the bound: how many were left out of the step's log. */
  readonly #cut = new Map<string, number>();
  #open: string | undefined;

  constructor(options: PrinterOptions) {
    this.#o = options;
  }

  /** Prints lines given in line-number order. */
  print(lines: readonly TailLine[]): void {
    const { log, file, live } = this.#o;
    const max = this.#o.linesPerStep ?? LINES_PER_STEP;
    for (const line of lines) {
      const key = stepKey(line);
      const label = this.#o.label(line);
      const message = line.message;
      file?.add(label, message);
      this.#o.diagnostics?.add(key, message);
      let tail = this.#tails.get(key);
      if (tail === undefined) {
        tail = { key, label, lines: [], count: 0 };
        this.#tails.set(key, tail);
      }
      tail.label = label;
      tail.count++;
      tail.lines.push(message);
      if (tail.lines.length > TAIL_LINES) tail.lines.shift();
      if (!live) continue;
      if (tail.count > max) {
        this.#cut.set(key, (this.#cut.get(key) ?? 0) + 1);
        // Said once a run: a retried run's step has its own lines again.
        if (tail.count === max + 1) {
          this.#enter(key, label);
          log.info(
            `… ${label} has more than ${max} lines: the rest of them are only in the log file${file === undefined ? '' : ` (${file.path}, the log-file output)`}`,
          );
        }
        continue;
      }
      this.#enter(key, label);
      log.info(log.group === undefined ? `${label} | ${message}` : message);
    }
    // Nothing else the action says lands inside a step's group.
    this.#leave();
    file?.flush();
  }

  /**
   * A new run of the build (a retry): what is kept of each step is the new run's from now on. Its
   * last lines and its compiler messages explain how that run ended, not the run before; the lines
   * left out of the step's log stay counted (they are in the log file).
   */
  newRun(): void {
    this.#tails.clear();
    this.#o.diagnostics?.restart();
  }

  /** Each step's last lines (of the run followed now), in the order the steps first wrote. */
  tails(): StepTail[] {
    return [...this.#tails.values()];
  }

  /** Steps whose lines were bounded in the step's log, and how many of them were left out. */
  cut(): ReadonlyMap<string, number> {
    return this.#cut;
  }

  #enter(key: string, label: string): void {
    if (this.#open === key) return;
    this.#leave();
    if (this.#o.log.group === undefined) return;
    this.#o.log.group(label);
    this.#open = key;
  }

  #leave(): void {
    if (this.#open === undefined) return;
    this.#o.log.endGroup?.();
    this.#open = undefined;
  }
}
