import type { TokenSource } from './auth.ts';
import { type Clock, systemClock } from './clock.ts';
import { connect } from './connect.ts';
import { writeData } from './data-output.ts';
import { formatDuration } from './duration.ts';
import type { BkciApi } from './http/api.ts';
import type { HttpCaller } from './http/caller.ts';
import { statusOf } from './http/errors.ts';
import { agentTransport, fetchTransport, proxyConfigured, type Transport } from './http/transport.ts';
import { InputError, type InputName, type Inputs, parseInputs } from './inputs.ts';
import type { Log } from './log.ts';
import { errorMessage, OperationError, type Outcome } from './outcome.ts';
import { OUTPUT_NAMES, type OutputName } from './output-names.ts';
import { describeTask, perform } from './perform.ts';
import { Secrets } from './redact.ts';
import { renderSummary } from './summary.ts';
import { plain } from './text.ts';
import * as core from './workflow-commands.ts';

/** The runner sends SIGTERM 7.5 s after SIGINT; a cancelled step is gone well before that. */
const CANCEL_EXIT_MS = 1800;

export interface RunOptions {
  /** How requests are sent; by default Node's fetch, or an undici agent for proxies and waits. */
  transport?: Transport;
  clock?: Clock;
  random?: () => number;
}

/** The step: inputs once, one operation, outputs and summary, and the only setFailed. */
export async function run(options: RunOptions = {}): Promise<void> {
  const clock = options.clock ?? systemClock;
  const start = clock.now();
  const secrets = new Secrets((v) => core.setSecret(v));
  // Masked before anything at all is printed, parse errors included.
  for (const name of ['access-token', 'bk-token', 'secret-token'] as const satisfies readonly InputName[]) secrets.add(core.getInput(name));
  // Every line the action logs passes here: secrets out, and server text it may hold (a project
  // name, a message) kept on one line that cannot start a workflow command.
  const clean = (m: string): string => plain(secrets.redact(m), 20_000);
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

  let inputs: Inputs | undefined;
  let http: HttpCaller | undefined;
  let api: BkciApi | undefined;
  let tokens: TokenSource | undefined;
  try {
    inputs = await parseInputs((name) => core.getInput(name));
    const { settings, task } = inputs;
    const deadline = start + settings.timeoutMs;
    let transport = options.transport ?? fetchTransport(globalThis.fetch);
    if (options.transport === undefined && (proxyConfigured(process.env) || (task.operation === 'sign-detail' && task.wait))) {
      const agent = await agentTransport();
      transport = agent.transport;
      closeTransport = agent.close;
    }
    ({ http, tokens, api } = connect({
      ...settings,
      deadline,
      transport,
      clock,
      random: options.random ?? Math.random,
      log,
      secrets,
      signal: cancel.signal,
    }));
    const outcome = await perform(task, { api, tokens, settings, clock, log, signal: cancel.signal, start });
    log.info(outcome.headline);
    await setOutputs(outcome, { inputs, api, http, tokens, secrets });
    writeSummary(inputs, true, outcome, secrets);
  } catch (e) {
    const cancelled = cancel.signal.aborted;
    const outcome = e instanceof OperationError ? e.outcome : undefined;
    let message = errorMessage(e);
    if (cancelled && !(e instanceof OperationError)) message = `cancelled after ${formatDuration(clock.now() - start)}`;
    if (e instanceof InputError) message = `${message}\nNo request was sent.`;
    if (inputs !== undefined) {
      try {
        if (outcome !== undefined && api !== undefined && http !== undefined && tokens !== undefined)
          await setOutputs(outcome, { inputs, api, http, tokens, secrets });
        else setOutput('http-status', String(statusOf(e) ?? api?.lastStatus ?? http?.lastStatus ?? ''));
        writeSummary(inputs, false, outcome, secrets, message);
      } catch (inner) {
        log.warning(`could not write outputs or the summary: ${errorMessage(inner)}`);
      }
    }
    core.setFailed(secrets.redact(`bk-ci ${inputs?.task.operation ?? 'action'} failed: ${message}`));
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await closeTransport().catch(() => undefined);
  }
}

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

async function setOutputs(outcome: Outcome, { inputs, api, http, tokens, secrets }: Step): Promise<void> {
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
  setOutput('http-status', String(api.lastStatus ?? http.lastStatus ?? ''));
  if (tokens.user !== undefined) setOutput('user-id', tokens.user);
}

function writeSummary(inputs: Inputs, ok: boolean, outcome: Outcome | undefined, secrets: Secrets, error?: string): void {
  const md = renderSummary({
    operation: inputs.task.operation,
    host: new URL(inputs.settings.baseUrl).host,
    asked: describeTask(inputs.task, inputs.settings),
    ok,
    headline: outcome?.headline ?? (ok ? 'done' : 'failed'),
    blocks: outcome?.blocks ?? [],
    ...(error === undefined ? {} : { error }),
    scrub: (text) => secrets.redact(text),
  });
  core.appendSummary(md);
}
