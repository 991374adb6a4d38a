// Builds seeded into a pipeline's history (POST /__emulator/builds): an earlier attempt's build, with
// the message it was started with, its status and when it started, as build_histories, build_status
// and build_retry then see it. A test plays "attempt 1" with it; the build lives as seeded, not as
// the pipeline's phases.
import { z } from 'zod';
import type { Build } from './build-records.ts';
import type { BuildWorld } from './builds.ts';
import { BUILD_STATUSES } from './histories.ts';
import { checkPhases, phaseSchema } from './pipeline-seed.ts';

/** Statuses a build is still in: the seeded build stays in them for `runMs`, then ends with `result`. */
const UNDER_WAY = new Set([
  'QUEUE',
  'QUEUE_CACHE',
  'RUNNING',
  'PREPARE_ENV',
  'LOOP_WAITING',
  'CALL_WAITING',
  'REVIEWING',
  'PAUSE',
  'DEPENDENT_WAITING',
]);

export const seededBuildBody = z
  .object({
    projectId: z.string().min(1).default('demo'),
    pipelineId: z.string().regex(/^p-/),
    /** BK_CI_BUILD_MSG as the earlier start sent it. */
    buildMsg: z.string().default(''),
    /** Where it is now: an end (SUCCEED, FAILED, CANCELED, …) or a status still under way (RUNNING, QUEUE, …). */
    status: z
      .string()
      .refine((s) => BUILD_STATUSES.has(s), "status: not one of bk-ci's BuildStatus names")
      .default('SUCCEED'),
    /** When it was started, ms since the epoch (default: now); the 28-day retry limit counts from it. */
    startTime: z.number().int().optional(),
    /** How long a status under way lasts before it ends with `result`; default an hour. */
    runMs: z.number().int().min(0).default(3_600_000),
    /** How a build under way ends. */
    result: z.string().default('SUCCEED'),
    /** Or its whole life, as a pipeline's phases; then `status` is ignored and `result` ends it. */
    phases: z.array(phaseSchema).optional(),
    params: z.record(z.string(), z.string()).default({}),
    userId: z.string().min(1).default('admin'),
  })
  .strict();
export type BuildSeed = z.input<typeof seededBuildBody>;

/** Adds the build to its pipeline's history; throws when the pipeline is not seeded or the phases name what it lacks. */
export function seedBuild(builds: BuildWorld, input: z.output<typeof seededBuildBody>): Build {
  const pipeline = builds.pipelines.get(`${input.projectId}/${input.pipelineId}`);
  if (pipeline === undefined) throw new Error(`pipelineId: no pipeline ${input.pipelineId} in project ${input.projectId}; seed it first`);
  // An end: it ran from startTime and ended there; under way: that status for runMs.
  const script =
    input.phases !== undefined
      ? { phases: input.phases, result: input.result }
      : UNDER_WAY.has(input.status)
        ? { phases: [{ status: input.status, ms: input.runMs }], result: input.result }
        : { phases: [{ status: 'RUNNING', ms: 0 }], result: input.status };
  checkPhases(pipeline, script.phases);
  const build = builds.create({
    projectId: input.projectId,
    pipelineId: input.pipelineId,
    userId: input.userId,
    params: { ...input.params, ...(input.buildMsg === '' ? {} : { BK_CI_BUILD_MSG: input.buildMsg }) },
    startedAt: input.startTime ?? builds.now(),
  });
  build.script = script;
  return build;
}
