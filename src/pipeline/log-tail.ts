// Where the build's log is read from next, and which lines are ready to print: bk-ci's traps
// (docs/bkci/logs.md#traps) handled in one pure place. Pages come ordered by
// time, not line number; `start` is inclusive; a line can become readable after higher-numbered
// ones (numbers are given at ingestion, made searchable in bulk every few seconds); status 2
// means no log yet and 999 a failed search. Lines are released in line-number order, each once.
import { LOG_STATUS } from '../bkci/logs.ts';

/** A log line as the tail needs it. */
export interface TailLine {
  lineNo: number;
  message: string;
  /** The step's elementId (e-…), "" when none. */
  tag: string;
  jobId: string;
  stepId: string;
}

/** One answer of after_line_logs. */
export interface TailPage {
  /** QueryLogs.status: 0 (or 1) lines, 2 no log yet, 3 closed, 999 failed search. */
  status: number;
  hasMore: boolean;
  lines: readonly TailLine[];
}

export type PageVerdict =
  /** Lines (or none) taken; `more` when bk-ci said hasMore: read again at once. */
  | { kind: 'read'; more: boolean; fresh: number }
  /** No log yet (2), or a failed search (999, or a status the tail does not know): try at the next poll, cursor unchanged. */
  | { kind: 'retry'; reason: string }
  /** The log cannot be read (3: its index was closed): stop reading. */
  | { kind: 'gone'; reason: string };

export interface TailOptions {
  /** How many polls a gap in the line numbers is waited on before the lines above it are printed… */
  holdPolls: number;
  /** …and for at least how long (bk-ci makes new lines searchable every 3 s). */
  holdMs: number;
  /**
   * Where the run's lines begin: 1 for a build's first run; `'first-read'` for a later run (a
   * retry), whose lines go on from the numbers of the runs before it, which this run's reads never
   * bring: the lowest line of the first read that brings any is its first (see docs/bkci/logs.md).
   */
  from?: number | 'first-read';
}

/**
 * The cursor of a build's log. `start()` says where the next read begins: past the highest line
 * seen, or, at a poll while lines wait above a gap, at the gap (so a late line is found; what
 * was seen again is dropped). `take()` files a page; `ready()` hands out the lines that can be
 * printed, in order. A line above a gap waits `holdPolls` polls and `holdMs` from when it was
 * first seen; then every gap below it is given up at once (debug lines, which the query leaves
 * out, leave gaps that never fill): gaps are not waited on one after another. Releasing costs a
 * sort of what is held, never a scan per gap.
 */
export class LogTail {
  readonly #o: TailOptions;
  /** The lowest line number not yet released: everything below it was printed or given up. */
  #next = 1;
  /** Past the highest line number seen. */
  #cursor = 1;
  /** Lines seen above a gap, not yet released. */
  readonly #held = new Map<number, TailLine>();
  /** Lines taken, in the order they came, with the poll and time they were first counted at. */
  #arrivals: { lineNo: number; poll: number; at: number }[] = [];
  /** Arrivals before this index are stamped and ripe-checked; from `#unstamped` on they have no poll yet. */
  #ripeFrom = 0;
  #unstamped = 0;
  #polls = 0;
  #read = 0;
  /** The run's first line is not known yet: the first read that brings lines says it. */
  #fromFirstRead: boolean;

  constructor(options: TailOptions) {
    this.#o = options;
    this.#fromFirstRead = options.from === 'first-read';
    if (typeof options.from === 'number') this.#next = this.#cursor = options.from;
  }

  /** Lines read in all (each once). */
  get read(): number {
    return this.#read;
  }

  /** Whether lines wait above a gap. */
  get holding(): boolean {
    return this.#held.size > 0;
  }

  /** Where the next read starts (inclusive): at a poll, the gap when one is held; else past the highest line seen. */
  start(atPoll: boolean): number {
    return atPoll && this.#held.size > 0 ? this.#next : this.#cursor;
  }

  /** Files a page. Lines below the released mark, or seen before, are dropped. */
  take(page: TailPage): PageVerdict {
    if (page.status === LOG_STATUS.closed) return { kind: 'gone', reason: "the build's log index is closed (bk-ci log status 3)" };
    if (page.status === LOG_STATUS.clean) return { kind: 'retry', reason: 'no log yet (bk-ci log status 2)' };
    if (page.status !== LOG_STATUS.succeed && page.status !== LOG_STATUS.empty)
      return { kind: 'retry', reason: `bk-ci's log search failed (log status ${page.status}); read again at the next poll` };
    if (this.#fromFirstRead && page.lines.length > 0) {
      this.#fromFirstRead = false;
      this.#next = Math.min(...page.lines.map((line) => line.lineNo));
    }
    let fresh = 0;
    for (const line of page.lines) {
      if (line.lineNo < this.#next || this.#held.has(line.lineNo)) continue;
      this.#held.set(line.lineNo, line);
      this.#arrivals.push({ lineNo: line.lineNo, poll: 0, at: 0 });
      this.#cursor = Math.max(this.#cursor, line.lineNo + 1);
      fresh++;
    }
    this.#read += fresh;
    return { kind: 'read', more: page.hasMore && page.lines.length > 0, fresh };
  }

  /**
   * The lines that can be printed now, in line-number order. `atPoll` counts a poll (made at
   * `now`) against what waits above a gap; `final` gives up every gap (reading is over).
   */
  ready(moment: { atPoll: boolean; now: number; final?: boolean }): TailLine[] {
    const out: TailLine[] = [];
    if (moment.atPoll) this.#polls++;
    for (; this.#unstamped < this.#arrivals.length; this.#unstamped++) {
      const arrival = this.#arrivals[this.#unstamped];
      if (arrival !== undefined) Object.assign(arrival, { poll: this.#polls, at: moment.now });
    }
    this.#release(out);
    // The highest line that has waited long enough: every gap below it is given up.
    let upTo = moment.final ? Number.POSITIVE_INFINITY : 0;
    for (; this.#ripeFrom < this.#unstamped && !moment.final; this.#ripeFrom++) {
      const arrival = this.#arrivals[this.#ripeFrom];
      if (arrival === undefined || this.#polls - arrival.poll < this.#o.holdPolls || moment.now - arrival.at < this.#o.holdMs) break;
      upTo = Math.max(upTo, arrival.lineNo);
    }
    if (upTo >= this.#next && this.#held.size > 0) {
      const below = [...this.#held.keys()].filter((n) => n <= upTo).sort((a, b) => a - b);
      for (const lineNo of below) {
        const line = this.#held.get(lineNo);
        this.#held.delete(lineNo);
        if (line !== undefined) out.push(line);
        this.#next = lineNo + 1;
      }
      this.#release(out);
    }
    // What was checked is done with: dropped now and then, not at every poll.
    const done = this.#held.size === 0 || moment.final ? this.#unstamped : this.#ripeFrom > 4096 ? this.#ripeFrom : 0;
    if (done > 0) {
      this.#arrivals = this.#arrivals.slice(done);
      this.#ripeFrom -= Math.min(done, this.#ripeFrom);
      this.#unstamped -= done;
    }
    return out;
  }

  /** Releases the lines that follow on from #next without a gap. */
  #release(out: TailLine[]): void {
    for (let line = this.#held.get(this.#next); line !== undefined; line = this.#held.get(this.#next)) {
      this.#held.delete(this.#next);
      out.push(line);
      this.#next++;
    }
  }
}
