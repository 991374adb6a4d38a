import type { TokenSource } from './auth.ts';
import { type Clock, systemClock } from './clock.ts';
import { connect } from './connect.ts';
import { writeData } from './data-output.ts';
import { formatDuration } from './duration.ts';
import type { BkciApi } from './http/api.ts';
import type { HttpCaller } from './http/caller.ts';
import { statusOf } from './http/errors.ts';
import { nodeTransport, proxyConfigured, proxyProblem, proxyTransport, type Transport } from './http/transport.ts';
import { InputError, type InputName, type Inputs, OPERATIONS, parseInputs } from './inputs.ts';
import type { Log } from './log.ts';
import { errorMessage, OperationError, type Outcome } from './outcome.ts';
import { OUTPUT_NAMES, type OutputName } from './output-names.ts';
import { describeTask, perform } from './perform.ts';
import { Secrets } from './redact.ts';
import { renderSummary } from './summary.ts';
import { cut } from './text.ts';
import * as core from './workflow-commands.ts';

/** The runner sends SIGTERM 7.5 s after SIGINT; a cancelled step is gone well before that. */
const CANCEL_EXIT_MS = 1800;

export interface RunOptions {
  /** How requests are sent; by default Node's fetch, or an undici agent for proxies and waits. */
  transport?: Transport;
  clock?: Clock;
  random?: () => number;
}

/** action.yml's runs.using; older runtimes lack what the action uses (JSON.rawJSON, among others). */
const NODE_MAJOR = 24;

/** The step: inputs once, one operation, outputs and summary, and the only setFailed. */
export async function run(options: RunOptions = {}): Promise<void> {
  if (Number(process.versions.node.split('.')[0]) < NODE_MAJOR) {
    core.setFailed(
      `bk-ci action needs Node ${NODE_MAJOR} or newer (runs.using: node${NODE_MAJOR} in its action.yml), but this step runs on Node ${process.version}: update the runner, or run the action with Node ${NODE_MAJOR}.`,
    );
    return;
  }
  const clock = options.clock ?? systemClock;
  const start = clock.now();
  const secrets = new Secrets((v) => core.setSecret(v));
  // Masked before anything at all is printed, parse errors included.
  for (const name of ['access-token', 'bk-token', 'secret-token'] as const satisfies readonly InputName[]) secrets.add(core.getInput(name));
  // Secrets out before a long line is cut, so no part of one survives; the writer then keeps
  // each line from starting a runner command.
  const clean = (m: string): string => cut(secrets.redact(m), 20_000);
  const log: Log = {
    debug: (m) => core.debug(clean(m)),
    info: (m) => core.info(clean(m)),
    warning: (m) => core.warning(clean(m)),
  };
  const cancel = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (cancel.signal.aborted) return;
    log.info(`received ${signal}: stopping`);
    cancel.abort();
    setTimeout(() => process.exit(1), CANCEL_EXIT_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let closeTransport = async (): Promise<void> => undefined;
  // Named in the failure and the summary even when the other inputs are wrong.
  const asked = core.getInput('operation');
  const operation = (OPERATIONS as readonly string[]).includes(asked) ? asked : 'action';

  let inputs: Inputs | undefined;
  let step: Step | undefined;
  let outcome: Outcome | undefined;
  try {
    inputs = await parseInputs((name) => core.getInput(name));
    const proxy = proxyProblem(process.env);
    if (proxy !== undefined) throw new InputError([proxy]);
    const { settings } = inputs;
    const deadline = start + settings.timeoutMs;
    let transport = options.transport;
    if (transport === undefined) {
      const opened = proxyConfigured(process.env) ? await proxyTransport() : nodeTransport();
      transport = opened.transport;
      closeTransport = async () => opened.close();
    }
    const connection = connect({
      ...settings,
      deadline,
      transport,
      clock,
      random: options.random ?? Math.random,
      log,
      secrets,
      signal: cancel.signal,
    });
    step = { inputs, secrets, ...connection };
    outcome = await perform(inputs.task, { ...connection, settings, clock, log, signal: cancel.signal, start });
    log.info(outcome.headline);
    await setOutputs(outcome, step);
    writeSummary(operation, inputs, true, outcome, secrets);
  } catch (e) {
    const cancelled = cancel.signal.aborted;
    if (e instanceof OperationError) outcome = e.outcome;
    let message = errorMessage(e);
    if (cancelled && !(e instanceof OperationError)) message = `cancelled after ${formatDuration(clock.now() - start)}`;
    if (e instanceof InputError) message = `${message}\nNo request was sent.`;
    if (outcome?.done !== undefined) message = `${outcome.done}, but ${message}`;
    try {
      if (step !== undefined) await setOutputs(outcome, step, e);
      writeSummary(operation, inputs, false, outcome, secrets, message);
    } catch (inner) {
      log.warning(`could not write outputs or the summary: ${errorMessage(inner)}`);
    }
    core.setFailed(secrets.redact(`bk-ci ${operation} failed: ${message}`));
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await closeTransport().catch(() => undefined);
  }
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
};

const setOutput = (name: OutputName, value: string): void => core.setOutput(name, value);

/**
 * Outputs carry server text too; a secret it echoes is scrubbed. get-token's access-token is
 * the one output that is a secret by design (masked when it arrived).
 */
function setScrubbedOutput(name: OutputName, value: string, secrets: Secrets): void {
  setOutput(name, name === 'access-token' ? value : secrets.redact(value));
}

/** What the step has built by the time it sets outputs. */
interface Step {
  inputs: Inputs;
  api: BkciApi;
  http: HttpCaller;
  tokens: TokenSource;
  secrets: Secrets;
}

/** What is known: the HTTP status (the failure's own, else the last seen), the user, the outcome's outputs. */
async function setOutputs(outcome: Outcome | undefined, { inputs, api, http, tokens, secrets }: Step, error?: unknown): Promise<void> {
  setOutput('http-status', String(statusOf(error) ?? api.lastStatus ?? http.lastStatus ?? ''));
  if (tokens.user !== undefined) setOutput('user-id', tokens.user);
  if (outcome === undefined) return;
  for (const name of OUTPUT_NAMES) {
    const value = outcome.outputs[name];
    if (value !== undefined) setScrubbedOutput(name, value, secrets);
  }
  if ('data' in outcome) {
    const { file, inline } = await writeData(outcome.data, inputs.task.operation, process.env.RUNNER_TEMP, (text) => secrets.redact(text));
    setOutput('data-file', file);
    if (inline !== undefined) setOutput('data', inline);
    else
      core.warning(`the result is larger than 1 MiB, so the data output is empty; read it from the file in the data-file output (${file})`);
  }
}

function writeSummary(
  operation: string,
  inputs: Inputs | undefined,
  ok: boolean,
  outcome: Outcome | undefined,
  secrets: Secrets,
  error?: string,
): void {
  const md = renderSummary({
    operation,
    host: hostOf(inputs?.settings.baseUrl ?? core.getInput('base-url')),
    asked: inputs === undefined ? [] : describeTask(inputs.task, inputs.settings),
    ok,
    headline: outcome?.headline ?? (ok ? 'done' : 'failed'),
    blocks: outcome?.blocks ?? [],
    ...(error === undefined ? {} : { error }),
    scrub: (text) => secrets.redact(text),
  });
  core.appendSummary(md);
}
