// The inputs the build operations share: the build named, how it is followed and shown, and its
// GitHub check run.
import { z } from '../base/schema.ts';
import { hasSpaceOrControl } from '../base/text.ts';
import { bool, isHttpUrl, oneOf, segment, splitList } from './fields.ts';

export const pipelineIdInput = z.string().regex(/^p-[\w-]+$/, 'pipeline-id must be a pipeline id, p-…');
const buildIdInput = z.string().regex(/^b-[\w-]+$/, 'build-id must be a build id, b-…');

/** bk-ci reads at most this many variables at once (PipelineBuildFacadeService.getBuildVarsByNames). */
export const MAX_VARIABLES = 50;

/** `variables`: names separated by commas and/or new lines, each once, at most 50. */
export const variablesInput = z.string().transform((text, ctx) => {
  const names = splitList(text);
  const bad = names.filter(hasSpaceOrControl);
  if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `variables: ${JSON.stringify(bad[0])} is not a variable name` });
  if (names.length > MAX_VARIABLES)
    ctx.addIssue({ code: 'custom', message: `variables names ${names.length} variables; bk-ci reads at most ${MAX_VARIABLES}` });
  return names;
});

/** `mask-variables`: names whose value is masked, commas and/or new lines; `*` for all. */
export const maskVariablesInput = z.string().transform((text, ctx) => {
  const names = splitList(text);
  const bad = names.filter(hasSpaceOrControl);
  if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `mask-variables: ${JSON.stringify(bad[0])} is not a variable name` });
  return names;
});

/**
 * The inputs that say how a build is followed and what is shown of it: for start-build,
 * build-status and review-build (the registry's BUILD_SHOWN).
 */
export const followInputs = {
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
};

// biome-ignore lint/suspicious/noTemplateCurlyInString: GitHub's expression for the job's token, as action.yml gives it
const GITHUB_TOKEN_DEFAULT = '${{ github.token }}';

/**
 * The inputs that mirror the build as a GitHub check run on the commit: for start-build and
 * build-status (the registry's BUILD_CHECKED). github-token is a secret, masked at once.
 */
export const checkInputs = {
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
export const checkProblems = (t: { check: boolean; 'github-token': string }): string[] =>
  t.check && t['github-token'] === ''
    ? [`github-token is required with check: true (by default the job's GITHUB_TOKEN, ${GITHUB_TOKEN_DEFAULT}, which the runner fills in)`]
    : [];

/** The inputs that name a build this step did not start: for build-status and review-build. */
export const givenBuildInputs = {
  'project-id': segment('project-id'),
  'build-id': buildIdInput,
  'pipeline-id': pipelineIdInput.optional(),
};
