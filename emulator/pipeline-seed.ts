// A pipeline as the control API seeds it (POST /__emulator/pipelines, emulator/README.md): the life
// every build of it lives (phases: QUEUE, RUNNING, a stage waiting for review, a manual-review
// step, …, then an end status), its stages and jobs, and what its steps write, set and archive.
// Facts from docs/bkci/builds.md.
import { z } from 'zod';
import { allSteps, jobSeedSchema, layout, reviewParamSchema } from './build-model.ts';
import { logScriptSchema } from './log-script.ts';

const reviewGroupSchema = z
  .object({
    name: z.string().min(1),
    reviewers: z.array(z.string().min(1)).min(1),
    /** Project user groups; bk-ci expands them into `reviewers` when the stage pauses. */
    groups: z.array(z.string()).default([]),
  })
  .strict();

export const phaseSchema = z
  .object({
    status: z.string().min(1),
    /** How long the phase lasts; required unless it waits for a review (`review`, `step`), which lasts until decided. */
    ms: z.number().int().min(0).optional(),
    /** The stage this phase runs; for a STAGE_SUCCESS pause, the stage that waits for review. */
    stage: z.string().optional(),
    /** A stage review (StagePauseCheck) at `stage`: the build waits until the groups decide, or `timeout` hours pass. */
    review: z
      .object({
        groups: z.array(reviewGroupSchema).min(1),
        params: z.array(reviewParamSchema).default([]),
        desc: z.string().optional(),
        timeout: z.number().int().min(1).default(24),
      })
      .strict()
      .optional(),
    /** The name of a manual-review step (a step with `reviewers` in `jobs`) that waits in this phase. */
    step: z.string().optional(),
  })
  .strict();
export type Phase = z.infer<typeof phaseSchema>;

const materialSchema = z
  .object({
    aliasName: z.string().default('app'),
    url: z.string().default(''),
    branchName: z.string().default('main'),
    newCommitId: z.string().default(''),
    /** Or the start value that names the commit, as a checkout step reads it from the build's variables. */
    commitFrom: z.string().optional(),
    newCommitComment: z.string().default(''),
    scmType: z.string().default('CODE_GIT'),
  })
  .strict();

/**
 * What a pipeline's steps set, by name (read with build_variables, emulator/variables.ts): a value
 * (set from the start), or `{value, at}` set `at` ms after build_start (a step's output is written
 * when the step completes).
 */
const variablesSeedSchema = z.record(
  z.string().min(1),
  z.union([z.string(), z.object({ value: z.string(), at: z.number().int().min(0) }).strict()]),
);

/**
 * A file a build archives (listed with artifactories/file_info, emulator/artifacts.ts): to the
 * pipeline repository (its path is relative to the build) or the custom one.
 */
const artifactSeedSchema = z
  .object({
    /** PIPELINE: relative to the build (`app/app.ipa`); CUSTOM_DIR: the path in the custom repository. */
    path: z
      .string()
      .min(1)
      .refine((path) => !path.endsWith('/') && !path.split('/').includes('..'), 'a file path, without .. and not ending in /'),
    size: z.number().int().min(0).default(0),
    /** The file's text; its size is then the text's. Without it the bytes are made up from the path (emulator/file-bytes.ts). */
    content: z.string().optional(),
    type: z.enum(['PIPELINE', 'CUSTOM_DIR']).default('PIPELINE'),
    /** ms after build_start it is archived; by default when the build ends. */
    at: z.number().int().min(0).optional(),
    /** bk-repo metadata beside pipelineId and buildId. */
    properties: z.record(z.string(), z.string()).default({}),
  })
  .strict();
export type ArtifactSeed = z.infer<typeof artifactSeedSchema>;

/** An error bk-ci's checks answer with: its HTTP status, its status code, its message. */
const refusalSchema = z.object({ http: z.number().int(), status: z.number().int(), message: z.string() }).strict();

/** A pipeline as the control API seeds it. */
export const pipelineSchema = z
  .object({
    projectId: z.string().min(1),
    pipelineId: z.string().regex(/^p-/),
    name: z.string().default('Pipeline'),
    /** Every build goes through these, in order. */
    phases: z.array(phaseSchema).default([
      { status: 'QUEUE', ms: 500 },
      { status: 'RUNNING', ms: 1500 },
    ]),
    /** How a build ends; STAGE_SUCCESS here means it ended at a stage (endTime set). */
    result: z.string().default('SUCCEED'),
    stages: z.array(z.string()).default(['Build', 'Release']),
    /** The jobs (containers) of a stage, by stage name, each with its steps; default one job with one step named after the stage. */
    jobs: z.record(z.string(), z.array(jobSeedSchema)).default({}),
    errorInfoList: z
      .array(
        z.object({ taskName: z.string(), errorCode: z.number().int(), errorMsg: z.string(), atomCode: z.string().optional() }).strict(),
      )
      .default([]),
    /** Start parameters that must be given (bk-ci's valueNotEmpty): 2101254 when missing. */
    required: z.array(z.string()).default([]),
    /**
     * The start parameters the pipeline declares, with their defaults: a start value it does not
     * declare is dropped, one it declares and a start does not give takes its default. Absent:
     * every value a start gives is declared (default "").
     */
    params: z.record(z.string(), z.string()).optional(),
    /** Start parameters declared as passwords (BuildFormProperty type PASSWORD): build_detail's trigger container says so. */
    passwords: z.array(z.string()).default([]),
    /** Locked (disabled): build_start and build_retry are refused with 2101047 (ERROR_PIPELINE_LOCK). */
    locked: z.boolean().default(false),
    /** Every retry fails with this, as bk-ci's checks would: 2101039 when the build's model is gone, … */
    retryError: refusalSchema.optional(),
    /** How a retried run ends (default `result`): a flaky failure that passes the second time. */
    retryResult: z.string().optional(),
    /** Every start fails with this, as bk-ci's checks would: locked, queue full, … */
    startError: refusalSchema.optional(),
    /** A build whose QUEUE phase says where it is in the queue. */
    queuePosition: z.number().int().min(1).default(1),
    /** What a checkout step records as the build's material (`build_histories`' material filters). */
    material: z.array(materialSchema).default([]),
    /** How long bk-ci takes to apply a manual_review decision made through the OpenAPI. */
    decisionDelayMs: z.number().int().min(0).default(1000),
    /** How long a build runs on (finally stages) after its stage review was rejected. */
    rejectRunMs: z.number().int().min(0).default(1000),
    /**
     * How long after its start a build shows in build_histories (a read replica behind, say);
     * build_status knows it at once. Default 0: bk-ci writes the history row before it answers.
     */
    historyLagMs: z.number().int().min(0).default(0),
    /** build_status answers about this build (its whole answer, or just its id when it does not exist) instead of the one asked for. */
    answerAsBuild: z.string().optional(),
    /** What its steps write to the build log, and when (emulator/log-script.ts). */
    logs: logScriptSchema.optional(),
    /** Variables its steps set, read with build_variables (emulator/variables.ts). */
    variables: variablesSeedSchema.optional(),
    /** Files every build archives, listed with artifactories/file_info (emulator/artifacts.ts). */
    artifacts: z.array(artifactSeedSchema).optional(),
  })
  .strict();
export type Pipeline = z.infer<typeof pipelineSchema>;

/** Throws when a phase of the pipeline's (or of a retried run's) names a stage or review step it does not have. */
export function checkPhases(pipeline: Pipeline, phases: Phase[]): void {
  const steps = allSteps(layout(pipeline.pipelineId, pipeline.stages, pipeline.jobs));
  for (const [index, phase] of phases.entries()) {
    if (phase.ms === undefined && phase.review === undefined && phase.step === undefined)
      throw new Error(`phases.${index}.ms: required unless the phase waits for a review (review or step)`);
    if (phase.stage !== undefined && !pipeline.stages.includes(phase.stage))
      throw new Error(`phases.${index}.stage: no stage ${phase.stage}`);
    if (phase.review !== undefined && phase.stage === undefined) throw new Error(`phases.${index}: a review needs its stage`);
    if (phase.step !== undefined && !steps.some((step) => step.name === phase.step && step.reviewers))
      throw new Error(`phases.${index}.step: no manual-review step ${phase.step} (a step with reviewers in jobs)`);
  }
}
