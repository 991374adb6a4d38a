// All of the step's inputs, read once, before anything is sent: the operation they ask for with
// its inputs parsed and checked, or every problem at once (the settings', the operation's own,
// and how they go together), and what the step says of them before it runs.

import { formatDuration } from '../base/duration.ts';
import { InputError } from '../base/errors.ts';
import type { Gateway } from '../bkci/routes.ts';
import { type Settings, settingsSchema } from '../inputs/settings.ts';
import { unknownInputs } from '../inputs/unknown.ts';
import type { Job, Operation } from './operation.ts';
import { type Declaration, INPUT_NAMES, isOperationName, OPERATION_NAMES, type OperationName, REGISTRY } from './registry.ts';

export interface Step {
  operation: OperationName;
  settings: Settings;
  job: Job;
  /** The operation's own outputs: what it may set besides the common ones. */
  outputs: readonly string[];
  /** Inputs that were given but that this operation does not read: warned about, never sent. */
  ignored: string[];
  /** What else the step says of its inputs before it runs: each a warning. */
  notes: string[];
}

/** Which operations read each input of their own (the shared settings aside). */
const READERS: ReadonlyMap<string, OperationName[]> = new Map(
  INPUT_NAMES.map((input) => [input, OPERATION_NAMES.filter((name) => Object.hasOwn(REGISTRY[name].inputs, input))]),
);
/**
 * action.yml's default of each input: the runner sets it whether the workflow gave it or not. An
 * input whose operations' defaults differ (wait) has none there: each operation applies its own.
 */
const RUNNER_DEFAULTS: ReadonlyMap<string, string> = new Map(
  [...READERS].flatMap(([input, readers]) => {
    const defaults = new Set(readers.map((name) => REGISTRY[name].inputs[input] ?? null));
    const [only] = defaults;
    return defaults.size === 1 && typeof only === 'string' ? [[input, only] as const] : [];
  }),
);

/**
 * Inputs the workflow gave that the operation does not read (`resign-id` for get-project): a
 * value at its action.yml default cannot be told from one the runner filled in, so it is not counted.
 */
function ignoredInputs(declared: Declaration, raw: Record<string, string | undefined>): string[] {
  return Object.entries(raw)
    .filter(([name, value]) => {
      const readers = READERS.get(name) ?? [];
      // A default that is an expression (github-token's `${{ github.token }}`) is filled in by the runner: never counted.
      const fallback = RUNNER_DEFAULTS.get(name);
      return readers.length > 0 && !Object.hasOwn(declared.inputs, name) && value !== fallback && !fallback?.startsWith('${{');
    })
    .map(([name]) => name);
}
/** The one warning about ignored inputs: each named, with the operations that read it. */
export function ignoredWarning(operation: string, ignored: readonly string[]): string {
  const each = ignored.map((name) => `${name} (read by ${(READERS.get(name) ?? []).join(', ')})`);
  return `operation ${operation} does not read ${ignored.length === 1 ? 'this input' : 'these inputs'}, so ${ignored.length === 1 ? 'it was' : 'they were'} ignored: ${each.join('; ')}. Remove ${ignored.length === 1 ? 'it' : 'them'}, or check the operation.`;
}

/**
 * All inputs, read once: the step to run, or an InputError that lists every problem (the
 * settings', the operation's own, and how they go together). Nothing is sent before this.
 */
export async function prepareStep(getInput: (name: string) => string, variables: readonly string[] = []): Promise<Step> {
  const raw = givenInputs(getInput);
  const operation = raw.operation;
  if (operation === undefined) throw new InputError(['operation is required']);
  if (!isOperationName(operation)) throw new InputError([`operation "${operation}" is not one of ${OPERATION_NAMES.join(', ')}`]);
  const declared: Declaration = REGISTRY[operation];
  const op = await declared.load();
  const settings = settingsSchema.safeParse(raw);
  const problems = settings.success ? [] : settings.error.issues.map(settingProblem);
  const unknown = unknownInputs(variables, {
    known: INPUT_NAMES,
    operation,
    reads: ['operation', ...Object.keys(settingsSchema.in.shape), ...Object.keys(declared.inputs)],
    given: new Set(Object.keys(raw)),
  });
  problems.push(...unknown.problems);
  const prepared = await op.prepare(raw, operation);
  if ('problems' in prepared) problems.push(...prepared.problems);
  if (settings.success)
    problems.push(...credentialProblems(operation, op, settings.data), ...gatewayProblems(operation, op, settings.data.gateway));
  if (settings.success && 'job' in prepared) problems.push(...prepared.job.check(settings.data));
  if (problems.length > 0 || !settings.success || !('job' in prepared)) throw new InputError(problems);
  return {
    operation,
    settings: settings.data,
    job: prepared.job,
    outputs: op.outputs,
    ignored: ignoredInputs(declared, raw),
    notes: [...unknown.warnings, ...unusedCredentials(settings.data), ...bareTimeout(raw.timeout)],
  };
}

/** Every input the workflow set (the runner gives an unset one as ""). */
function givenInputs(getInput: (name: string) => string): Record<string, string | undefined> {
  const raw: Record<string, string | undefined> = {};
  for (const name of INPUT_NAMES) {
    const value = getInput(name);
    if (value !== '') raw[name] = value;
  }
  return raw;
}

/** A shared setting's problem, in the words the action says it with. */
const settingProblem = (issue: { path: readonly PropertyKey[]; code: string; message: string }): string =>
  issue.path[0] === 'base-url' && issue.code === 'invalid_type' ? 'base-url is required, e.g. https://devops.example.com' : issue.message;

/** A gateway runs an operation only if it publishes every endpoint the operation may call. */
function gatewayProblems(name: string, op: Operation, gateway: Gateway): string[] {
  if (op.endpoints.every((endpoint) => endpoint.path[gateway] !== null)) return [];
  return [
    `operation ${name} is not published on the ${gateway} gateway${gateway === 'bk-apigateway' ? ': bk-ci publishes neither re-signing nor its token endpoint there; use gateway: bk-ci for it' : ''}`,
  ];
}

/**
 * From this many seconds on, a bare `timeout` may have been meant as minutes (as `timeout-minutes`
 * reads): below it, the wait ends at its first or second poll and the failure names the timeout,
 * so the reading cannot go unnoticed; from it on, a step may pass on one run and time out on the next.
 */
const BARE_TIMEOUT_WARNED_FROM_S = 10;

/** A bare number of seconds that may have been meant as minutes: how it was read, and how to write either. */
function bareTimeout(text: string | undefined): string[] {
  const written = text?.trim() ?? '';
  if (!/^\d+$/.test(written) || Number(written) < BARE_TIMEOUT_WARNED_FROM_S) return [];
  const seconds = Number(written);
  return [
    `timeout: ${written} has no unit, so it was read as ${seconds} seconds${seconds >= 60 ? ` (${formatDuration(seconds * 1000)})` : ''}; for ${seconds} minutes write timeout: ${seconds}m (unlike timeout-minutes, a bare number here is seconds), or write ${seconds}s to keep seconds and not see this warning`,
  ];
}

/**
 * A credential given beside one that takes its place is never sent: said once, since the step
 * would otherwise run as another than the workflow may think (bk-token wins on both gateways).
 */
function unusedCredentials(settings: Settings): string[] {
  if (settings.accessToken === undefined || settings.bkToken === undefined) return [];
  const used =
    settings.gateway === 'bk-apigateway'
      ? 'the gateway is given bk-token'
      : 'the token is issued from bk-token (and renewed when it runs out)';
  return [`access-token and bk-token are both set: ${used}, and access-token is not used. Remove one of them.`];
}

/** How the credentials given go together on the gateway the step talks to, for the operation. */
function credentialProblems(name: string, op: Operation, settings: Settings): string[] {
  const { accessToken, appCode, appSecret, bkToken, userId } = settings;
  if (settings.gateway === 'bk-apigateway') {
    if ((appCode === undefined) !== (appSecret === undefined))
      return [
        'app-code and app-secret go together on the BlueKing API Gateway: give both (app state, apigw-app) or neither (user state, apigw-user)',
      ];
    if (appCode === undefined && bkToken === undefined && accessToken === undefined && userId === undefined)
      return [
        'the BlueKing API Gateway needs credentials: app-code with app-secret, or a user (bk-token, an access-token the gateway issued, or user-id)',
      ];
    return [];
  }
  if (appSecret !== undefined) return ["app-secret is for gateway: bk-apigateway; bk-ci's own gateway does not take it"];
  if (op.credentials === 'issued')
    return accessToken !== undefined && bkToken === undefined
      ? [`${name} issues a new token from bk-token; access-token cannot be used for it`]
      : [];
  return accessToken !== undefined && bkToken === undefined && userId === undefined
    ? ["user-id is required with access-token: the token's user cannot be read from the token itself (with bk-token it can)"]
    : [];
}
