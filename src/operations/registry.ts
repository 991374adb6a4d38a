// Every operation, and what the step's inputs make of them. Adding an operation is one module
// and one declaration here; the compiler refuses a registry that misses one, or a declaration
// whose inputs are not the module's.

import { formatDuration } from '../base/duration.ts';
import { InputError } from '../base/errors.ts';
import type { Gateway } from '../bkci/routes.ts';
import { SECRET_INPUTS, type Settings, settingsSchema } from '../inputs/settings.ts';
import { unknownInputs } from '../inputs/unknown.ts';
import type { Job, Operation } from './operation.ts';

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
  'retry-build',
  'download-artifacts',
] as const;
export type OperationName = (typeof OPERATION_NAMES)[number];

/**
 * What the step knows of an operation before choosing one: the inputs it reads, each with its
 * default as text (null: none; action.yml gives it unless the operations reading the input have
 * different ones), and which of them are secrets. Its module (the
 * inputs' rules, endpoints, outputs and run) loads only when the step runs it: building every
 * operation's schemas at each start would cost every step what one of them needs.
 */
export interface Declaration {
  readonly inputs: Readonly<Record<string, string | null>>;
  readonly secrets: readonly string[];
  load(): Promise<Operation>;
}

function declare<const I extends Readonly<Record<string, string | null>>>(
  inputs: I,
  load: () => Promise<{ default: Operation<keyof I & string> }>,
  secrets: readonly (keyof I & string)[] = [],
): Declaration {
  return { inputs, secrets, load: async () => (await load()).default };
}

/** What brings a build's files into the runner: the build operations and download-artifacts. */
const BUILD_FILES = { download: null, 'download-path': 'bkci-artifacts', 'download-hosts': null } as const;

/** What start-build, build-status and review-build read to show a build. */
const BUILD_SHOWN = {
  wait: 'true',
  'console-url': null,
  'on-review': 'wait',
  logs: 'live',
  variables: null,
  artifacts: 'false',
  'mask-variables': null,
  ...BUILD_FILES,
} as const;

/** What start-build and build-status read to mirror the build as a GitHub check run. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: GitHub's expression for the job's token, as action.yml gives it
const BUILD_CHECKED = { check: 'false', 'check-name': null, 'github-token': '${{ github.token }}' } as const;

export const REGISTRY = {
  'get-token': declare({}, () => import('./get-token.ts')),
  'sign-detail': declare({ 'resign-id': null, wait: 'true', 'download-url': 'false' }, () => import('./sign-detail.ts')),
  'get-project': declare({ 'project-id': null }, () => import('./get-project.ts')),
  'list-projects': declare({}, () => import('./list-projects.ts')),
  'create-project': declare({ project: null, 'project-id': null, 'if-exists': 'fail' }, () => import('./create-project.ts')),
  'update-project': declare({ 'project-id': null, project: null }, () => import('./update-project.ts')),
  'create-callbacks': declare(
    { 'project-id': null, 'callback-url': null, region: null, events: null, 'secret-token': null, 'replace-events': 'false' },
    () => import('./create-callbacks.ts'),
    ['secret-token'],
  ),
  request: declare({ method: 'GET', path: null, query: null, body: null }, () => import('./request.ts')),
  'start-build': declare(
    {
      'project-id': null,
      'pipeline-id': null,
      'build-params': null,
      'stop-on-cancel': 'true',
      'on-rerun': 'resume',
      'rerun-key': null,
      ...BUILD_SHOWN,
      ...BUILD_CHECKED,
    },
    () => import('./start-build.ts'),
    ['github-token'],
  ),
  'build-status': declare(
    { 'project-id': null, 'build-id': null, 'pipeline-id': null, ...BUILD_SHOWN, ...BUILD_CHECKED },
    () => import('./build-status.ts'),
    ['github-token'],
  ),
  'review-build': declare(
    {
      'project-id': null,
      'build-id': null,
      'pipeline-id': null,
      decision: null,
      suggestion: null,
      'review-params': null,
      ...BUILD_SHOWN,
      wait: 'false',
    },
    () => import('./review-build.ts'),
  ),
  'retry-build': declare(
    {
      'project-id': null,
      'build-id': null,
      'pipeline-id': null,
      retry: 'failed-jobs',
      'skip-failed': 'false',
      'stop-on-cancel': 'true',
      ...BUILD_SHOWN,
      ...BUILD_CHECKED,
    },
    () => import('./retry-build.ts'),
    ['github-token'],
  ),
  'download-artifacts': declare(
    { 'project-id': null, 'build-id': null, 'pipeline-id': null, 'console-url': null, ...BUILD_FILES },
    () => import('./download-artifacts.ts'),
  ),
} as const satisfies Record<OperationName, Declaration>;

const DECLARED: readonly Declaration[] = Object.values(REGISTRY);
const unique = (names: readonly string[]): string[] => [...new Set(names)];

/** Outputs every operation sets. */
export const COMMON_OUTPUTS = ['data', 'data-file', 'http-status', 'user-id'] as const;

/** Every input of action.yml: the shared settings and each operation's own. */
export const INPUT_NAMES = unique([
  'operation',
  ...Object.keys(settingsSchema.in.shape),
  ...DECLARED.flatMap((d) => Object.keys(d.inputs)),
]);
/** Inputs that hold secrets, whichever operation reads them: masked before anything is printed. */
export const SECRET_INPUT_NAMES = unique([...SECRET_INPUTS, ...DECLARED.flatMap((d) => d.secrets)]);

/** Every output of action.yml: each operation's module is loaded to learn its own. */
export async function outputNames(): Promise<string[]> {
  const ops = await Promise.all(DECLARED.map((d) => d.load()));
  return unique([...COMMON_OUTPUTS, ...ops.flatMap((op) => op.outputs)]);
}

export const isOperationName = (name: string): name is OperationName => (OPERATION_NAMES as readonly string[]).includes(name);

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

const declaration = (name: OperationName): Declaration => REGISTRY[name];

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
    const defaults = new Set(readers.map((name) => declaration(name).inputs[input] ?? null));
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

/** A gateway runs an operation only if it publishes every endpoint the operation may call. */
const publishes = (op: Operation, gateway: Gateway): boolean => op.endpoints.every((e) => e.path[gateway] !== null);

/**
 * All inputs, read once: the step to run, or an InputError that lists every problem (the
 * settings', the operation's own, and how they go together). Nothing is sent before this.
 */
export async function prepareStep(get: (name: string) => string, variables: readonly string[] = []): Promise<Step> {
  const raw: Record<string, string | undefined> = {};
  for (const name of INPUT_NAMES) {
    const v = get(name);
    if (v !== '') raw[name] = v;
  }
  const operation = raw.operation;
  if (operation === undefined) throw new InputError(['operation is required']);
  if (!isOperationName(operation)) throw new InputError([`operation "${operation}" is not one of ${OPERATION_NAMES.join(', ')}`]);
  const declared: Declaration = REGISTRY[operation];
  const op = await declared.load();
  const problems: string[] = [];
  const settings = settingsSchema.safeParse(raw);
  if (!settings.success)
    problems.push(
      ...settings.error.issues.map((i) =>
        i.path[0] === 'base-url' && i.code === 'invalid_type' ? 'base-url is required, e.g. https://devops.example.com' : i.message,
      ),
    );
  const unknown = unknownInputs(variables, {
    known: INPUT_NAMES,
    operation,
    reads: ['operation', ...Object.keys(settingsSchema.in.shape), ...Object.keys(declared.inputs)],
    given: new Set(Object.keys(raw)),
  });
  problems.push(...unknown.problems);
  const prepared = await op.prepare(raw, operation);
  if ('problems' in prepared) problems.push(...prepared.problems);
  if (settings.success) problems.push(...credentialProblems(operation, op, settings.data));
  if (settings.success && !publishes(op, settings.data.gateway))
    problems.push(
      `operation ${operation} is not published on the ${settings.data.gateway} gateway${settings.data.gateway === 'bk-apigateway' ? ': bk-ci publishes neither re-signing nor its token endpoint there; use gateway: bk-ci for it' : ''}`,
    );
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

/**
 * From this many seconds on, a bare `timeout` may have been meant as minutes (as `timeout-minutes`
 * reads): below it, the wait ends at its first or second poll and the failure names the timeout,
 * so the reading cannot go unnoticed; from it on, a step may pass on one run and time out on the next.
 */
const BARE_TIMEOUT_WARNED_FROM_S = 10;

/** A bare number of seconds that may have been meant as minutes: how it was read, and how to write either. */
export function bareTimeout(text: string | undefined): string[] {
  const t = text?.trim() ?? '';
  if (!/^\d+$/.test(t) || Number(t) < BARE_TIMEOUT_WARNED_FROM_S) return [];
  const n = Number(t);
  return [
    `timeout: ${t} has no unit, so it was read as ${n} seconds${n >= 60 ? ` (${formatDuration(n * 1000)})` : ''}; for ${n} minutes write timeout: ${n}m (unlike timeout-minutes, a bare number here is seconds), or write ${n}s to keep seconds and not see this warning`,
  ];
}

/**
 * A credential given beside one that takes its place is never sent: said once, since the step
 * would otherwise run as another than the workflow may think (bk-token wins on both gateways).
 */
function unusedCredentials(s: Settings): string[] {
  if (s.accessToken === undefined || s.bkToken === undefined) return [];
  const used =
    s.gateway === 'bk-apigateway' ? 'the gateway is given bk-token' : 'the token is issued from bk-token (and renewed when it runs out)';
  return [`access-token and bk-token are both set: ${used}, and access-token is not used. Remove one of them.`];
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
