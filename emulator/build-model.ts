// A pipeline's model as bk-ci lays it out (Model → stages → containers → elements), with the ids
// bk-ci gives them: `stage-N` (stage-1 is the trigger stage), container ids counted from 1 beside a
// `c-…` hash id, element ids `e-…`. Facts from docs/bkci/builds.md
// and bk-ci's Model, StagePauseCheck and ManualReviewUserTaskElement.
import { createHash } from 'node:crypto';
import { z } from 'zod';

/** bk-ci's ManualReviewParam: a value a reviewer may set. */
export const reviewParamSchema = z
  .object({
    key: z.string().min(1),
    value: z.unknown().optional(),
    valueType: z.enum(['STRING', 'TEXTAREA', 'BOOLEAN', 'ENUM', 'CHECKBOX', 'MULTIPLE']).default('STRING'),
    required: z.boolean().default(false),
    desc: z.string().optional(),
    options: z.array(z.object({ key: z.string(), value: z.string() }).strict()).optional(),
  })
  .strict();
type ReviewParam = z.infer<typeof reviewParamSchema>;

/** A step as the seed gives it: a name, or its fields; `reviewers` makes it a manual-review step. */
const stepSeedSchema = z.union([
  z.string().min(1),
  z
    .object({
      name: z.string().min(1),
      stepId: z.string().optional(),
      atomCode: z.string().optional(),
      /** A manual-review step (`manualReviewUserTask`) these users may decide. */
      reviewers: z.array(z.string().min(1)).min(1).optional(),
      desc: z.string().optional(),
      params: z.array(reviewParamSchema).optional(),
    })
    .strict(),
]);

export const jobSeedSchema = z
  .object({
    name: z.string().min(1),
    jobId: z.string().optional(),
    steps: z.array(stepSeedSchema).min(1),
  })
  .strict();

export interface StepLayout {
  id: string;
  stepId: string | null;
  name: string;
  atomCode: string;
  reviewers?: string[];
  desc?: string;
  params?: ReviewParam[];
  stageIndex: number;
  jobIndex: number;
  /** The container's sequence id (`"1"`, …), as errorInfoList's `containerId` gives it. */
  containerId: string;
}

interface JobLayout {
  id: string;
  containerHashId: string;
  jobId: string | null;
  name: string;
  steps: StepLayout[];
}

export interface StageLayout {
  /** `stage-2` for the first user stage: stage-1 is the trigger stage. */
  id: string;
  name: string;
  jobs: JobLayout[];
}

const hex = (...parts: (string | number)[]): string => createHash('md5').update(parts.join('/')).digest('hex');

/**
 * The user stages of a pipeline, with their jobs and steps: `jobs[stageName]` when the seed gives
 * them, else one job with one step named after the stage.
 */
export function layout(pipelineId: string, stages: string[], jobs: Record<string, z.infer<typeof jobSeedSchema>[]>): StageLayout[] {
  let container = 0;
  return stages.map((name, stageIndex) => ({
    id: `stage-${stageIndex + 2}`,
    name,
    jobs: (jobs[name] ?? [{ name: `Job ${stageIndex + 2}-1`, steps: [name] }]).map((job, jobIndex) => {
      const containerId = String(++container);
      return {
        id: containerId,
        containerHashId: `c-${hex(pipelineId, stageIndex, jobIndex)}`,
        jobId: job.jobId ?? null,
        name: job.name,
        steps: job.steps.map((seed, stepIndex): StepLayout => {
          const step = typeof seed === 'string' ? { name: seed } : seed;
          return {
            id: `e-${hex(pipelineId, stageIndex, jobIndex, stepIndex)}`,
            stepId: step.stepId ?? null,
            name: step.name,
            atomCode: step.atomCode ?? (step.reviewers ? 'manualReviewUserTask' : 'run'),
            ...(step.reviewers ? { reviewers: step.reviewers } : {}),
            ...(step.desc === undefined ? {} : { desc: step.desc }),
            ...(step.params === undefined ? {} : { params: step.params }),
            stageIndex,
            jobIndex,
            containerId,
          };
        }),
      };
    }),
  }));
}

export const allSteps = (stages: StageLayout[]): StepLayout[] => stages.flatMap((s) => s.jobs.flatMap((j) => j.steps));

/** The start values bk-ci keeps whether the pipeline declares them or not, read-only: the custom trigger material. */
const MATERIAL_KEYS = new Set(['BK_CI_MATERIAL_ID', 'BK_CI_MATERIAL_NAME', 'BK_CI_MATERIAL_URL']);

/** What of a pipeline's seed says which start parameters it declares. */
export interface ParamDeclarations {
  /** Declared start parameters and their defaults; absent: every value a start gives is declared (default ""). */
  params?: Record<string, string> | undefined;
  required: string[];
  passwords: string[];
}

/** The start parameters the pipeline declares (the trigger container's params), each with its default. */
function declared(declarations: ParamDeclarations | undefined, given: Record<string, string>): [string, string][] {
  const named = declarations?.params ?? Object.fromEntries(Object.keys(given).map((k) => [k, '']));
  const ids = new Set([...Object.keys(named), ...(declarations?.required ?? []), ...(declarations?.passwords ?? [])]);
  return [...ids].filter((id) => !MATERIAL_KEYS.has(id) && id !== 'BK_CI_BUILD_MSG').map((id) => [id, named[id] ?? '']);
}

/**
 * The trigger container's params (bk-ci's BuildFormProperty): the start parameters the pipeline
 * declares, each with its type and default; those seeded as passwords are PASSWORD, the others STRING.
 */
export function declaredParams(
  declarations: ParamDeclarations | undefined,
  given: Record<string, string>,
): { id: string; type: string; required: boolean; defaultValue: string }[] {
  return declared(declarations, given).map(([id, defaultValue]) => ({
    id,
    type: declarations?.passwords.includes(id) ? 'PASSWORD' : 'STRING',
    required: declarations?.required.includes(id) ?? false,
    defaultValue,
  }));
}

/**
 * The start parameters a build shows (BuildParameters in build_histories and build_status rows):
 * each declared one with the value the start gave, else its default (parseTriggerParam reads only
 * the trigger container's params: a value the pipeline does not declare is dropped), then the
 * custom trigger material the start gave, read-only (initMaterialParams). Facts from
 * docs/bkci/builds.md.
 */
export function startParameters(declarations: ParamDeclarations | undefined, given: Record<string, string>): Record<string, unknown>[] {
  return [
    ...declared(declarations, given).map(([key, defaultValue]) => ({
      key,
      value: given[key] ?? defaultValue,
      valueType: declarations?.passwords.includes(key) ? 'PASSWORD' : 'STRING',
      readOnly: false,
      defaultValue,
    })),
    ...Object.entries(given)
      .filter(([key]) => MATERIAL_KEYS.has(key))
      .map(([key, value]) => ({ key, value, valueType: 'STRING', readOnly: true })),
  ];
}

/** The start parameters as build variables: name → value. */
export const startVariables = (declarations: ParamDeclarations | undefined, given: Record<string, string>): Record<string, string> =>
  Object.fromEntries(startParameters(declarations, given).map((param) => [String(param.key), String(param.value)]));

/** The trigger stage bk-ci puts first in every model: stage-1, container 0, the manual trigger. */
export function triggerStage(status: string | undefined, params: Record<string, unknown>[] = []): Record<string, unknown> {
  return {
    id: 'stage-1',
    name: 'stage-1',
    ...(status ? { status } : {}),
    containers: [
      {
        '@type': 'trigger',
        id: '0',
        containerHashId: 'c-00000000000000000000000000000000',
        name: '构建触发',
        params,
        ...(status ? { status } : {}),
        elements: [{ '@type': 'manualTrigger', id: 'T-1-1-1', name: '手动触发', ...(status ? { status } : {}) }],
      },
    ],
  };
}
