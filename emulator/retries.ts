// Retrying a finished build as bk-ci's PipelineBuildRetryService.retry does with no taskId (a
// rebuild): the same build id, executeCount one more, back through the queue with the new run's
// phases. The earlier runs stay readable: their log lines by executeCount, their model with
// build_detail's executeCount. Facts from docs/bkci/builds.md#retry and docs/bkci/logs.md (L1).
import { z } from 'zod';
import type { Build, BuildIdData, RetryScope } from './build-records.ts';
import type { BuildWorld } from './builds.ts';
import { type RetryLogs, retryLogsSchema } from './log-script.ts';
import { checkPhases, type Pipeline, phaseSchema } from './pipeline-seed.ts';

/** POST /__emulator/builds/retry, and Emulator.retryBuild. */
export const retryBody = z
  .object({
    buildId: z.string().regex(/^b-/),
    /** Who retries it: the new run's start user. */
    userId: z.string().min(1).default('admin'),
    /** The new run's life; default the pipeline's phases. */
    phases: z.array(phaseSchema).optional(),
    /** How the new run ends; default the pipeline's result. */
    result: z.string().min(1).optional(),
    /** What the new run writes; default what the first run wrote, again. */
    logs: retryLogsSchema.optional(),
  })
  .strict();
export type RetrySeed = z.input<typeof retryBody>;

/**
 * bk-ci's refusal to retry the build now, if it refuses. A build that has not finished takes the
 * running-retry path (runningBuildRetry), which needs the stage to retry in that a whole-build retry
 * does not name: 2100002 (PARAMETER_IS_NULL) for BK_CI_RETRY_TASK_IN_STAGE_ID, or 2101129 first
 * when the build is paused at a stage (STAGE_SUCCESS without an end). Both are HTTP 400.
 */
export function retryRefusal(builds: BuildWorld, build: Build): { status: number; message: string } | undefined {
  const life = builds.life(build);
  if (life.endTime !== null) return undefined;
  if (life.status === 'STAGE_SUCCESS') return { status: 2101129, message: '流水线: 当前构建正在运行中，请勿重复提交重试请求' };
  return { status: 2100002, message: '参数[BK_CI_RETRY_TASK_IN_STAGE_ID]不能为空' };
}

/**
 * Retries a finished build; throws when it has not finished (bk-ci's refusal in the message), when
 * the build does not exist, or when the new run's phases or lines name what the pipeline lacks.
 */
export function retryBuild(builds: BuildWorld, input: z.output<typeof retryBody> & { scope?: RetryScope }): BuildIdData {
  const build = builds.builds.get(input.buildId);
  if (build === undefined) throw new Error(`buildId: no build ${input.buildId}`);
  const refusal = retryRefusal(builds, build);
  if (refusal !== undefined)
    throw new Error(`bk-ci refuses to retry ${build.id} (${builds.life(build).status}): ${refusal.status} ${refusal.message}`);
  const pipeline = builds.pipelines.get(`${build.projectId}/${build.pipelineId}`);
  if (pipeline === undefined) throw new Error(`build ${build.id}: its pipeline ${build.pipelineId} is gone`);
  const phases = input.phases ?? pipeline.phases;
  checkPhases(pipeline, phases);
  if (input.logs !== undefined) checkRetryLogs(pipeline, input.logs);
  const previous = {
    ...(build.canceledAt === undefined ? {} : { canceledAt: build.canceledAt }),
    ...(build.cancelUserId === undefined ? {} : { cancelUserId: build.cancelUserId }),
    decisions: build.decisions,
  };
  const skips = input.scope !== undefined && 'skip' in input.scope && input.scope.skip;
  build.retries.push({
    executeCount: build.executeCount + 1,
    at: builds.now(),
    userId: input.userId,
    phases,
    // A skipped failed step lets the run go on to the pipeline's end; retryResult is a flaky step passing.
    result: input.result ?? (skips ? 'SUCCEED' : (pipeline.retryResult ?? pipeline.result)),
    scope: input.scope ?? { kind: 'all' },
    ...(input.logs === undefined ? {} : { logs: input.logs }),
    previous,
  });
  build.executeCount += 1;
  // The new run starts clean: no stop, no review decided yet.
  delete build.canceledAt;
  delete build.cancelUserId;
  build.decisions = [];
  return { id: build.id, executeCount: build.executeCount, projectId: build.projectId, pipelineId: build.pipelineId, num: build.num };
}

/** Throws when a retried run's lines name a step the pipeline's log script does not have. */
function checkRetryLogs(pipeline: Pipeline, logs: RetryLogs): void {
  if (pipeline.logs === undefined)
    throw new Error(`logs: pipeline ${pipeline.pipelineId} has no log script, whose steps a retried run's lines use`);
  const tags = new Set(pipeline.logs.steps.map((step) => step.tag));
  for (const list of ['lines', 'generate'] as const)
    for (const [index, { step }] of logs[list].entries())
      if (!tags.has(step)) throw new Error(`logs.${list}.${index}: step "${step}" is not one of the pipeline's logs.steps[].tag`);
}

/** The build as run `executeCount` of it stands (an earlier run as it ended); the current run for any other count. */
export function runOf(build: Build, executeCount: number): Build {
  const next = build.retries[executeCount - 1];
  if (executeCount < 1 || executeCount >= build.executeCount || next === undefined) return build;
  const { canceledAt: _canceledAt, cancelUserId: _cancelUserId, ...rest } = build;
  return { ...rest, ...next.previous, executeCount, retries: build.retries.slice(0, executeCount - 1) };
}
