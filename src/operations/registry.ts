// Every operation, and what the step's inputs make of them. Adding an operation is one module
// and one line here; the compiler refuses a registry that misses one.

import { InputError } from '../base/errors.ts';
import type { Gateway } from '../bkci/routes.ts';
import buildStatus from './build-status.ts';
import createCallbacks from './create-callbacks.ts';
import createProject from './create-project.ts';
import getProject from './get-project.ts';
import getToken from './get-token.ts';
import listProjects from './list-projects.ts';
import type { Job, Operation } from './operation.ts';
import request from './request.ts';
import reviewBuild from './review-build.ts';
import { SECRET_INPUTS, type Settings, settingsSchema } from './settings.ts';
import signDetail from './sign-detail.ts';
import startBuild from './start-build.ts';
import updateProject from './update-project.ts';

/** The values of the `operation` input, as action.yml documents them. */
export const OPERATION_NAMES = [
  'get-token',
  'sign-detail',
  'get-project',
  'list-projects',
  'create-project',
  'update-project',
  'create-callbacks',
  'request',
  'start-build',
  'build-status',
  'review-build',
] as const;
export type OperationName = (typeof OPERATION_NAMES)[number];

export const REGISTRY = {
  'get-token': getToken,
  'sign-detail': signDetail,
  'get-project': getProject,
  'list-projects': listProjects,
  'create-project': createProject,
  'update-project': updateProject,
  'create-callbacks': createCallbacks,
  request,
  'start-build': startBuild,
  'build-status': buildStatus,
  'review-build': reviewBuild,
} as const satisfies Record<OperationName, Operation>;

const MODULES: readonly Operation[] = Object.values(REGISTRY);
const unique = (names: readonly string[]): string[] => [...new Set(names)];

/** Outputs every operation sets. */
export const COMMON_OUTPUTS = ['data', 'data-file', 'http-status', 'user-id'] as const;

/** Every input of action.yml: the shared settings and each operation's own. */
export const INPUT_NAMES = unique(['operation', ...Object.keys(settingsSchema.in.shape), ...MODULES.flatMap((m) => m.inputNames)]);
/** Every output of action.yml. */
export const OUTPUT_NAMES = unique([...COMMON_OUTPUTS, ...MODULES.flatMap((m) => m.outputs)]);
/** Inputs that hold secrets, whichever operation reads them: masked before anything is printed. */
export const SECRET_INPUT_NAMES = unique([...SECRET_INPUTS, ...MODULES.flatMap((m) => m.secrets)]);

export const isOperationName = (name: string): name is OperationName => (OPERATION_NAMES as readonly string[]).includes(name);

export interface Step {
  operation: OperationName;
  settings: Settings;
  job: Job;
  /** Inputs that were given but that this operation does not read: warned about, never sent. */
  ignored: string[];
}

/** Which operations read each input of their own (the shared settings aside). */
const READERS: ReadonlyMap<string, OperationName[]> = new Map(
  INPUT_NAMES.map((input) => [input, OPERATION_NAMES.filter((name) => REGISTRY[name].inputNames.includes(input))]),
);
/** action.yml's default of each operation's input: the runner sets it whether the workflow gave it or not. */
const RUNNER_DEFAULTS: Readonly<Record<string, string>> = Object.assign({}, ...MODULES.map((m) => m.inputDefaults));

/**
 * Inputs the workflow gave that the operation does not read (`resign-id` for get-project): a
 * value at its action.yml default cannot be told from one the runner filled in, so it is not counted.
 */
function ignoredInputs(op: Operation, raw: Record<string, string | undefined>): string[] {
  return Object.entries(raw)
    .filter(([name, value]) => {
      const readers = READERS.get(name) ?? [];
      return readers.length > 0 && !op.inputNames.includes(name) && value !== RUNNER_DEFAULTS[name];
    })
    .map(([name]) => name);
}

/** The one warning about ignored inputs: each named, with the operations that read it. */
export function ignoredWarning(operation: string, ignored: readonly string[]): string {
  const each = ignored.map((name) => `${name} (read by ${(READERS.get(name) ?? []).join(', ')})`);
  return `operation ${operation} does not read ${ignored.length === 1 ? 'this input' : 'these inputs'}, so ${ignored.length === 1 ? 'it was' : 'they were'} ignored: ${each.join('; ')}. Remove ${ignored.length === 1 ? 'it' : 'them'}, or check the operation.`;
}

/** A gateway runs an operation only if it publishes every endpoint the operation may call. */
const publishes = (op: Operation, gateway: Gateway): boolean => op.endpoints.every((e) => e.path[gateway] !== null);

/**
 * All inputs, read once: the step to run, or an InputError that lists every problem (the
 * settings', the operation's own, and how they go together). Nothing is sent before this.
 */
export async function prepareStep(get: (name: string) => string): Promise<Step> {
  const raw: Record<string, string | undefined> = {};
  for (const name of INPUT_NAMES) {
    const v = get(name);
    if (v !== '') raw[name] = v;
  }
  const operation = raw.operation;
  if (operation === undefined) throw new InputError(['operation is required']);
  if (!isOperationName(operation)) throw new InputError([`operation "${operation}" is not one of ${OPERATION_NAMES.join(', ')}`]);
  const op: Operation = REGISTRY[operation];
  const problems: string[] = [];
  const settings = settingsSchema.safeParse(raw);
  if (!settings.success)
    problems.push(
      ...settings.error.issues.map((i) =>
        i.path[0] === 'base-url' && i.code === 'invalid_type' ? 'base-url is required, e.g. https://devops.example.com' : i.message,
      ),
    );
  const prepared = await op.prepare(raw, operation);
  if ('problems' in prepared) problems.push(...prepared.problems);
  if (settings.success) problems.push(...credentialProblems(operation, op, settings.data));
  if (settings.success && !publishes(op, settings.data.gateway))
    problems.push(
      `operation ${operation} is not published on the ${settings.data.gateway} gateway${settings.data.gateway === 'bk-apigateway' ? ': bk-ci publishes neither re-signing nor its token endpoint there; use gateway: bk-ci for it' : ''}`,
    );
  if (settings.success && 'job' in prepared) problems.push(...prepared.job.check(settings.data));
  if (problems.length > 0 || !settings.success || !('job' in prepared)) throw new InputError(problems);
  return { operation, settings: settings.data, job: prepared.job, ignored: ignoredInputs(op, raw) };
}

function credentialProblems(name: string, op: Operation, s: Settings): string[] {
  if (s.gateway === 'bk-apigateway') {
    if ((s.appCode === undefined) !== (s.appSecret === undefined))
      return [
        'app-code and app-secret go together on the BlueKing API Gateway: give both (app state, apigw-app) or neither (user state, apigw-user)',
      ];
    if (s.appCode === undefined && s.bkToken === undefined && s.accessToken === undefined && s.userId === undefined)
      return [
        'the BlueKing API Gateway needs credentials: app-code with app-secret, or a user (bk-token, an access-token the gateway issued, or user-id)',
      ];
    return [];
  }
  if (s.appSecret !== undefined) return ["app-secret is for gateway: bk-apigateway; bk-ci's own gateway does not take it"];
  if (op.credentials === 'issued')
    return s.accessToken !== undefined && s.bkToken === undefined
      ? [`${name} issues a new token from bk-token; access-token cannot be used for it`]
      : [];
  return s.accessToken !== undefined && s.bkToken === undefined && s.userId === undefined
    ? ["user-id is required with access-token: the token's user cannot be read from the token itself (with bk-token it can)"]
    : [];
}
