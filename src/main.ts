import { type Clock, systemClock } from './base/clock.ts';
import { formatElapsed } from './base/duration.ts';
import { CancelledError, errorMessage, InputError, LocalError, OperationError, statusOf } from './base/errors.ts';
import type { Log } from './base/log.ts';
import type { Outcome } from './base/outcome.ts';
import { cut } from './base/text.ts';
import { type Connection, connect } from './bkci/connect.ts';
import type { TokenSource } from './bkci/tokens.ts';
import { nodeTransport, proxyConfigured, proxyProblem, proxyTransport, type Transport } from './http/transport.ts';
import { ignoredWarning, isOperationName, prepareStep, SECRET_INPUT_NAMES, type Step } from './operations/registry.ts';
import { workflowContext } from './runner/context.ts';
import { DataFile } from './runner/data-output.ts';
import { Secrets } from './runner/secrets.ts';
import { guardProcessOutput, scrubStreams } from './runner/streams.ts';
import { renderSummary } from './runner/summary.ts';
import * as core from './runner/workflow-commands.ts';

/** The runner sends SIGTERM 7.5 s after SIGINT; a cancelled step is gone well before that. */
const CANCEL_EXIT_MS = 1800;
/** The most an operation may hold the exit after a cancel (holdExit), inside the runner's 7.5 s. */
const MAX_HOLD_MS = 6900;

/** The error annotation, and each output but data (which has data-file behind it): server text in them is bounded. */
const ANNOTATION_LIMIT = 8000;
const OUTPUT_LIMIT = 64 * 1024;

/** action.yml's runs.using; older runtimes lack what the action uses (JSON.rawJSON, among others). */
const NODE_MAJOR = 24;

export interface RunOptions {
  /** How requests are sent; by default node:http, or undici's agent behind a proxy. */
  transport?: Transport;
  clock?: Clock;
  random?: () => number;
  /** Where inputs come from; the runner's INPUT_<NAME> variables by default. */
  getInput?: (name: string) => string;
  /** The environment the proxy variables are read from. */
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
  // Node ends a process with nothing left to wait on, run() settled or not, and with exit code 0:
  // a step whose operation never finished would pass. It fails instead.
  let settled = false;
  const unsettled = (): void => {
    if (!settled)
      core.setFailed(
        `bk-ci ${operation} failed: the action stopped before its operation finished, with nothing left to wait for. This is a bug in the action; a request it sent may have been applied.`,
      );
  };
  if (ownsProcess) process.once('beforeExit', unsettled);
  const secrets = new Secrets((v) => core.setSecret(v));
  scrubStreams((text) => secrets.redact(text));
  // Masked before anything at all is printed, input errors included.
  for (const name of SECRET_INPUT_NAMES) secrets.add(getInput(name));
  // Secrets out before a long line is cut, so no part of one survives; the writer then keeps
  // each line from starting a runner command.
  const clean = (m: string): string => cut(secrets.redact(m), 20_000);
  const log: Log = {
    debug: (m) => core.debug(clean(m)),
    info: (m) => core.info(clean(m)),
    warning: (m) => core.warning(clean(m)),
    group: (title) => core.startGroup(clean(title)),
    endGroup: () => core.endGroup(),
  };
  const cancel = new AbortController();
  // A backstop: the step exits this long after the first signal, whatever is still under way.
  let exitAfterMs = CANCEL_EXIT_MS;
  let signalledAt: number | undefined;
  let exitTimer: NodeJS.Timeout | undefined;
  const armExit = (): void => {
    if (signalledAt === undefined) return;
    clearTimeout(exitTimer);
    exitTimer = setTimeout(() => process.exit(1), Math.max(0, signalledAt + exitAfterMs - Date.now())).unref();
  };
  const holdExit = (ms: number): (() => void) => {
    exitAfterMs = Math.max(exitAfterMs, Math.min(ms, MAX_HOLD_MS));
    armExit();
    // Released before any signal: a later cancel gets the short backstop again.
    return () => {
      if (signalledAt === undefined) exitAfterMs = CANCEL_EXIT_MS;
    };
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    if (cancel.signal.aborted) return;
    log.info(`received ${signal}: stopping`);
    signalledAt = Date.now();
    cancel.abort();
    armExit();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let closeTransport = (): Promise<void> | void => undefined;
  // Named in the failure and the summary even when the other inputs are wrong.
  const asked = getInput('operation');
  const operation = isOperationName(asked) ? asked : 'action';
  const baseUrl = getInput('base-url');

  let step: Step | undefined;
  let connection: Connection | undefined;
  let outcome: Outcome | undefined;
  /** Set once the operation has ended well: what fails after it is the runner's side, never the server's. */
  let finished = false;
  // Opened when written: a list answer's items go to it as they arrive.
  const dataFile = new DataFile(operation, process.env.RUNNER_TEMP, (text) => secrets.redact(text));
  try {
    step = await prepareStep(getInput);
    if (step.ignored.length > 0) log.warning(ignoredWarning(step.operation, step.ignored));
    for (const note of step.notes) log.warning(note);
    const proxy = proxyProblem(env);
    if (proxy !== undefined) throw new InputError([proxy]);
    const { settings, job } = step;
    let transport = options.transport;
    if (transport === undefined) {
      const opened = proxyConfigured(env) ? await proxyTransport() : nodeTransport({ keepAliveMs: job.waits ? 60_000 : 5000 });
      transport = opened.transport;
      closeTransport = opened.close;
    }
    connection = connect({
      ...settings,
      deadline: start + settings.timeoutMs,
      transport,
      clock,
      random: options.random ?? Math.random,
      log,
      secrets,
      signal: cancel.signal,
    });
    outcome = await job.run({
      ...connection,
      settings,
      clock,
      log,
      signal: cancel.signal,
      start,
      workflow: workflowContext(env),
      env,
      dataFile,
      secrets,
      holdExit,
    });
    finished = true;
    log.info(outcome.headline);
    setOutputs(step.outputs, outcome, connection.tokens, secrets, dataFile);
    await writeSummary(operation, baseUrl, step, true, outcome, secrets);
  } catch (e) {
    if (e instanceof OperationError) outcome = e.outcome;
    let message = errorMessage(e);
    if (cancel.signal.aborted && !(e instanceof OperationError)) {
      message = `cancelled after ${formatElapsed(clock.now() - start)}`;
      if (e instanceof CancelledError && e.inFlight !== undefined)
        message += ` while ${e.inFlight} was on its way: bk-ci may have applied it; check before running the step again`;
    }
    if (e instanceof InputError) message = `${message}\nNo request was sent.`;
    // Work done on the server is said first, whatever failed after it.
    const done = outcome?.done ?? (finished && e instanceof LocalError ? outcome?.headline : undefined);
    if (done !== undefined) message = `${done}, but ${message}`;
    try {
      if (connection !== undefined) setOutputs(step?.outputs ?? [], outcome, connection.tokens, secrets, dataFile, e);
      await writeSummary(operation, baseUrl, step, false, outcome, secrets, message);
    } catch (inner) {
      log.warning(`could not write outputs or the summary: ${errorMessage(inner)}`);
    }
    // Secrets out first, then cut: no part of one survives the cut.
    core.setFailed(cut(secrets.redact(`bk-ci ${operation} failed: ${message}`), ANNOTATION_LIMIT));
  } finally {
    dataFile.abandon();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await Promise.resolve(closeTransport()).catch(() => undefined);
    settled = true;
    process.off('beforeExit', unsettled);
  }
}

/**
 * What is known: the HTTP status (the failure's own, else the last call's), the user, and the
 * outcome's outputs (those `names` the operation has) and data. Outputs carry server text too, so a secret it echoes is scrubbed;
 * get-token's access-token is the one output that is a secret by design (masked when it arrived).
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
  if (user !== undefined) core.setOutput('user-id', user);
  if (outcome === undefined) return;
  for (const name of names) {
    const value: string | undefined = outcome.outputs[name];
    // access-token and variables are secrets by design, masked when they arrived (variables with the step's own secrets
    // taken out then, whole: a cut would leave no JSON); every other output scrubbed and bounded.
    if (value !== undefined)
      core.setOutput(name, name === 'access-token' || name === 'variables' ? value : cut(secrets.redactOwn(value), OUTPUT_LIMIT));
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

async function writeSummary(
  operation: string,
  baseUrl: string,
  step: Step | undefined,
  ok: boolean,
  outcome: Outcome | undefined,
  secrets: Secrets,
  error?: string,
): Promise<void> {
  const md = renderSummary({
    operation,
    host: hostOf(step?.settings.baseUrl ?? baseUrl),
    asked: step === undefined ? [] : step.job.describe(step.settings),
    ok,
    headline: outcome?.headline ?? (ok ? 'done' : 'failed'),
    blocks: outcome?.blocks ?? [],
    ...(error === undefined ? {} : { error }),
    scrub: (text) => secrets.redact(text),
  });
  await core.appendSummary(md);
}
