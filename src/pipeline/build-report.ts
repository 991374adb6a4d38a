// What a step shows of a build besides its status: the log (followed live, or its failed steps'
// last lines at the end), why it failed, the variables and artifacts a later step asks for. The
// wait hands it the log follower to ride on its polls, and asks it, once the wait is over, for
// the outputs and the summary's blocks.

import type { Clock } from '../base/clock.ts';
import { CancelledError, errorMessage } from '../base/errors.ts';
import type { Log } from '../base/log.ts';
import type { Block, FoundDiagnostics } from '../base/outcome.ts';
import { z } from '../base/schema.ts';
import { FILE_INFO, USER_DOWNLOAD_URL } from '../bkci/artifacts.ts';
import { type BuildDetail, type BuildRef, type BuildStatus, type Calls, readBuildDetail } from '../bkci/builds.ts';
import { LOG_AFTER } from '../bkci/logs.ts';
import { BUILD_VARIABLES } from '../bkci/variables.ts';
import type { Secrets } from '../runner/secrets.ts';
import { type Artifact, formatSize, listArtifacts } from './artifacts.ts';
import type { ReportOutput } from './build-outputs.ts';
import { DiagnosticsCollector } from './diagnostics.ts';
import { LogFollower, type LogRead, type LogsMode } from './log-follow.ts';
import { LogFile, type StepTail } from './log-print.ts';
import type { TailLine } from './log-tail.ts';
import type { SideReads } from './side-reads.ts';
import { maskSecret, readMasked } from './variables.ts';

/** The endpoints showing a build may call: its log, its variables, its artifacts and their links. */
export const REPORT_ENDPOINTS = [LOG_AFTER, BUILD_VARIABLES, FILE_INFO, USER_DOWNLOAD_URL];

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

/** A step that failed, as bk-ci names it: its elementId (the log's tag), its name, its error. */
export interface FailedStep {
  id: string;
  name: string;
  error: string;
}

/** What the build showed: outputs and blocks, and what could not be had (said as a failure of the step). */
export interface Seen {
  outputs: Partial<Record<ReportOutput, string>>;
  blocks: Block[];
  /** Variables a later step needs could not be read. */
  problem?: string;
  /** The failed steps' compiler messages, when they were looked for. */
  diagnostics?: FoundDiagnostics;
}

/** The variables a later step asks for, as read at the build's end, or why they could not be. */
type VariablesRead = { values: Record<string, string> } | { problem: string };

/** Nothing shown but the status. */
export const NO_REPORT: ReportOptions = { logs: 'none', variables: [], maskVariables: [], artifacts: false };

/** Failed steps whose last lines the summary shows, at most. */
const FAILED_SHOWN = 5;

export class BuildReport {
  readonly follow: LogFollower<unknown> | undefined;
  readonly #ctx: ReportContext;
  readonly #b: BuildRef;
  readonly #o: ReportOptions;
  readonly #file: LogFile | undefined;
  readonly #diagnostics: DiagnosticsCollector | undefined;
  /** Step names by elementId, from the build's model once known. */
  readonly names = new Map<string, string>();
  /** The start parameters the pipeline declares passwords, once its model was read. */
  #passwords: Set<string> | undefined;
  readonly #outputs: Partial<Record<ReportOutput, string>> = {};
  /** The variables read once the build ended (values, or why they could not be had), read once. */
  #variables: Promise<VariablesRead> | undefined;
  /** How long reading them took: time after the end that was not the log's. */
  #variablesMs = 0;

  constructor(ctx: ReportContext, b: BuildRef, o: ReportOptions, executeCount: () => number) {
    this.#ctx = ctx;
    this.#b = b;
    this.#o = o;
    if (o.logs === 'none') return;
    this.#file = new LogFile(
      ctx.env?.RUNNER_TEMP,
      (t) => ctx.secrets.redact(t),
      (m) => ctx.log.warning(`${m}; the build's status decides`),
    );
    // A file that could not even be made is no output: nothing would be there.
    if (this.#file.failed === undefined) this.#outputs['log-file'] = this.#file.path;
    if (o.diagnostics === true) this.#diagnostics = new DiagnosticsCollector((t) => ctx.secrets.redact(t));
    this.follow = new LogFollower({
      reads: ctx.reads,
      log: ctx.log,
      build: b,
      executeCount,
      mode: o.logs,
      file: this.#file,
      diagnostics: this.#diagnostics,
      label: (line) => this.label(line),
      signal: ctx.signal,
      clock: ctx.clock,
    });
  }

  /** Learns the steps' names from the build's model (build_detail): "Linux › Unit tests". */
  learn(detail: BuildDetail): void {
    for (const st of (detail.model?.stages ?? []).slice(1))
      for (const job of st.containers ?? [])
        for (const el of job.elements ?? []) if (el.id && el.name) this.names.set(el.id, job.name ? `${job.name} › ${el.name}` : el.name);
    this.#passwords = passwordParams(detail);
  }

  /**
   * Masks what a status shows of the variables the step asks for, once it is known secret: listed
   * in mask-variables, shaped like a credential, or a password-type parameter (as soon as the model
   * says so). bk-ci's status carries every variable raw; a line of the log printed while the build
   * runs is then already scrubbed of it. Nothing is said here: the end says what is not masked.
   */
  see(s: BuildStatus): void {
    const shown = s.variables;
    if (this.#o.variables.length === 0 || shown === null || shown === undefined) return;
    const values: Record<string, string> = {};
    for (const name of this.#o.variables) {
      const value = shown[name];
      if (typeof value === 'string') values[name] = value;
    }
    maskSecret(values, { passwords: this.#passwords ?? new Set(), listed: this.#o.maskVariables }, this.#ctx.secrets);
  }

  /**
   * The build ended: its variables are read now, once, and every mask they call for registered,
   * before any line of its log read after the end is printed (logs: on-failure prints its failed
   * steps' last lines then).
   */
  async ended(): Promise<void> {
    if (this.#o.variables.length === 0 || this.#variables !== undefined) return;
    const from = this.#ctx.clock.now();
    this.#variables = this.#readVariables();
    await this.#variables;
    this.#variablesMs = this.#ctx.clock.now() - from;
  }

  /** How long reading the variables at the end took. */
  get variablesMs(): number {
    return this.#variablesMs;
  }

  /** Outputs known so far: set on every ending, a cancel included. */
  get outputs(): Partial<Record<ReportOutput, string>> {
    return this.#outputs;
  }

  /** The job and step a line came from: the step's name when the build's model gave it, else bk-ci's ids. */
  label(line: TailLine): string {
    const named = line.tag ? this.names.get(line.tag) : undefined;
    if (named !== undefined) return named;
    const ids = [line.jobId, line.stepId || line.tag].filter((s) => s !== '');
    return ids.length === 0 ? 'build' : ids.join(' › ');
  }

  /**
   * After the wait: the log's last lines released, and, for a build that ended, why it failed,
   * its variables and its artifacts. `ended` is undefined when the build goes on (a timeout,
   * `wait: false`, a cancel): then only the log is said.
   */
  async end(ended: 'done' | 'failed' | undefined, failed: readonly FailedStep[]): Promise<Seen> {
    // Their masks before any line is printed: the wait read them at the end already, unless it was not followed.
    if (ended !== undefined) await this.ended();
    const variables = ended === undefined ? undefined : await this.#variables;
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
    const { reads } = this.#ctx;
    if (ended !== undefined && this.#o.artifacts) {
      try {
        const files = await listArtifacts(reads.read('artifacts'), this.#ctx.log, this.#b, this.#ctx);
        // Bounded entry by entry where every output is (src/runner/outputs.ts).
        this.#outputs.artifacts = JSON.stringify(files);
        blocks.push(...artifactBlocks(files));
      } catch (e) {
        this.#ctx.log.warning(`the build's artifacts could not be listed: ${errorMessage(e)}`);
      }
    }
    return {
      outputs: this.#outputs,
      blocks,
      ...(problem === undefined ? {} : { problem }),
      ...(diagnostics === undefined ? {} : { diagnostics }),
    };
  }

  /** The variables the step asks for, their secret values masked; or why they could not be read. */
  async #readVariables(): Promise<VariablesRead> {
    const { reads } = this.#ctx;
    try {
      // The model first, on a budget of its own: a model that hangs costs the masks' knowledge, not the variables.
      const ask = { passwords: await this.#passwordNames(reads.read('model')), listed: this.#o.maskVariables };
      const { secrets, log } = this.#ctx;
      return { values: await readMasked(reads.read('variables'), this.#b, this.#o.variables, { ask, secrets, log }) };
    } catch (e) {
      return { problem: `reading the build's variables (${this.#o.variables.join(', ')}) failed: ${errorMessage(e)}` };
    }
  }

  /**
   * The password parameters, from the model read during the wait or read now. A model that cannot
   * be read leaves them unknown: every variable that can be masked is then, and the step says so.
   */
  async #passwordNames(calls: Calls): Promise<ReadonlySet<string>> {
    if (this.#passwords === undefined) {
      try {
        this.#passwords = passwordParams((await readBuildDetail(calls, this.#b)).data);
      } catch (e) {
        if (e instanceof CancelledError) throw e;
        this.#ctx.log.warning(
          `could not read the build's model (build_detail) to learn which parameters are passwords, so every variable output is masked: ${errorMessage(e)}`,
        );
      }
    }
    return this.#passwords ?? new Set(this.#o.variables);
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
  #culprits(failed: readonly FailedStep[], read: LogRead | undefined): { title: string; tail: StepTail }[] {
    const tails = read?.tails ?? [];
    const out: { title: string; tail: StepTail }[] = [];
    for (const f of failed) {
      const tail = tails.find((t) => t.key === f.id);
      if (tail !== undefined) out.push({ title: f.name, tail });
    }
    const last = tails.at(-1);
    if (out.length === 0 && last !== undefined) out.push({ title: last.label, tail: last });
    return out;
  }

  /** The failed steps, each with its error and last lines; with `logs: on-failure` those lines printed now. */
  #explain(failed: readonly FailedStep[], culprits: readonly { title: string; tail: StepTail }[]): Block[] {
    const blocks: Block[] = [];
    if (failed.length > 0)
      blocks.push({ kind: 'table', title: 'Failed steps', headers: ['Step', 'Error'], rows: failed.map((f) => [f.name, f.error]) });
    for (const { title, tail } of culprits.slice(0, FAILED_SHOWN)) {
      blocks.push({ kind: 'lines', title: `Last lines of ${title}`, lines: tail.lines });
      if (this.#o.logs === 'on-failure') this.#printTail(title, tail);
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

function artifactBlocks(files: readonly Artifact[]): Block[] {
  if (files.length === 0) return [{ kind: 'note', text: 'The build has no artifacts.' }];
  return [
    {
      kind: 'table',
      title: `Artifacts (${files.length})`,
      headers: ['File', 'Size', 'Link'],
      rows: files.slice(0, 200).map((f) => [f.path, f.size === null ? '' : formatSize(f.size), f.url === '' ? '' : { url: f.url }]),
    },
  ];
}

/** The start parameters the build's model declares as passwords (the trigger container's params of type PASSWORD). */
export function passwordParams(detail: BuildDetail): Set<string> {
  const names = new Set<string>();
  for (const st of detail.model?.stages ?? [])
    for (const c of st.containers ?? []) for (const p of c.params ?? []) if (p.id && p.type?.toUpperCase() === 'PASSWORD') names.add(p.id);
  return names;
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
export const reportOptions = (t: ReportInputs): ReportOptions => ({
  logs: t.logs,
  variables: t.variables ?? [],
  maskVariables: t['mask-variables'] ?? [],
  artifacts: t.artifacts,
  diagnostics: t.check === true,
});

/**
 * The steps that failed: from the build's model (each step FAILED, or a review REVIEW_ABORT, with
 * its error), else from the errorInfoList of its status.
 */
export function failedSteps(detail: BuildDetail | undefined, last: BuildStatus | undefined): FailedStep[] {
  const fromModel: FailedStep[] = [];
  for (const st of (detail?.model?.stages ?? []).slice(1))
    for (const job of st.containers ?? [])
      for (const el of job.elements ?? [])
        if (el.id && (el.status === 'FAILED' || el.status === 'REVIEW_ABORT'))
          fromModel.push({
            id: el.id,
            name: job.name && el.name ? `${job.name} › ${el.name}` : (el.name ?? el.id),
            error: `${el.errorCode ? `${el.errorCode}: ` : ''}${el.errorMsg ?? el.status}`,
          });
  return fromModel.length > 0 ? fromModel : failedStepsOf(last?.errorInfoList);
}

/** The failed steps bk-ci's status names (its errorInfoList), each with its elementId when it gives one. */
export function failedStepsOf(errors: readonly unknown[] | null | undefined): FailedStep[] {
  const info = z.looseObject({
    taskId: z.string().nullish(),
    taskName: z.string().nullish(),
    errorCode: z.number().nullish(),
    errorMsg: z.string().nullish(),
  });
  return (errors ?? []).flatMap((e) => {
    const p = info.safeParse(e);
    if (!p.success) return [];
    const { taskId, taskName, errorCode, errorMsg } = p.data;
    return [{ id: taskId ?? '', name: taskName ?? taskId ?? 'a step', error: `${errorCode ? `${errorCode}: ` : ''}${errorMsg ?? ''}` }];
  });
}
