// The build's variables a later step asks for: each secret value masked before anything can print
// it — while the build runs as soon as it is known secret (bk-ci's status carries every variable,
// raw, and declares which start parameters are passwords), and once it has ended when they are read
// with build_variables, before any line of its log read after the end is printed. Facts:
// docs/bkci/artifacts-and-variables.md (values come back raw, secrets included; an unknown name reads as "").
import type { Clock } from '../base/clock.ts';
import { CancelledError, errorMessage } from '../base/errors.ts';
import type { Log } from '../base/log.ts';
import { type BuildDetail, type BuildRef, type BuildStatus, readBuildDetail } from '../bkci/builds.ts';
import { readVariables } from '../bkci/variables.ts';
import type { Secrets } from '../runner/secrets.ts';
import type { SideReads } from './side-reads.ts';
import { type MaskAsk, maskPlan, refusedWarning } from './variable-masks.ts';

/** The variables as read at the build's end, or why they could not be. */
export type VariablesRead = { values: Record<string, string> } | { problem: string };

/** What the variables need of the step: the reads beside the wait, the secrets the masks join, the log, the clock. */
export interface VariablesContext {
  reads: SideReads;
  secrets: Secrets;
  log: Log;
  clock: Clock;
}

/** The variables a later step asks for, by name, and those to mask besides the secret ones (`mask-variables`). */
export class BuildVariables {
  readonly #ctx: VariablesContext;
  readonly #build: BuildRef;
  readonly #names: readonly string[];
  readonly #listed: readonly string[];
  /** The start parameters the pipeline declares passwords, once its model was read. */
  #passwords: Set<string> | undefined;
  #read: Promise<VariablesRead> | undefined;
  #readMs = 0;

  constructor(ctx: VariablesContext, build: BuildRef, names: readonly string[], listed: readonly string[]) {
    this.#ctx = ctx;
    this.#build = build;
    this.#names = names;
    this.#listed = listed;
  }

  /** Learns from the build's model which start parameters are passwords. */
  learn(detail: BuildDetail): void {
    this.#passwords = passwordParams(detail);
  }

  /**
   * Masks what a status shows of the build's variables, whichever a later step asks for: each one
   * the mask plan calls secret (variable-masks.ts: a password-type parameter, a name in
   * `mask-variables` or `*`, a credential-shaped value). The status declares each parameter's type
   * itself (`buildParameters`), so a model that cannot be read leaves no password printable.
   * Nothing is said here: the end says what is not masked.
   */
  see(status: BuildStatus): void {
    const shown = status.variables;
    if (shown === null || shown === undefined) return;
    const passwords = new Set(this.#passwords);
    for (const param of status.buildParameters ?? []) if (param.valueType?.toUpperCase() === 'PASSWORD') passwords.add(param.key);
    const values: Record<string, string> = {};
    for (const [name, value] of Object.entries(shown)) if (typeof value === 'string') values[name] = value;
    maskSecret(values, { passwords, listed: this.#listed }, this.#ctx.secrets);
  }

  /** The build ended: the variables are read now (once), every mask they call for registered. */
  async ended(): Promise<void> {
    if (this.#names.length === 0 || this.#read !== undefined) return;
    const from = this.#ctx.clock.now();
    this.#read = this.#readMasked();
    await this.#read;
    this.#readMs = this.#ctx.clock.now() - from;
  }

  /** How long reading them at the end took. */
  get readMs(): number {
    return this.#readMs;
  }

  /** What reading them at the end came to; undefined when none are asked for. */
  async atEnd(): Promise<VariablesRead | undefined> {
    await this.ended();
    return this.#read;
  }

  /** The values asked for, their secret ones masked; or why they could not be read. */
  async #readMasked(): Promise<VariablesRead> {
    const { reads, secrets, log } = this.#ctx;
    try {
      // The model first, on a budget of its own: a model that hangs costs the masks' knowledge, not the variables.
      const ask = { passwords: await this.#passwordNames(), listed: this.#listed };
      const values = await readVariables(reads.read('variables'), this.#build, this.#names);
      maskSecret(values, ask, secrets, log);
      return { values };
    } catch (e) {
      return { problem: `reading the build's variables (${this.#names.join(', ')}) failed: ${errorMessage(e)}` };
    }
  }

  /**
   * The password parameters, from the model read during the wait or read now. A model that cannot
   * be read leaves them unknown: every variable that can be masked is then, and the step says so.
   */
  async #passwordNames(): Promise<ReadonlySet<string>> {
    if (this.#passwords === undefined) {
      try {
        this.learn((await readBuildDetail(this.#ctx.reads.read('model'), this.#build)).data);
      } catch (e) {
        if (e instanceof CancelledError) throw e;
        this.#ctx.log.warning(
          `could not read the build's model (build_detail) to learn which parameters are passwords, so every variable output is masked, unless too short or common to mask: ${errorMessage(e)}`,
        );
      }
    }
    return this.#passwords ?? new Set(this.#names);
  }
}

/**
 * Masks the values that are secret (see variable-masks.ts) at once, before anything can print
 * them; with `log`, says which asked-for ones are not masked. The values are the step's to output
 * as they are: masking protects the log only.
 */
function maskSecret(values: Readonly<Record<string, string>>, ask: MaskAsk, secrets: Secrets, log?: Log): void {
  const plan = maskPlan(values, ask);
  for (const name of plan.masked) secrets.add(values[name], { own: false });
  if (log !== undefined && plan.refused.length > 0) log.warning(refusedWarning(plan.refused));
}

/** The start parameters the build's model declares as passwords (the trigger container's params of type PASSWORD). */
function passwordParams(detail: BuildDetail): Set<string> {
  const names = new Set<string>();
  for (const stage of detail.model?.stages ?? [])
    for (const job of stage.containers ?? [])
      for (const param of job.params ?? []) if (param.id && param.type?.toUpperCase() === 'PASSWORD') names.add(param.id);
  return names;
}
