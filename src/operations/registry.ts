// Every operation, with the inputs it reads. Adding an operation is one module and one
// declaration here; the compiler refuses a registry that misses one, or a declaration whose
// inputs are not the module's. What the step's inputs make of them is prepare-step.ts's.

import { SECRET_INPUTS, settingsSchema } from '../inputs/settings.ts';
import type { Operation } from './operation.ts';

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
