// The build operations' inputs: what they share (the build named, how it is followed and shown,
// its GitHub check run) and each one's own (start-build, retry-build, review-build).
import { z } from '../base/schema.ts';
import { hasSpaceOrControl } from '../base/text.ts';
import { isHttpUrl } from '../base/url.ts';
import { downloadInputs } from './download.ts';
import { bool, oneOf, segment, splitList, textMapping } from './fields.ts';

const pipelineIdInput = z.string().regex(/^p-[\w-]+$/, 'pipeline-id must be a pipeline id, p-…');
const buildIdInput = z.string().regex(/^b-[\w-]+$/, 'build-id must be a build id, b-…');

/** bk-ci reads at most this many variables at once (PipelineBuildFacadeService.getBuildVarsByNames). */
const MAX_VARIABLES = 50;

/** `variables`: names separated by commas and/or new lines, each once, at most 50. */
const variablesInput = z.string().transform((text, ctx) => {
  const names = splitList(text);
  const bad = names.filter(hasSpaceOrControl);
  if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `variables: ${JSON.stringify(bad[0])} is not a variable name` });
  if (names.length > MAX_VARIABLES)
    ctx.addIssue({ code: 'custom', message: `variables names ${names.length} variables; bk-ci reads at most ${MAX_VARIABLES}` });
  return names;
});

/** `mask-variables`: names whose value is masked, commas and/or new lines; `*` for all. */
const maskVariablesInput = z.string().transform((text, ctx) => {
  const names = splitList(text);
  const bad = names.filter(hasSpaceOrControl);
  if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `mask-variables: ${JSON.stringify(bad[0])} is not a variable name` });
  return names;
});

/**
 * The inputs that say how a build is followed and what is shown of it: for start-build,
 * build-status and review-build (the registry's BUILD_SHOWN).
 */
const followInputs = {
  wait: bool('wait').default(true),
  'console-url': z
    .string()
    .refine(isHttpUrl, 'console-url must be an absolute http(s) URL, the root of the bk-ci web console')
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
  'on-review': oneOf('on-review', ['wait', 'fail'] as const).default('wait'),
  logs: z.enum(['live', 'on-failure', 'none'], { error: 'logs must be live, on-failure or none' }).default('live'),
  variables: variablesInput.optional(),
  'mask-variables': maskVariablesInput.optional(),
  artifacts: bool('artifacts').default(false),
  ...downloadInputs,
};

// biome-ignore lint/suspicious/noTemplateCurlyInString: GitHub's expression for the job's token, as action.yml gives it
const GITHUB_TOKEN_DEFAULT = '${{ github.token }}';

/**
 * The inputs that mirror the build as a GitHub check run on the commit: for start-build and
 * build-status (the registry's BUILD_CHECKED). github-token is a secret, masked at once.
 */
const checkInputs = {
  check: bool('check').default(false),
  'check-name': z
    .string()
    .max(200, 'check-name must be at most 200 characters')
    .refine((v) => !/[\r\n]/.test(v), 'check-name must be one line')
    .optional(),
  // The runner fills in action.yml's default, the job's token; a step run elsewhere passes its own.
  'github-token': z.string().default(GITHUB_TOKEN_DEFAULT),
};

/** What check needs besides itself: a token. */
export const checkProblems = (task: { check: boolean; 'github-token': string }): string[] =>
  task.check && task['github-token'] === ''
    ? [`github-token is required with check: true (by default the job's GITHUB_TOKEN, ${GITHUB_TOKEN_DEFAULT}, which the runner fills in)`]
    : [];

/** The inputs that name a build this step did not start: for build-status and review-build. */
const givenBuildInputs = {
  'project-id': segment('project-id'),
  'build-id': buildIdInput,
  'pipeline-id': pipelineIdInput.optional(),
};

/** build-status's inputs: a build given by id, followed, with its check run. */
export const buildStatusInputs = z.object({ ...givenBuildInputs, ...followInputs, ...checkInputs });

/** `on-rerun`: continue (retry failed jobs), continue retrying the whole build, or always start a new one. */
export const ON_RERUN = ['resume', 'retry-all', 'start'] as const;

/** `build-params`: names to text, exactly as written (bk-ci takes Map<String, String>). */
const buildParams = textMapping('build-params', {
  lists: false,
  what: 'a text, a number or a boolean: bk-ci takes every start parameter as text',
});

/** start-build's inputs. */
export const startBuildInputs = z.object({
  'project-id': segment('project-id'),
  'pipeline-id': pipelineIdInput,
  'build-params': buildParams.optional(),
  'stop-on-cancel': bool('stop-on-cancel').default(true),
  'on-rerun': oneOf('on-rerun', ON_RERUN).default('resume'),
  'rerun-key': z.string().optional(),
  ...followInputs,
  ...checkInputs,
});

/**
 * `retry`: failed-jobs (the failed stage's failed jobs, bk-ci's failedContainer), all (the whole
 * build), or a task id bk-ci's taskId takes: a stage (stage-N), a job, a step (stepId) or an element.
 */
const retryInput = z
  .string()
  .regex(/^[\w.-]{1,128}$/, 'retry must be failed-jobs, all, or a stage, job, step or element id (stage-3, e-…)');

/** retry-build's inputs. */
export const retryBuildInputs = z
  .object({
    ...givenBuildInputs,
    retry: retryInput.default('failed-jobs'),
    'skip-failed': bool('skip-failed').default(false),
    'stop-on-cancel': bool('stop-on-cancel').default(true),
    ...followInputs,
    ...checkInputs,
  })
  .superRefine((task, ctx) => {
    if (task['skip-failed'] && (task.retry === 'failed-jobs' || task.retry === 'all'))
      ctx.addIssue({ code: 'custom', message: 'skip-failed needs retry to name a task: a stage (stage-N), a step or an element id' });
  });

/** review-build's inputs. */
export const reviewBuildInputs = z.object({
  ...givenBuildInputs,
  decision: z.string().pipe(z.enum(['approve', 'reject'], { error: 'decision must be approve or reject' })),
  suggestion: z.string().optional(),
  // As written: the parameter's declared type decides what a value becomes (build/review.ts).
  'review-params': textMapping('review-params', { lists: true, what: 'a text, or a list of texts' }).optional(),
  ...followInputs,
  // A person's approval is passed on and the step ends (docs/review-build.md): following the build
  // to its end, for up to the whole timeout, is asked for with wait: true.
  wait: bool('wait').default(false),
});

/** download-artifacts' inputs: a build given by id, its console (an origin the login ticket may go to), its files. */
export const downloadArtifactsInputs = z.object({
  ...givenBuildInputs,
  'console-url': followInputs['console-url'],
  ...downloadInputs,
});
