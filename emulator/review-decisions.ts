// Deciding what a build waits for: the control API's `POST /__emulator/reviews` (any named user,
// no refusals beyond "nothing waits") and bk-ci's own review endpoints with their refusals
// (docs/bkci/builds.md#reviews; PipelineBuildFacadeService, StagePauseCheck).
import { z } from 'zod';
import { allSteps } from './build-model.ts';
import type { Build, StepDecision } from './build-records.ts';
import type { BuildWorld } from './builds.ts';
import { pendingGroup, stageReview } from './reviews.ts';
import type { Reply } from './wire.ts';

export const reviewBody = z
  .object({
    buildId: z.string().min(1),
    action: z.enum(['approve', 'reject']),
    user: z.string().min(1).default('admin'),
    suggest: z.string().optional(),
    /** ManualReviewParam values the reviewer sets. */
    params: z.array(z.unknown()).optional(),
  })
  .strict();

/** What the build waits for now: a stage review's pending group or a manual-review step. */
function waitingReview(
  builds: BuildWorld,
  build: Build,
): { kind: 'stage'; phase: number; group: number } | { kind: 'step'; phase: number } | undefined {
  const life = builds.life(build);
  const pipeline = builds.pipelineOf(build);
  if (life.pending === undefined || pipeline === undefined || life.endTime !== null) return undefined;
  const phase = pipeline.phases[life.pending.phase];
  if (phase?.review !== undefined) {
    const group = pendingGroup(stageReview(pipeline, build, life.pending.phase, life.pending.since, builds.now()).groups);
    return group < 0 ? undefined : { kind: 'stage', phase: life.pending.phase, group };
  }
  if (phase?.step !== undefined && !build.decisions.some((d) => d.kind === 'step' && d.phase === life.pending?.phase))
    return { kind: 'step', phase: life.pending.phase };
  return undefined;
}

/** The control API's decision: made at once, as `user`, whoever that is. */
export function decideByControl(builds: BuildWorld, input: z.output<typeof reviewBody>): { decided: string } {
  const build = builds.builds.get(input.buildId);
  if (build === undefined) throw new Error(`buildId: no build ${input.buildId}`);
  const waiting = waitingReview(builds, build);
  if (waiting === undefined) throw new Error(`build ${build.id} waits for no review now (status ${builds.life(build).status})`);
  const action = input.action === 'approve' ? 'PROCESS' : 'ABORT';
  const at = builds.now();
  const common = {
    phase: waiting.phase,
    action,
    user: input.user,
    at,
    ...(input.suggest === undefined ? {} : { suggest: input.suggest }),
    ...(input.params === undefined ? {} : { params: input.params }),
  } as const;
  if (waiting.kind === 'stage') {
    build.decisions.push({ kind: 'stage', group: waiting.group, ...common });
    return { decided: `stage review group ${waiting.group + 1}: ${action}` };
  }
  build.decisions.push({ kind: 'step', effectiveAt: at, ...common });
  return { decided: `manual-review step: ${action}` };
}

/** A query parameter bk-ci declares non-null: missing, it is ApiAspect's 400. */
function required(builds: BuildWorld, query: URLSearchParams, name: string): string | Reply {
  const value = query.get(name);
  return value === null ? builds.wire.error(400, 400, `参数校验失败:request param ${name} cannot be empty`) : value;
}

const stageReviewRequest = z
  .object({
    reviewParams: z.array(z.object({ key: z.string() }).passthrough()),
    id: z.string().nullish(),
    suggest: z.string().nullish(),
  })
  .passthrough();

/**
 * POST v4/projects/{p}/manual_start_build_stage?buildId&stageId&pipelineId&cancel, body an
 * optional StageReviewRequest: PipelineBuildFacadeService.buildManualStartStage's checks, in its
 * order, then the decision on the pending group, applied at once.
 */
export function manualStartStage(builds: BuildWorld, projectId: string, query: URLSearchParams, userId: string, body: unknown): Reply {
  const buildId = required(builds, query, 'buildId');
  if (typeof buildId !== 'string') return buildId;
  const stageId = required(builds, query, 'stageId');
  if (typeof stageId !== 'string') return stageId;
  const build = builds.find(projectId, buildId, query.get('pipelineId'));
  if (!('id' in build)) return build;
  let request: z.infer<typeof stageReviewRequest> | undefined;
  if (body !== undefined && body !== null) {
    const parsed = stageReviewRequest.safeParse(body);
    if (!parsed.success) return builds.wire.error(400, 400, '请求体内容参数错误。温馨提示：请确认reviewParams是否符合要求');
    request = parsed.data;
  }
  const pipeline = builds.pipelineOf(build);
  const index = pipeline?.stages.findIndex((_, i) => `stage-${i + 2}` === stageId) ?? -1;
  if (stageId !== 'stage-1' && index < 0) return builds.wire.error(404, 2101166, `构建中Stage[${stageId}]不存在`);
  const life = builds.life(build);
  if (index < 0 || builds.stageStatuses(build, life)[index] !== 'PAUSE')
    return builds.wire.error(400, 2101167, `构建中Stage[${stageId}]未处于等待把关状态`);
  // A timed pause without review groups has no checkIn: no group matches and nobody may review.
  const pending = life.pending;
  const review = pending === undefined || pipeline === undefined ? undefined : pipeline.phases[pending.phase]?.review;
  const groups =
    pending === undefined || pipeline === undefined || review === undefined
      ? []
      : stageReview(pipeline, build, pending.phase, pending.since, builds.now()).groups;
  const id = request?.id;
  const asked = id === undefined || id === null || id.trim() === '' ? groups[0] : groups.find((g) => g.id === id);
  const next = pendingGroup(groups);
  if (asked?.id !== groups[next]?.id) return builds.wire.error(403, 2101073, `Stage[${stageId}]的审核组ID[${id ?? 'Flow 1'}]不存在`);
  if (!groups[next]?.reviewers.includes(userId) || pending === undefined)
    return builds.wire.error(403, 2101008, `流水线: 用户无${stageId}权限`);
  const cancel = (query.get('cancel') ?? '').toLowerCase() === 'true';
  build.decisions.push({
    kind: 'stage',
    phase: pending.phase,
    group: next,
    action: cancel ? 'ABORT' : 'PROCESS',
    user: userId,
    at: builds.now(),
    ...(request?.suggest === undefined || request.suggest === null ? {} : { suggest: request.suggest }),
    ...(request === undefined ? {} : { params: request.reviewParams }),
  });
  return builds.wire.ok(true);
}

const reviewParam = z
  .object({
    status: z.enum(['PROCESS', 'ABORT']).nullish(),
    suggest: z.string().nullish(),
    desc: z.string().nullish(),
    params: z.array(z.unknown()).nullish(),
  })
  .passthrough();

/**
 * POST v4/projects/{p}/manual_review?buildId&pipelineId&elementId&stepId, body a ReviewParam:
 * ServiceBuildResourceImpl.manualReview and PipelineBuildFacadeService.buildManualReview. The
 * decision is stored on the step (a later one before the engine acts replaces it, as taskParams
 * are overwritten) and acted on `decisionDelayMs` later; `status` missing is stored as "null".
 */
export function manualReview(builds: BuildWorld, projectId: string, query: URLSearchParams, userId: string, body: unknown): Reply {
  const buildId = required(builds, query, 'buildId');
  if (typeof buildId !== 'string') return buildId;
  const build = builds.find(projectId, buildId, query.get('pipelineId'));
  if (!('id' in build)) return build;
  const elementId = query.get('elementId') ?? '';
  const stepId = query.get('stepId') ?? '';
  // ParamBlankException("Invalid elementId&stepId"): the mapper shows its generic text, the detail in data.
  if (elementId.trim() === '' && stepId.trim() === '') return builds.wire.error(400, 400, '请求的参数内容为空', 'Invalid elementId&stepId');
  const parsed = reviewParam.safeParse(body);
  if (!parsed.success) return builds.wire.error(400, 400, 'JSON参数错误');
  let taskId = elementId;
  for (const step of allSteps(builds.layoutOf(build))) {
    if (elementId.trim() !== '' && step.id !== elementId) continue;
    if (stepId.trim() !== '' && step.stepId !== stepId) continue;
    if (step.reviewers === undefined) continue;
    taskId = step.id;
    if (!step.reviewers.includes(userId)) return builds.wire.error(400, 2101018, `流水线: 用户(${userId})不在审核人员名单中`);
  }
  const life = builds.life(build);
  const pipeline = builds.pipelineOf(build);
  const phase = life.pending?.phase;
  const waiting = phase === undefined ? undefined : pipeline?.phases[phase]?.step;
  const step = allSteps(builds.layoutOf(build)).find((s) => s.id === taskId);
  if (phase === undefined || pipeline === undefined || step === undefined || waiting !== step.name)
    return builds.wire.error(400, 2101279, `插件【ID:${taskId}】不存在或者不是可审核状态`);
  const now = builds.now();
  const earlier = build.decisions.findIndex((d) => d.kind === 'step' && d.phase === phase);
  const effectiveAt = earlier >= 0 ? (build.decisions[earlier] as StepDecision).effectiveAt : now + pipeline.decisionDelayMs;
  if (earlier >= 0) build.decisions.splice(earlier, 1);
  const { status, suggest, desc, params } = parsed.data;
  build.decisions.push({
    kind: 'step',
    phase,
    action: status ?? 'null',
    user: userId,
    at: now,
    effectiveAt,
    ...(suggest === undefined || suggest === null ? {} : { suggest }),
    ...(desc === undefined || desc === null ? {} : { desc }),
    ...(params === undefined || params === null ? {} : { params }),
  });
  if (status === 'ABORT') build.cancelUserId = userId;
  return builds.wire.ok(true);
}
