import { type Clock, systemClock } from './base/clock.ts';
import { formatElapsed } from './base/duration.ts';
import { errorMessage, factsOf, InputError, LocalError, OperationError, statusOf } from './base/errors.ts';
import type { Log } from './base/log.ts';
import type { Outcome } from './base/outcome.ts';
import { cut } from './base/text.ts';
import { type Connection, connect } from './bkci/connect.ts';
import type { TokenSource } from './bkci/tokens.ts';
import { nodeTransport } from './http/node-transport.ts';
import { proxyConfigured, proxyProblem, proxyTransport } from './http/proxy-transport.ts';
import type { Transport } from './http/transport.ts';
import { ignoredWarning, prepareStep, type Step } from './operations/prepare-step.ts';
import { isOperationName, SECRET_INPUT_NAMES } from './operations/registry.ts';
import { workflowContext } from './runner/context.ts';
import { DataFile } from './runner/data-output.ts';
import { type Lifecycle, startLifecycle } from './runner/lifecycle.ts';
import { outputValue } from './runner/outputs.ts';
import { Secrets } from './runner/secrets.ts';
import { guardProcessOutput, releaseHeld, scrubStreams } from './runner/streams.ts';
import { renderSummary } from './runner/summary.ts';
import * as core from './runner/workflow-commands.ts';

/** The error annotation: server text in it is bounded (outputs are, in runner/outputs.ts). */
const ANNOTATION_LIMIT = 8000;

/** action.yml's runs.using; older runtimes lack what the action uses (JSON.rawJSON, among others). */
const NODE_MAJOR = 24;

export interface RunOptions {
  /** How requests are sent; by default node:http, or undici's agent behind a proxy. */
  transport?: Transport;
  clock?: Clock;
  random?: () => number;
  /** Where inputs come from; the runner's INPUT_<NAME> variables by default. */
  getInput?: (name: string) => string;
  /** The environment the proxy variables and the runner's INPUT_ variables (to find inputs the action does not know) are read from. */
  env?: NodeJS.ProcessEnv;
  /**
   * Whether the step is this process (the default), so that an error nobody caught ends it; a
   * test running run() in its own process says false, and only the streams are guarded.
   */
  ownsProcess?: boolean;
}

/** The step: inputs once, one operation, outputs and summary, and the only setFailed. */
export async function run(options: RunOptions = {}): Promise<void> {
  if (Number(process.versions.node.split('.')[0]) < NODE_MAJOR) {
    core.setFailed(
      `bk-ci action needs Node ${NODE_MAJOR} or newer (runs.using: node${NODE_MAJOR} in its action.yml), but this step runs on Node ${process.version}: update the runner, or run the action with Node ${NODE_MAJOR}.`,
    );
    return;
  }
  const clock = options.clock ?? systemClock;
  const getInput = options.getInput ?? core.getInput;
  const env = options.env ?? process.env;
  const start = clock.now();
  // Before anything else can write: every line either stream carries passes the one writer.
  const ownsProcess = options.ownsProcess ?? true;
  guardProcessOutput(ownsProcess);
  const secrets = new Secrets((v) => core.setSecret(v));
  scrubStreams(secrets);
  // Masked before anything at all is printed, input errors included.
  for (const name of SECRET_INPUT_NAMES) secrets.add(getInput(name));
  const log = stepLog(secrets);
  // Named in the failure and the summary even when the other inputs are wrong.
  const asked = getInput('operation');
  const operation = isOperationName(asked) ? asked : 'action';
  const life = startLifecycle({
    ownsProcess,
    onSignal: (signal) => log.info(`received ${signal}: stopping`),
    // Node ends a process with nothing left to wait on, run() settled or not, and with exit
    // code 0: a step whose operation never finished would pass. It fails instead.
    onUnsettled: () =>
      core.setFailed(
        `bk-ci ${operation} failed: the action stopped before its operation finished, with nothing left to wait for. This is a bug in the action; a request it sent may have been applied.`,
      ),
  });
  const state: StepState = { operation, baseUrl: getInput('base-url'), finished: false, close: () => undefined };
  // Opened when written: a list answer's items go to it as they arrive.
  // Scrubbed inside its strings, with the step's own credentials only: it stays the JSON bk-ci sent.
  const dataFile = new DataFile(operation, env.RUNNER_TEMP, (text) => secrets.redactOwnJson(text));
  const world: World = { options, getInput, env, clock, start, secrets, log, life, dataFile };
  try {
    await runStep(world, state);
  } catch (error) {
    await reportFailure(world, state, error);
  } finally {
    dataFile.abandon();
    await Promise.resolve(state.close()).catch(() => undefined);
    life.close();
    // What another's text left held back (it may have begun a secret) goes out with the step's end.
    releaseHeld();
  }
}

/** What run() has made before the operation starts, handed to its parts. */
interface World {
  options: RunOptions;
  getInput: (name: string) => string;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  start: number;
  secrets: Secrets;
  log: Log;
  life: Lifecycle;
  dataFile: DataFile;
}

/** What is known of the step as it goes: read again when it fails. */
interface StepState {
  operation: string;
  baseUrl: string;
  step?: Step;
  connection?: Connection;
  outcome?: Outcome;
  /** Set once the operation has ended well: what fails after it is the runner's side, never the server's. */
  finished: boolean;
  close: () => Promise<void> | void;
}

/** The step's log: secrets out before a long line is cut, so no part of one survives; the writer then keeps each line from starting a runner command. */
function stepLog(secrets: Secrets): Log {
  const clean = (m: string): string => cut(secrets.redact(m), 20_000);
  return {
    debug: (m) => core.debug(clean(m)),
    info: (m) => core.info(clean(m)),
    warning: (m) => core.warning(clean(m)),
    group: (title) => core.startGroup(clean(title)),
    endGroup: () => core.endGroup(),
  };
}

/** Inputs → connection → the operation → outputs and summary. */
async function runStep(world: World, state: StepState): Promise<void> {
  const step = await prepareStep(world.getInput, Object.keys(world.env));
  state.step = step;
  if (step.ignored.length > 0) world.log.warning(ignoredWarning(step.operation, step.ignored));
  for (const note of step.notes) world.log.warning(note);
  const proxy = proxyProblem(world.env);
  if (proxy !== undefined) throw new InputError([proxy]);
  const { settings, job } = step;
  let transport = world.options.transport;
  if (transport === undefined) {
    const opened = proxyConfigured(world.env) ? await proxyTransport() : nodeTransport({ keepAliveMs: job.waits ? 60_000 : 5000 });
    transport = opened.transport;
    state.close = opened.close;
  }
  const common = { clock: world.clock, log: world.log, secrets: world.secrets, signal: world.life.signal };
  const connection = connect({
    ...settings,
    ...common,
    deadline: world.start + settings.timeoutMs,
    transport,
    random: world.options.random ?? Math.random,
  });
  state.connection = connection;
  const outcome = await job.run({
    ...connection,
    ...common,
    settings,
    start: world.start,
    workflow: workflowContext(world.env),
    env: world.env,
    dataFile: world.dataFile,
    holdExit: world.life.holdExit,
  });
  state.outcome = outcome;
  state.finished = true;
  world.log.info(outcome.headline);
  setOutputs(step.outputs, outcome, connection.tokens, world.secrets, world.dataFile);
  // The summary is how the work is shown, not the work: one that cannot be written is a warning.
  await writeSummary(state, true, outcome, world.secrets).catch((error: unknown) =>
    world.log.warning(`the job summary could not be written: ${errorMessage(error)}`),
  );
}

/** The failure said once, with what was done before it; outputs and the summary written with what is known. */
async function reportFailure(world: World, state: StepState, error: unknown): Promise<void> {
  const outcome = error instanceof OperationError ? error.outcome : state.outcome;
  let message = errorMessage(error);
  if (world.life.signal.aborted && !(error instanceof OperationError)) {
    message = `cancelled after ${formatElapsed(world.clock.now() - world.start)}`;
    // The write on its way is found through every wrapper around the cancel.
    const { inFlight } = factsOf(error);
    if (inFlight !== undefined)
      message += ` while ${inFlight} was on its way: bk-ci may have applied it; check before running the step again`;
  }
  if (error instanceof InputError) message = `${message}\nNo request was sent.`;
  // Work done on the server is said first, whatever failed after it.
  const done = outcome?.done ?? (state.finished && error instanceof LocalError ? outcome?.headline : undefined);
  if (done !== undefined) message = `${done}, but ${message}`;
  try {
    if (state.connection !== undefined)
      setOutputs(state.step?.outputs ?? [], outcome, state.connection.tokens, world.secrets, world.dataFile, error);
    await writeSummary(state, false, outcome, world.secrets, message);
  } catch (inner) {
    world.log.warning(`could not write outputs or the summary: ${errorMessage(inner)}`);
  }
  // Secrets out first, then cut: no part of one survives the cut.
  core.setFailed(cut(world.secrets.redact(`bk-ci ${state.operation} failed: ${message}`), ANNOTATION_LIMIT));
}

/**
 * What is known: the HTTP status (the failure's own, else the last call's), the user, and the
 * outcome's outputs (those `names` the operation has) and data. Outputs carry server text too, so
 * the step's own credentials it echoes are taken out (runner/outputs.ts); get-token's access-token
 * is the one output that is a secret by design (masked when it arrived).
 */
function setOutputs(
  names: readonly string[],
  outcome: Outcome | undefined,
  tokens: TokenSource,
  secrets: Secrets,
  dataFile: DataFile,
  error?: unknown,
): void {
  core.setOutput('http-status', String(statusOf(error) ?? outcome?.status ?? ''));
  const user = outcome?.user ?? tokens.user;
  if (user !== undefined)
    core.setOutput(
      'user-id',
      outputValue('user-id', user, secrets, (m) => core.warning(m)),
    );
  if (outcome === undefined) return;
  for (const name of names) {
    const value: string | undefined = outcome.outputs[name];
    if (value !== undefined)
      core.setOutput(
        name,
        outputValue(name, value, secrets, (m) => core.warning(m)),
      );
  }
  if ('data' in outcome) {
    // The operation's list went to the file as it arrived; any other data is written now.
    const { file, inline } = outcome.data === dataFile ? dataFile.endList() : dataFile.write(outcome.data);
    core.setOutput('data-file', file);
    if (inline !== undefined) core.setOutput('data', inline);
    else
      core.warning(`the result is larger than 1 MiB, so the data output is empty; read it from the file in the data-file output (${file})`);
  }
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
};

async function writeSummary(state: StepState, ok: boolean, outcome: Outcome | undefined, secrets: Secrets, error?: string): Promise<void> {
  const { step } = state;
  const md = renderSummary({
    operation: state.operation,
    host: hostOf(step?.settings.baseUrl ?? state.baseUrl),
    asked: step === undefined ? [] : step.job.describe(step.settings),
    ok,
    headline: outcome?.headline ?? (ok ? 'done' : 'failed'),
    blocks: outcome?.blocks ?? [],
    ...(error === undefined ? {} : { error }),
    scrub: (text) => secrets.redact(text),
  });
  await core.appendSummary(md);
}
