// The build's log, read along with the wait: one after_line_logs read per poll (and its pages
// while bk-ci says hasMore), then after the build ended until nothing new comes. A failure to
// read the log is one warning and never the step's verdict: the build's status decides.

import type { Clock } from '../base/clock.ts';
import { BudgetSpentError, DeadlineError, errorMessage } from '../base/errors.ts';
import type { Log } from '../base/log.ts';
import type { BuildRef } from '../bkci/builds.ts';
import { type BkciLogLine, LOG_STATUS, readLogAfter } from '../bkci/logs.ts';
import { nextPage } from '../wait/pages.ts';
import type { Follower } from '../wait/poll.ts';
import { isTransient } from '../wait/poll.ts';
import type { DiagnosticsCollector } from './diagnostics.ts';
import type { LogFile } from './log-print.ts';
import { LogPrinter, type StepTail } from './log-print.ts';
import { LogTail, type TailLine, type TailPage } from './log-tail.ts';
import { SETTLE_BUDGET_MS, type SideReads } from './side-reads.ts';

export type LogsMode = 'live' | 'on-failure' | 'none';

/** Pages read at once while bk-ci says hasMore (bk-ci gives up to 10,000 lines a page). */
const PAGES_PER_READ = 20;
/** Reads after the build ended, at most. */
const SETTLE_READS = 10;
/** Reads after the end that bring nothing new before the log counts as complete. */
const QUIET_READS = 2;
/** Polls, and time, a gap in the line numbers is waited on (bk-ci makes lines searchable every 3 s, in bulk). */
const HOLD = { holdPolls: 2, holdMs: 6000 };

/** What following a build's log needs: the build, and what reads and writes it. */
export interface FollowOptions {
  build: BuildRef;
  /** How the log reaches bk-ci: each read within its own budget. */
  reads: SideReads;
  log: Log;
  /** Which run of the build is followed; a new one (a retry) starts a new cursor. */
  executeCount(): number;
  mode: Exclude<LogsMode, 'none'>;
  file: LogFile | undefined;
  /** The job and step a line came from, in words. */
  label(line: TailLine): string;
  signal: AbortSignal;
  clock: Clock;
  linesPerStep?: number;
  /** Fed every line read, for the compiler messages of the steps that fail. */
  diagnostics?: DiagnosticsCollector | undefined;
}

/** What reading the log came to. */
export interface LogRead {
  lines: number;
  tails: StepTail[];
  cut: ReadonlyMap<string, number>;
  /** Why the log could not be read (whole or in part), when it could not. */
  problem: string | undefined;
}

const toTail = (line: BkciLogLine): TailLine => ({
  lineNo: line.lineNo,
  message: line.message ?? '',
  tag: line.tag ?? '',
  jobId: line.jobId ?? '',
  stepId: line.stepId ?? '',
});

export class LogFollower<T> implements Follower<T> {
  readonly settleMs = SETTLE_BUDGET_MS;
  readonly #o: FollowOptions;
  readonly #printer: LogPrinter;
  #tail: LogTail | undefined;
  #executeCount: number | undefined;
  #problem: string | undefined;
  #warned = false;
  #gone = false;
  #settleReads = 0;
  /** Reading on after the end is over: a read then failed, or found no time left. */
  #settled = false;
  /** The last read said the build has no log (status 2): once the build ended, there is none to wait for. */
  #none = false;
  #quiet = 0;
  #lines = 0;

  constructor(options: FollowOptions) {
    this.#o = options;
    this.#printer = new LogPrinter({
      log: options.log,
      file: options.file,
      live: options.mode === 'live',
      label: options.label,
      diagnostics: options.diagnostics,
      ...(options.linesPerStep === undefined ? {} : { linesPerStep: options.linesPerStep }),
    });
  }

  /** One read, over by `until` (the next poll); by default one side read's budget. */
  async afterRead(_value?: unknown, until?: number): Promise<void> {
    if (this.#o.mode === 'live') await this.#read(until);
  }

  pending(end: 'done' | 'failed'): boolean {
    if (this.#gone || this.#none || this.#settled || (this.#o.mode === 'on-failure' && end === 'done')) return false;
    return this.#quiet < QUIET_READS && this.#settleReads < SETTLE_READS;
  }

  async settle(_end?: 'done' | 'failed', until?: number): Promise<void> {
    this.#settleReads++;
    const fresh = await this.#read(until, true);
    this.#quiet = fresh === 0 && this.#tail?.holding !== true ? this.#quiet + 1 : 0;
  }

  /** Releases what waits above a gap (reading is over) and says what was read. */
  finish(): LogRead {
    this.#printer.print(this.#tail?.ready({ atPoll: false, now: this.#o.clock.now(), final: true }) ?? []);
    return { lines: this.#lines, tails: this.#printer.tails(), cut: this.#printer.cut(), problem: this.#problem };
  }

  /** One read: a page, and the next at once while bk-ci says hasMore; the lines ready printed. New lines read, or undefined when none could be. */
  async #read(until: number | undefined, afterEnd = false): Promise<number | undefined> {
    if (this.#gone || this.#o.signal.aborted) return undefined;
    const count = this.#o.executeCount();
    const tail = this.#tailOf(count);
    let fresh = 0;
    for (let page = 0; page < PAGES_PER_READ && !this.#o.signal.aborted; page++) {
      let got: TailPage;
      try {
        got = await this.#page(tail.start(page === 0), count, until);
      } catch (e) {
        this.#trouble(e, afterEnd);
        break;
      }
      const verdict = tail.take(got);
      this.#none = got.status === LOG_STATUS.clean;
      if (verdict.kind === 'gone') {
        this.#say(`${verdict.reason}: its lines cannot be read; the build's status decides`);
        this.#gone = true;
        break;
      }
      if (verdict.kind === 'retry') {
        this.#o.log.debug(`build log: ${verdict.reason}`);
        break;
      }
      fresh += verdict.fresh;
      // hasMore with nothing new (a server that repeats its page) is not read again at once.
      const step = nextPage(verdict);
      if (step === 'stalled')
        this.#o.log.debug('build log: bk-ci says it has more, but its page brought no new line; read again at the next poll');
      if (step !== 'next') break;
    }
    const ready = tail.ready({ atPoll: true, now: this.#o.clock.now() });
    this.#lines += ready.length;
    this.#printer.print(ready);
    return fresh;
  }

  /**
   * The cursor of the run read now: a new run (a retry) starts a new one, whose lines are numbered
   * on from the runs before it, so the gap below its first line is none to wait for.
   */
  #tailOf(executeCount: number): LogTail {
    if (this.#tail !== undefined && executeCount === this.#executeCount) return this.#tail;
    if (this.#tail !== undefined) this.#printer.newRun();
    this.#executeCount = executeCount;
    this.#tail = new LogTail({ ...HOLD, from: executeCount > 1 ? 'first-read' : 1 });
    return this.#tail;
  }

  async #page(start: number, executeCount: number, until: number | undefined): Promise<TailPage> {
    const page = await readLogAfter(this.#o.reads.read('log', until), this.#o.build, { start, executeCount });
    if (page === undefined) return { status: LOG_STATUS.fail, hasMore: false, lines: [] };
    const lines = (page.logs ?? []).filter((l) => (l.executeCount ?? executeCount) === executeCount).map(toTail);
    return { status: page.status ?? LOG_STATUS.succeed, hasMore: page.hasMore ?? false, lines };
  }

  /**
   * A read that failed: while the build runs, a passing failure is tried again at the next poll;
   * after its end, any failure ends the reading (a log that hangs then must not hold the step);
   * any other ends the reading.
   */
  #trouble(error: unknown, afterEnd: boolean): void {
    if (this.#o.signal.aborted) return;
    if (afterEnd) {
      this.#settled = true;
      if (error instanceof BudgetSpentError) return void this.#o.log.debug(`build log: ${errorMessage(error)}; no more is read`);
      // Said even after a warning that promised another try: there is none now.
      this.#say(
        `reading the build's log after its end failed (${errorMessage(error)}); its last lines may be missing, no more of it is read, and the build's status decides`,
        true,
      );
      return;
    }
    if (error instanceof BudgetSpentError) return void this.#o.log.debug(`build log: ${errorMessage(error)}; read at the next poll`);
    if (error instanceof DeadlineError || !isTransient(error)) {
      this.#gone = true;
      this.#say(`reading the build's log failed (${errorMessage(error)}); no more of it is read, and the build's status decides`);
      return;
    }
    this.#say(`reading the build's log failed (${errorMessage(error)}); trying again at the next poll; the build's status decides`);
  }

  /** One warning for all the log's troubles (and one more for the end's); the rest in the debug log. */
  #say(problem: string, end = false): void {
    if (this.#warned && !end) this.#o.log.debug(problem);
    else this.#o.log.warning(problem);
    this.#warned = true;
    this.#problem ??= problem;
  }
}
