// A build's log lines as bk-ci's log service holds them (docs/bkci/logs.md): every line its script
// writes (log-script.ts), and each retried run's, numbered in order of arrival at the log service
// (one counter for every run, as IndexService keeps), each with when it arrived and when a search
// can find it; a stopped run's agent writes nothing after its stop.
import type { Build } from './build-records.ts';
import type { LogScript } from './log-script.ts';

/** A line as the log service holds it: its number, when it arrived and when it can be found. */
export interface StoredLine {
  lineNo: number;
  /** ms after build_start. */
  at: number;
  arrivesAt: number;
  visibleAt: number;
  message: string;
  tag: string;
  subTag: string;
  jobId: string;
  containerHashId: string;
  stepId: string;
  executeCount: number;
  debug: boolean;
}

/** What a scripted line or generator gives of each line besides its time, step and text. */
interface LineTiming {
  subTag?: string;
  debug?: boolean;
  executeCount: number;
  delayMs: number;
  lagMs: number;
}

/** Every line a script writes, numbered in order of arrival (one counter for all runs, as IndexService keeps). */
export function storeLines(script: LogScript): StoredLine[] {
  const steps = new Map(script.steps.map((step) => [step.tag, step]));
  const written: Omit<StoredLine, 'lineNo'>[] = [];
  const add = (at: number, tag: string, message: string, timing: LineTiming) => {
    const step = steps.get(tag);
    written.push({
      at,
      arrivesAt: at + timing.delayMs,
      visibleAt: at + timing.delayMs + timing.lagMs,
      message,
      tag,
      subTag: timing.subTag ?? '',
      jobId: step?.jobId ?? '',
      containerHashId: step?.containerHashId ?? '',
      stepId: step?.stepId ?? '',
      executeCount: timing.executeCount,
      debug: timing.debug ?? false,
    });
  };
  for (const line of script.lines) add(line.at, line.step, line.text, line);
  for (const generator of script.generate) {
    const span = Math.max(0, generator.toMs - generator.fromMs);
    for (let index = 0; index < generator.count; index++)
      add(
        generator.fromMs + Math.floor((index * span) / generator.count),
        generator.step,
        generator.text.replaceAll('{i}', String(index + 1)),
        generator,
      );
  }
  // Stable: lines that arrive together keep the order they were scripted in.
  return written
    .map((line, order) => ({ line, order }))
    .sort((one, other) => one.line.arrivesAt - other.line.arrivesAt || one.order - other.order)
    .map(({ line }, index) => ({ ...line, lineNo: index + 1 }));
}

/**
 * The pipeline's script with what each retried run writes added: the retry's own lines, or the
 * first run's again (the same steps run again), `at` counted from the retry and marked with the
 * run's executeCount. Numbered together, as the log service numbers every run of a build.
 */
export function withRetries(script: LogScript, build: Build): LogScript {
  const firstRun = {
    lines: script.lines.filter((line) => line.executeCount === 1),
    generate: script.generate.filter((generator) => generator.executeCount === 1),
  };
  const lines = [...script.lines];
  const generate = [...script.generate];
  for (const retry of build.retries) {
    const shift = retry.at - build.startedAt;
    const { executeCount } = retry;
    const own = retry.logs ?? firstRun;
    lines.push(...own.lines.map((line) => ({ ...line, at: line.at + shift, executeCount })));
    generate.push(
      ...own.generate.map((generator) => ({ ...generator, fromMs: generator.fromMs + shift, toMs: generator.toMs + shift, executeCount })),
    );
  }
  return { ...script, lines, generate };
}

/** ms after build_start from which run `run`'s agent writes nothing: when that run was stopped, if it was. */
export function stoppedAt(build: Build, run: number): number {
  const at = run < build.executeCount ? build.retries[run - 1]?.previous.canceledAt : build.canceledAt;
  return at === undefined ? Number.POSITIVE_INFINITY : at - build.startedAt;
}

/** How many of the lines (sorted by arrival) have arrived `elapsed` ms after build_start. */
export function arrivedBy(lines: StoredLine[], elapsed: number): number {
  let low = 0;
  let high = lines.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((lines[middle]?.arrivesAt ?? Number.POSITIVE_INFINITY) <= elapsed) low = middle + 1;
    else high = middle;
  }
  return low;
}
