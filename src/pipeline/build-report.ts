// What a step shows of a build besides its status: the log (followed live, or its failed steps'
// last lines at the end), why it failed, the variables and artifacts a later step asks for. The
// wait hands it the log follower to ride on its polls, and asks it, once the wait is over, for
// the outputs and the summary's blocks.

import type { Clock } from '../base/clock.ts';
import { errorMessage } from '../base/errors.ts';
import type { Log } from '../base/log.ts';
import type { Block, FoundDiagnostics } from '../base/outcome.ts';
import type { BuildDetail, BuildRef } from '../bkci/builds.ts';
import type { Secrets } from '../runner/secrets.ts';
import { artifactBlocks, listArtifacts } from './artifacts.ts';
import type { ReportOutput } from './build-outputs.ts';
import { DiagnosticsCollector } from './diagnostics.ts';
import type { FailedStep } from './failed-steps.ts';
import { LogFollower, type LogRead, type LogsMode } from './log-follow.ts';
import { LogFile, type StepTail } from './log-print.ts';
import type { TailLine } from './log-tail.ts';
import type { SideReads } from './side-reads.ts';
import { BuildVariables } from './variables.ts';

export interface ReportOptions {
  logs: LogsMode;
  /** Names of build variables to output once the build ended. */
  variables: readonly string[];
  /** `mask-variables`: names whose value is masked besides the passwords (`*`: all). */
  maskVariables: readonly string[];
  artifacts: boolean;
  /** Read the log's compiler messages, for the annotations of a check run (`check: true`). */
  diagnostics?: boolean;
}

export interface ReportContext {
  /** How the report reaches bk-ci: each read beside the wait within its own budget. */
  reads: SideReads;
  log: Log;
  secrets: Secrets;
  signal: AbortSignal;
  clock: Clock;
  /** The environment run() was given: RUNNER_TEMP, where the log file goes. */
  env?: NodeJS.ProcessEnv | undefined;
}

/** What the report showed of the build: outputs and blocks, and what could not be had (said as a failure of the step). */
export interface ReportShown {
  outputs: Partial<Record<ReportOutput, string>>;
  blocks: Block[];
  /** Variables a later step needs could not be read. */
  problem?: string;
  /** The failed steps' compiler messages, when they were looked for. */
  diagnostics?: FoundDiagnostics;
}

/** Nothing shown but the status. */
export const NO_REPORT: ReportOptions = { logs: 'none', variables: [], maskVariables: [], artifacts: false };

/** Failed steps whose last lines the summary shows, at most. */
const FAILED_SHOWN = 5;

/** A step whose log tells why the build failed, and what the summary calls it. */
interface Culprit {
  title: string;
  tail: StepTail;
}

export class BuildReport {
  readonly follow: LogFollower<unknown> | undefined;
  /** The variables a later step asks for: masked as soon as they are known secret, read at the end. */
  readonly variables: BuildVariables;
  readonly #ctx: ReportContext;
  readonly #build: BuildRef;
  readonly #options: ReportOptions;
  readonly #file: LogFile | undefined;
  readonly #diagnostics: DiagnosticsCollector | undefined;
  /** Step names by elementId, from the build's model once known. */
  readonly names = new Map<string, string>();
  readonly #outputs: Partial<Record<ReportOutput, string>> = {};

  constructor(ctx: ReportContext, build: BuildRef, options: ReportOptions, executeCount: () => number) {
    this.#ctx = ctx;
    this.#build = build;
    this.#options = options;
    this.variables = new BuildVariables(ctx, build, options.variables, options.maskVariables);
    if (options.logs === 'none') return;
    this.#file = new LogFile(
      ctx.env?.RUNNER_TEMP,
      (text) => ctx.secrets.redact(text),
      (m) => ctx.log.warning(`${m}; the build's status decides`),
    );
    // A file that could not even be made is no output: nothing would be there.
    if (this.#file.failed === undefined) this.#outputs['log-file'] = this.#file.path;
    if (options.diagnostics === true) this.#diagnostics = new DiagnosticsCollector((text) => ctx.secrets.redact(text));
    this.follow = new LogFollower({
      ...ctx,
      build,
      executeCount,
      mode: options.logs,
      file: this.#file,
      diagnostics: this.#diagnostics,
      label: (line) => this.label(line),
    });
  }

  /** Learns the steps' names from the build's model (build_detail), "Linux › Unit tests", and which parameters are passwords. */
  learn(detail: BuildDetail): void {
    for (const stage of (detail.model?.stages ?? []).slice(1))
      for (const job of stage.containers ?? [])
        for (const step of job.elements ?? [])
          if (step.id && step.name) this.names.set(step.id, job.name ? `${job.name} › ${step.name}` : step.name);
    this.variables.learn(detail);
  }

  /** Outputs known so far: set on every ending, a cancel included. */
  get outputs(): Partial<Record<ReportOutput, string>> {
    return this.#outputs;
  }

  /** The job and step a line came from: the step's name when the build's model gave it, else bk-ci's ids. */
  label(line: TailLine): string {
    const named = line.tag ? this.names.get(line.tag) : undefined;
    if (named !== undefined) return named;
    const ids = [line.jobId, line.stepId || line.tag].filter((id) => id !== '');
    return ids.length === 0 ? 'build' : ids.join(' › ');
  }

  /**
   * After the wait: the log's last lines released, and, for a build that ended, why it failed,
   * its variables and its artifacts. `ended` is undefined when the build goes on (a timeout,
   * `wait: false`, a cancel): then only the log is said.
   */
  async end(ended: 'done' | 'failed' | undefined, failed: readonly FailedStep[]): Promise<ReportShown> {
    // Their masks before any line is printed: the wait read them at the end already, unless it was not followed.
    const variables = ended === undefined ? undefined : await this.variables.atEnd();
    const blocks: Block[] = [];
    const read = this.follow?.finish();
    if (read !== undefined) blocks.push(...this.#logBlocks(read));
    let diagnostics: FoundDiagnostics | undefined;
    if (ended === 'failed') {
      const culprits = this.#culprits(failed, read);
      blocks.push(...this.#explain(failed, culprits));
      diagnostics = this.#diagnostics?.of(culprits.map((c) => c.tail.key));
    }
    const problem = variables !== undefined && 'problem' in variables ? variables.problem : undefined;
    if (variables !== undefined && 'values' in variables) {
      this.#outputs.variables = JSON.stringify(variables.values);
      blocks.push({ kind: 'facts', rows: [['Variables', Object.keys(variables.values).join(', ')]] });
    }
    if (ended !== undefined && this.#options.artifacts) blocks.push(...(await this.#artifacts()));
    return {
      outputs: this.#outputs,
      blocks,
      ...(problem === undefined ? {} : { problem }),
      ...(diagnostics === undefined ? {} : { diagnostics }),
    };
  }

  /** The build's files, each with a link; a failure to list them is a warning. */
  async #artifacts(): Promise<Block[]> {
    try {
      const files = await listArtifacts(this.#ctx.reads.read('artifacts'), this.#ctx.log, this.#build, this.#ctx);
      // Bounded entry by entry where every output is (src/runner/outputs.ts).
      this.#outputs.artifacts = JSON.stringify(files);
      return artifactBlocks(files);
    } catch (e) {
      this.#ctx.log.warning(`the build's artifacts could not be listed: ${errorMessage(e)}`);
      return [];
    }
  }

  #logBlocks(read: LogRead): Block[] {
    // A path under the runner's temp folder is nothing a reader of the summary can open: the output names it.
    const rows: [string, string][] = read.lines > 0 ? [['Log lines read', String(read.lines)]] : [];
    if (this.#file !== undefined) rows.push(['Log file', this.#file.failed ?? 'in the log-file output, for later steps']);
    for (const [key, left] of read.cut) {
      const tail = read.tails.find((t) => t.key === key);
      rows.push([`Not in the step's log`, `${left} lines of ${tail?.label ?? key}`]);
    }
    if (read.problem !== undefined) rows.push(['Log problem', read.problem]);
    return [{ kind: 'facts', rows }];
  }

  /**
   * The steps whose log tells why the build failed: each failed step bk-ci named that wrote, else
   * (none named, or none wrote) the step that wrote last, the likeliest culprit.
   */
  #culprits(failed: readonly FailedStep[], read: LogRead | undefined): Culprit[] {
    const tails = read?.tails ?? [];
    const out: Culprit[] = [];
    for (const step of failed) {
      const tail = tails.find((t) => t.key === step.id);
      if (tail !== undefined) out.push({ title: step.name, tail });
    }
    const last = tails.at(-1);
    if (out.length === 0 && last !== undefined) out.push({ title: last.label, tail: last });
    return out;
  }

  /** The failed steps, each with its error and last lines; with `logs: on-failure` those lines printed now. */
  #explain(failed: readonly FailedStep[], culprits: readonly Culprit[]): Block[] {
    const blocks: Block[] = [];
    if (failed.length > 0)
      blocks.push({ kind: 'table', title: 'Failed steps', headers: ['Step', 'Error'], rows: failed.map((f) => [f.name, f.error]) });
    for (const { title, tail } of culprits.slice(0, FAILED_SHOWN)) {
      blocks.push({ kind: 'lines', title: `Last lines of ${title}`, lines: tail.lines });
      if (this.#options.logs === 'on-failure') this.#printTail(title, tail);
    }
    return blocks;
  }

  #printTail(title: string, tail: StepTail): void {
    const { log } = this.#ctx;
    const header = `last ${tail.lines.length} of ${tail.count} lines of ${title}`;
    if (log.group === undefined) log.info(`${header}:`);
    else log.group(header);
    for (const line of tail.lines) log.info(log.group === undefined ? `${title} | ${line}` : line);
    log.endGroup?.();
  }
}

/** The inputs that say what is shown of a build besides its status (src/inputs/build.ts), `check` among them when the step has it. */
export interface ReportInputs {
  logs: LogsMode;
  variables?: string[] | undefined;
  'mask-variables'?: string[] | undefined;
  artifacts: boolean;
  check?: boolean | undefined;
}

/** The options the parsed inputs give. */
export const reportOptions = (inputs: ReportInputs): ReportOptions => ({
  logs: inputs.logs,
  variables: inputs.variables ?? [],
  maskVariables: inputs['mask-variables'] ?? [],
  artifacts: inputs.artifacts,
  diagnostics: inputs.check === true,
});
