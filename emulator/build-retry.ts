// POST v4/projects/{p}/build_retry?pipelineId&buildId|buildNumber&taskId&failedContainer&skip, as
// bk-ci answers it (ApigwBuildResourceV4Impl.retry, then PipelineBuildRetryService.retry): the
// build named by its id (or its number with pipelineId, trap X2); refused when it started more than
// 28 days ago (2101258), its pipeline is locked (2101047), its model is gone (2101039), the stage
// named did not fail (2101114) or it has not finished; else the same id with executeCount + 1.
// `taskId` names where the new run starts: a stage (`stage-N`, with failedContainer its failed jobs
// only), a job, a step or an element. bk-ci ignores failedContainer without taskId, and a taskId it
// cannot find in the model: both are a whole-build retry. Facts: docs/bkci/builds.md#retry.
import type { Build, RetryScope } from './build-records.ts';
import { type BuildWorld, PIPELINE_LOCKED } from './builds.ts';
import { retryBuild, retryRefusal } from './retries.ts';
import type { Reply } from './wire.ts';

/** pipeline.build.retry.limit_days: bk-ci's default. */
const RETRY_LIMIT_DAYS = 28;
const DAY_MS = 86_400_000;

/** What the retry starts from: bk-ci's findRetryStartTaskId over the model, or a refusal. */
function scopeOf(builds: BuildWorld, build: Build, query: URLSearchParams): RetryScope | Reply {
  const taskId = query.get('taskId') ?? '';
  const failedContainer = query.get('failedContainer') === 'true';
  const skip = query.get('skip') === 'true';
  if (taskId.trim() === '') return { kind: 'all' };
  const stages = builds.layoutOf(build);
  const at = stages.findIndex((s) => s.id === taskId);
  if (at >= 0) {
    const status = builds.stageStatuses(build, builds.life(build))[at] ?? '';
    // fillRetryStageParams: only a failed or cancelled stage can be retried.
    if (!/FAIL|TIMEOUT|TERMINATE|ABORT|CANCEL/.test(status)) return builds.wire.error(400, 2101114, 'stage非失败状态，不能进行重试');
    return { kind: 'stage', taskId, failedContainer, skip };
  }
  const known = stages.some((s) => s.jobs.some((j) => j.id === taskId || j.steps.some((e) => e.id === taskId || e.stepId === taskId)));
  return known ? { kind: 'task', taskId, failedContainer: false, skip } : { kind: 'all' };
}

export function buildRetry(builds: BuildWorld, projectId: string, query: URLSearchParams, userId: string): Reply {
  const wire = builds.wire;
  const buildId = query.get('buildId') ?? '';
  const pipelineId = query.get('pipelineId');
  let build: Build | Reply | undefined;
  if (buildId.trim() === '') {
    // ParamBlankException: its own text only on a debug profile, else 请求的参数内容为空.
    if (pipelineId === null) return wire.error(400, 400, '请求的参数内容为空');
    const num = Number(query.get('buildNumber') ?? '');
    if (!Number.isInteger(num) || query.get('buildNumber') === null) return wire.error(400, 400, '请求的参数内容为空');
    build = [...builds.builds.values()].find((x) => x.projectId === projectId && x.pipelineId === pipelineId && x.num === num);
    if (build === undefined) return wire.error(400, 400, '请求的参数内容为空');
  } else build = builds.find(projectId, buildId, pipelineId);
  if (!('id' in build)) return build;
  const life = builds.life(build);
  const pipeline = builds.pipelines.get(`${build.projectId}/${build.pipelineId}`);
  const started = life.startTime || build.startedAt;
  if (builds.now() - RETRY_LIMIT_DAYS * DAY_MS > started)
    return wire.error(400, 2101258, `构建数据已过期，重试时间不能晚于构建开始时间${RETRY_LIMIT_DAYS}天以上`);
  if (pipeline?.locked) return wire.error(400, 2101047, PIPELINE_LOCKED);
  if (pipeline?.retryError) return wire.error(pipeline.retryError.http, pipeline.retryError.status, pipeline.retryError.message);
  const scope = scopeOf(builds, build, query);
  if (!('kind' in scope)) return scope;
  const refusal = retryRefusal(builds, build);
  if (refusal !== undefined) return wire.error(400, refusal.status, refusal.message);
  return wire.ok(retryBuild(builds, { buildId: build.id, userId, scope }));
}
