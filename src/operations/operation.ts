// What an operation is: one module that declares its inputs (with their rules), the endpoints it
// calls on each gateway, its outputs, how it describes itself, whether it waits, and how it runs.
import type { Clock } from '../base/clock.ts';
import { formatDuration } from '../base/duration.ts';
import type { Log } from '../base/log.ts';
import type { Outcome } from '../base/outcome.ts';
import { z } from '../base/schema.ts';
import type { BkciApi } from '../bkci/client.ts';
import type { Endpoint } from '../bkci/routes.ts';
import type { TokenSource } from '../bkci/tokens.ts';
import type { Settings } from '../inputs/settings.ts';
import type { WorkflowContext } from '../runner/context.ts';
import type { DataFile } from '../runner/data-output.ts';
import type { Secrets } from '../runner/secrets.ts';

/** What an operation runs with. */
export interface Context {
  api: BkciApi;
  tokens: TokenSource;
  settings: Settings;
  clock: Clock;
  log: Log;
  /** Aborted when the job is cancelled. */
  signal: AbortSignal;
  /** When the step started (by `clock`); the deadline is start + timeout. */
  start: number;
  /** The workflow's commit, outside GitHub Actions undefined. */
  workflow?: WorkflowContext | undefined;
  /** The step's environment (GITHUB_API_URL, GITHUB_EVENT_PATH, …): what the GitHub check run reads. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Where the `data` output goes: a list can be written to it as it arrives, and returned as `data`. */
  dataFile: DataFile;
  /** Every secret of the step: a value that turns out to be one (a build variable) is added before it is shown. */
  secrets: Secrets;
  /**
   * The step needs up to this long after a cancel signal to finish what it owes (stopping a build
   * whose start was in flight); by default it exits soon after the signal. Capped below the
   * runner's 7.5 s grace period. The function it returns ends the hold (once nothing is owed).
   */
  holdExit(ms: number): () => void;
}

/** The inputs as the runner gives them: each set input's text, trimmed; unset ones absent. */
type RawInputs = Readonly<Record<string, string | undefined>>;

// biome-ignore lint/suspicious/noExplicitAny: a zod object of any shape; its output type is what matters.
type InputsSchema = z.ZodObject<any>;

export interface OperationSpec<S extends InputsSchema, O extends string> {
  /**
   * The inputs it reads besides the shared settings, with their cross-field rules (superRefine).
   * Their names and defaults are declared in the registry too, which knows them before this loads.
   */
  inputs: S;
  /** Every endpoint it may call; a gateway that publishes none of one cannot run it. */
  endpoints: readonly Endpoint[];
  /** Its own outputs, besides the common ones. */
  outputs: readonly O[];
  /** `issued`: it needs a token from the token endpoint (bk-token), not a given one. */
  credentials: 'any' | 'issued';
  /** What the step was asked to do, for the summary: never a secret. */
  describe(task: z.output<S>, settings: Settings): [string, string][];
  /** Whether it polls, which keeps its connection open between requests. */
  waits(task: z.output<S>): boolean;
  /** Problems of its inputs with the shared settings (each naming its input), checked before any request. */
  check?(task: z.output<S>, settings: Settings): string[];
  run(task: z.output<S>, ctx: Context): Promise<Outcome<O>>;
}

/** A prepared run: the task's inputs are parsed and checked; what is left needs the connection. */
export interface Job {
  /** The operation's inputs as parsed. */
  readonly task: unknown;
  describe(settings: Settings): [string, string][];
  check(settings: Settings): string[];
  waits: boolean;
  run(ctx: Context): Promise<Outcome>;
}

/**
 * An operation, its inputs' types closed over: what the registry loads when the step runs it.
 * `N` is its inputs' names; the registry's declaration must name the same, no more and no fewer.
 */
export interface Operation<N extends string = string> {
  readonly inputNames: readonly N[];
  /** Its inputs' defaults as text, as action.yml gives them to the runner (which fills them in). */
  readonly inputDefaults: Readonly<Record<string, string>>;
  /** Never set: it makes `N` exact (a name both taken and given), so a declaration that misses an input does not compile. */
  readonly exactNames?: (name: N) => N;
  readonly endpoints: readonly Endpoint[];
  readonly outputs: readonly string[];
  readonly credentials: 'any' | 'issued';
  /** Parses and checks its inputs: the problems (each naming its input), or a job to run. */
  prepare(raw: RawInputs, name: string): Promise<{ problems: string[] } | { job: Job }>;
}

export function defineOperation<S extends InputsSchema, O extends string = never>(
  spec: OperationSpec<S, O>,
): Operation<keyof S['shape'] & string> {
  return {
    // Object.keys is typed string[] whatever the object; these are the shape's own keys.
    inputNames: Object.keys(spec.inputs.shape) as (keyof S['shape'] & string)[],
    inputDefaults: defaultsOf(spec.inputs),
    endpoints: spec.endpoints,
    outputs: spec.outputs,
    credentials: spec.credentials,
    async prepare(raw, name) {
      const parsed = await spec.inputs.safeParseAsync(raw);
      if (!parsed.success)
        return {
          problems: parsed.error.issues.map((issue) =>
            issue.code === 'invalid_type' && issue.input === undefined && issue.path.length === 1
              ? `${String(issue.path[0])} is required for operation ${name}`
              : issue.message,
          ),
        };
      const task = parsed.data;
      return {
        job: {
          task,
          describe: (settings) => spec.describe(task, settings),
          check: (settings) => spec.check?.(task, settings) ?? [],
          waits: spec.waits(task),
          run: (ctx) => spec.run(task, ctx),
        },
      };
    },
  };
}

/** The default of each input that has one, as the text action.yml would give for it. */
function defaultsOf(inputs: InputsSchema): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, field] of Object.entries<z.ZodType>(inputs.shape))
    if (field instanceof z.ZodDefault) out[name] = String(field.def.defaultValue);
  return out;
}

/** The `wait` row of what a step was asked, said one way by every operation that waits. */
export const waitRow = (wait: boolean, timeoutMs: number): [string, string] => [
  'wait',
  wait ? `yes, up to ${formatDuration(timeoutMs)}` : 'no',
];
