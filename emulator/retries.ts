// Retrying a finished build as bk-ci's PipelineBuildRetryService.retry does with no taskId (a
// rebuild): the same build id, executeCount one more, back through the queue with the new run's
// phases. The earlier runs stay readable: their log lines by executeCount, their model with
// build_detail's executeCount. Facts from docs/bkci/builds.md#retry and docs/bkci/logs.md (L1).
import { z } from 'zod';
import { type Build, type BuildWorld, checkPhases, type Phase, phaseSchema } from './builds.ts';
import { logGeneratorSchema, logLineSchema } from './logs.ts';
import type { Decision } from './reviews.ts';

/** What a retried run writes: lines of the pipeline's log steps, `at` in ms after the retry. */
const retryLogsSchema = z
  .object({
    lines: z.array(logLineSchema.omit({ executeCount: true })).default([]),
    generate: z.array(logGeneratorSchema.omit({ executeCount: true })).default([]),
  })
  .strict();

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

/**
 * Where a run starts, as build_retry's taskId, failedContainer and skip name it: the whole build,
 * a stage (its failed jobs only with failedContainer), or a job, step or element.
 */
export type RetryScope = { kind: 'all' } | { kind: 'stage' | 'task'; taskId: string; failedContainer: boolean; skip: boolean };
export type RetrySeed = z.input<typeof retryBody>;

/** A run after the first: how it lives, and how the run before it ended. */
export interface Retry {
  executeCount: number;
  /** When bk-ci took the retry: the run's queue time, what its phases count from. */
  at: number;
  userId: string;
  phases: Phase[];
  result: string;
  logs?: z.output<typeof retryLogsSchema>;
  /** Where it started: the whole build unless build_retry named a stage or task. */
  scope: RetryScope;
  /** The run it follows, as that run ended: stopped when, by whom, and its review decisions. */
  previous: { canceledAt?: number; cancelUserId?: string; decisions: Decision[] };
}

/** bk-ci's BuildId, as build_start and build_retry answer it. */
export interface BuildIdData {
  id: string;
  executeCount: number;
  projectId: string;
  pipelineId: string;
  num: number;
}

/**
 * bk-ci's refusal to retry the build now, if it refuses. A build that has not finished takes the
 * running-retry path (runningBuildRetry), which needs the stage to retry in that a whole-build retry
 * does not name: 2100002 (PARAMETER_IS_NULL) for BK_CI_RETRY_TASK_IN_STAGE_ID, or 2101129 first
 * when the build is paused at a stage (STAGE_SUCCESS without an end). Both are HTTP 400.
 */
export function retryRefusal(w: BuildWorld, b: Build): { status: number; message: string } | undefined {
  const life = w.life(b);
  if (life.endTime !== null) return undefined;
  if (life.status === 'STAGE_SUCCESS') return { status: 2101129, message: '流水线: 当前构建正在运行中，请勿重复提交重试请求' };
  return { status: 2100002, message: '参数[BK_CI_RETRY_TASK_IN_STAGE_ID]不能为空' };
}

/**
 * Retries a finished build; throws when it has not finished (bk-ci's refusal in the message), when
 * the build does not exist, or when the new run's phases or lines name what the pipeline lacks.
 */
export function retryBuild(w: BuildWorld, input: z.output<typeof retryBody> & { scope?: RetryScope }): BuildIdData {
  const b = w.builds.get(input.buildId);
  if (b === undefined) throw new Error(`buildId: no build ${input.buildId}`);
  const refusal = retryRefusal(w, b);
  if (refusal !== undefined) throw new Error(`bk-ci refuses to retry ${b.id} (${w.life(b).status}): ${refusal.status} ${refusal.message}`);
  const p = w.pipelines.get(`${b.projectId}/${b.pipelineId}`);
  if (p === undefined) throw new Error(`build ${b.id}: its pipeline ${b.pipelineId} is gone`);
  const phases = input.phases ?? p.phases;
  checkPhases(p, phases);
  if (input.logs !== undefined) {
    if (p.logs === undefined) throw new Error(`logs: pipeline ${p.pipelineId} has no log script, whose steps a retried run's lines use`);
    const tags = new Set(p.logs.steps.map((s) => s.tag));
    for (const list of ['lines', 'generate'] as const)
      for (const [i, { step }] of input.logs[list].entries())
        if (!tags.has(step)) throw new Error(`logs.${list}.${i}: step "${step}" is not one of the pipeline's logs.steps[].tag`);
  }
  const previous = {
    ...(b.canceledAt === undefined ? {} : { canceledAt: b.canceledAt }),
    ...(b.cancelUserId === undefined ? {} : { cancelUserId: b.cancelUserId }),
    decisions: b.decisions,
  };
  b.retries.push({
    executeCount: b.executeCount + 1,
    at: w.now(),
    userId: input.userId,
    phases,
    // A skipped failed step lets the run go on to the pipeline's end; retryResult is a flaky step passing.
    result:
      input.result ?? (input.scope !== undefined && 'skip' in input.scope && input.scope.skip ? 'SUCCEED' : (p.retryResult ?? p.result)),
    scope: input.scope ?? { kind: 'all' },
    ...(input.logs === undefined ? {} : { logs: input.logs }),
    previous,
  });
  b.executeCount += 1;
  // The new run starts clean: no stop, no review decided yet.
  delete b.canceledAt;
  delete b.cancelUserId;
  b.decisions = [];
  return { id: b.id, executeCount: b.executeCount, projectId: b.projectId, pipelineId: b.pipelineId, num: b.num };
}

/** The build as run `executeCount` of it stands (an earlier run as it ended); the current run for any other count. */
export function runOf(b: Build, executeCount: number): Build {
  const next = b.retries[executeCount - 1];
  if (executeCount < 1 || executeCount >= b.executeCount || next === undefined) return b;
  const { canceledAt: _, cancelUserId: __, ...rest } = b;
  return { ...rest, ...next.previous, executeCount, retries: b.retries.slice(0, executeCount - 1) };
}
