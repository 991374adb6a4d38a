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
    let messages = this.#steps.get(step);
    if (messages === undefined) {
      messages = { reader: new CompilerLines(), found: [], unkept: 0 };
      this.#steps.set(step, messages);
    }
    const diagnostic = messages.reader.read(line);
    if (diagnostic === undefined) return;
    // The steps in the order they last printed a message: the first is the one given up first.
    this.#steps.delete(step);
    this.#steps.set(step, messages);
    if (messages.found.length >= KEPT_PER_STEP) {
      messages.unkept++;
      return;
    }
    // Past the bound the others hold at least 800 (this step under 200): one of them gives its up.
    if (this.#kept >= KEPT_IN_ALL) this.#giveUpOldest();
    this.#kept++;
    messages.found.push({
      ...diagnostic,
      path: this.#scrub(diagnostic.path),
      message: this.#scrub(diagnostic.message).slice(0, MESSAGE_KEPT),
    });
  }

  /** The kept messages of the step that printed one longest ago, counted instead (never the step printing now: it was just moved last). */
  #giveUpOldest(): void {
    for (const messages of this.#steps.values()) {
      if (messages.found.length === 0) continue;
      this.#kept -= messages.found.length;
      messages.unkept += messages.found.length;
      messages.found = [];
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
      const messages = this.#steps.get(key);
      if (messages === undefined) continue;
      found.push(...messages.found);
      unkept += messages.unkept;
    }
    return { found, unkept };
  }
}
