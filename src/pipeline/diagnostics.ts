// The compiler messages of each step's log, collected as the lines stream past the log's printer
// (src/pipeline/log-print.ts): with `logs: live` during the wait, with `logs: on-failure` when the
// failed build's log is read at its end. The whole log is read, never kept: a step keeps its first
// messages and counts the rest, so the first errors, usually the cause, are the ones that reach
// the check run's annotations (src/github/annotations.ts decides which may go to GitHub).
import type { Diagnostic, FoundDiagnostics } from '../base/outcome.ts';
import { CompilerLines } from './compiler-lines.ts';

/** Messages kept per step: four times what GitHub takes in one update, for those on files outside the repository. */
export const KEPT_PER_STEP = 200;
/**
 * Messages kept over all the steps: a build of many steps holds no more than this in memory. When a
 * step's message would pass it, the step that printed one longest ago gives its kept ones up
 * (counted): a build stops soon after a step fails, so the failed step is among the latest.
 */
export const KEPT_IN_ALL = 1000;
/** A message's length as kept (after its secrets are scrubbed: a cut could split one). */
export const MESSAGE_KEPT = 2000;

interface StepMessages {
  reader: CompilerLines;
  found: Diagnostic[];
  unkept: number;
}

export class DiagnosticsCollector {
  readonly #steps = new Map<string, StepMessages>();
  readonly #scrub: (text: string) => string;
  #kept = 0;

  /** `scrub` takes the step's secrets out of what is kept. */
  constructor(scrub: (text: string) => string) {
    this.#scrub = scrub;
  }

  /** A line of the step `step` (its key: src/pipeline/log-print.ts's stepKey), in the log's order. */
  add(step: string, line: string): void {
    let s = this.#steps.get(step);
    if (s === undefined) {
      s = { reader: new CompilerLines(), found: [], unkept: 0 };
      this.#steps.set(step, s);
    }
    const d = s.reader.read(line);
    if (d === undefined) return;
    // The steps in the order they last printed a message: the first is the one given up first.
    this.#steps.delete(step);
    this.#steps.set(step, s);
    if (s.found.length >= KEPT_PER_STEP) {
      s.unkept++;
      return;
    }
    // Past the bound the others hold at least 800 (this step under 200): one of them gives its up.
    if (this.#kept >= KEPT_IN_ALL) this.#giveUpOldest();
    this.#kept++;
    s.found.push({ ...d, path: this.#scrub(d.path), message: this.#scrub(d.message).slice(0, MESSAGE_KEPT) });
  }

  /** The kept messages of the step that printed one longest ago, counted instead (never the step printing now: it was just moved last). */
  #giveUpOldest(): void {
    for (const s of this.#steps.values()) {
      if (s.found.length === 0) continue;
      this.#kept -= s.found.length;
      s.unkept += s.found.length;
      s.found = [];
      return;
    }
  }

  /** A new run of the build (a retry): its steps' logs start again, and what the earlier run printed is no longer the cause. */
  restart(): void {
    this.#steps.clear();
    this.#kept = 0;
  }

  /** The messages of the steps named, in that order. */
  of(steps: readonly string[]): FoundDiagnostics {
    const found: Diagnostic[] = [];
    let unkept = 0;
    for (const key of new Set(steps)) {
      const s = this.#steps.get(key);
      if (s === undefined) continue;
      found.push(...s.found);
      unkept += s.unkept;
    }
    return { found, unkept };
  }
}
