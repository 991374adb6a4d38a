// GET v4/projects/{p}/build_detail?buildId&pipelineId&executeCount: a ModelRecord, the build's
// model with each stage, job and step as it stands now (a retried build: its latest run, or the
// run `executeCount` names). Stage reviews show as the stage's `checkIn` (StagePauseCheck),
// manual-review steps as `manualReviewUserTask` elements. Facts from
// docs/bkci/builds.md (its reviews and retry).
import type { Life } from './build-life.ts';
import { declaredParams, type StageLayout, type StepLayout, triggerStage } from './build-model.ts';
import type { Build } from './build-records.ts';
import type { BuildWorld } from './builds.ts';
import { historyRow } from './histories.ts';
import { runOf } from './retries.ts';
import { groupId, stageReview, stepReview } from './reviews.ts';
import type { Reply } from './wire.ts';

/** The run build_detail shows, where it is in its life. */
interface ShownRun {
  builds: BuildWorld;
  build: Build;
  life: Life;
}

export function buildDetail(builds: BuildWorld, projectId: string, query: URLSearchParams): Reply {
  const found = builds.find(projectId, query.get('buildId'), query.get('pipelineId'));
  if (!('id' in found)) return found;
  const executeCount = query.get('executeCount');
  if (executeCount !== null && executeCount !== '' && !/^-?\d+$/.test(executeCount)) return builds.wire.error(400, 400, '查询参数类型错误');
  // fixedExecuteCount: the latest run unless an earlier one is asked for (none or < 1 is the latest; a later one falls back to it).
  const build = executeCount === null || executeCount === '' ? found : runOf(found, Number(executeCount));
  const pipeline = builds.pipelineOf(build);
  const life = builds.life(build);
  const run: ShownRun = { builds, build, life };
  const row = historyRow(builds, build, life);
  const statuses = builds.stageStatuses(build, life);
  const stages = builds.layoutOf(build).map((stage, index) => stageView(run, stage, statuses[index]));
  const records = [build.userId, ...found.retries.map((retry) => retry.userId)].map((startUser) => ({ startUser, timeCost: {} })).reverse();
  return builds.wire.ok({
    id: build.id,
    pipelineId: build.pipelineId,
    pipelineName: pipeline?.name ?? '',
    userId: build.userId,
    triggerUser: build.userId,
    trigger: row.trigger,
    // The run's record: a retried run was queued by its retry.
    queueTime: builds.runQueuedAt(build),
    startTime: life.startTime,
    ...(life.endTime === null ? {} : { endTime: life.endTime }),
    status: life.status,
    model: {
      name: pipeline?.name ?? '',
      stages: [triggerStage(life.startTime === 0 ? undefined : 'SUCCEED', declaredParams(pipeline, build.params)), ...stages],
    },
    currentTimestamp: builds.now(),
    buildNum: build.num,
    ...(build.cancelUserId === undefined ? {} : { cancelUserId: build.cancelUserId }),
    curVersion: 1,
    latestVersion: 1,
    latestBuildNum: [...builds.builds.values()].filter(
      (other) => other.projectId === build.projectId && other.pipelineId === build.pipelineId,
    ).length,
    executeTime: row.executeTime ?? 0,
    errorInfoList: row.errorInfoList,
    stageStatus: row.stageStatus,
    executeCount: build.executeCount,
    // One record per run, the latest first (BuildRecordModelDao.getRecordInfoList).
    startUserList: records.map((record) => record.startUser),
    recordList: records,
    buildMsg: build.buildMsg,
    material: row.material,
  });
}

/** A user stage of the model: its status, its review's checkIn, its jobs and their steps. */
function stageView(run: ShownRun, stage: StageLayout, status: string | undefined): Record<string, unknown> {
  return {
    id: stage.id,
    name: stage.name,
    ...(status === undefined ? {} : { status }),
    ...checkIn(run, stage),
    containers: stage.jobs.map((job) => ({
      '@type': 'vmBuild',
      id: job.id,
      containerHashId: job.containerHashId,
      ...(job.jobId === null ? {} : { jobId: job.jobId }),
      name: job.name,
      ...(status === undefined || status === 'PAUSE' ? {} : { status }),
      elements: job.steps.map((step) => element(run, stage, status, step)),
    })),
  };
}

/** A stage review as the stage's StagePauseCheck (`checkIn`), as it stands now; none for a stage without review. */
function checkIn(run: ShownRun, stage: StageLayout): { checkIn?: Record<string, unknown> } {
  const { builds, build, life } = run;
  const pipeline = builds.pipelineOf(build);
  const reviewPhase = pipeline?.phases.findIndex((phase) => phase.review !== undefined && phase.stage === stage.name) ?? -1;
  const review = reviewPhase < 0 ? undefined : pipeline?.phases[reviewPhase]?.review;
  if (review === undefined) return {};
  const since = life.phaseStarts[reviewPhase];
  const state = pipeline !== undefined && since !== undefined ? stageReview(pipeline, build, reviewPhase, since, builds.now()) : undefined;
  return {
    checkIn: {
      manualTrigger: true,
      ...(state === undefined ? {} : { status: state.status }),
      ...(review.desc === undefined ? {} : { reviewDesc: review.desc }),
      // Not reached yet: the groups as saved, each with its id (bk-ci's fixReviewGroups).
      reviewGroups: state?.groups ?? review.groups.map((group, index) => ({ id: groupId(build.pipelineId, reviewPhase, index), ...group })),
      reviewParams: state?.reviewParams ?? review.params,
      timeout: review.timeout,
    },
  };
}

/** A step of the model: a market step, or a manual-review step with its reviewers and the decision's words. */
function element(run: ShownRun, stage: StageLayout, stageStatus: string | undefined, step: StepLayout): Record<string, unknown> {
  const { builds, build } = run;
  const base = {
    id: step.id,
    ...(step.stepId === null ? {} : { stepId: step.stepId }),
    name: step.name,
    ...stepStatus(run, stage, stageStatus, step),
  };
  if (step.reviewers === undefined) return { '@type': 'marketBuild', atomCode: step.atomCode, version: '1.*', ...base };
  const phase = builds.pipelineOf(build)?.phases.findIndex((candidate) => candidate.step === step.name) ?? -1;
  const decision = phase < 0 ? undefined : stepReview(build, phase, builds.now());
  return {
    '@type': 'manualReviewUserTask',
    ...base,
    reviewUsers: step.reviewers,
    desc: step.desc ?? '',
    suggest: decision?.suggest ?? '',
    params: decision?.params ?? step.params ?? [],
    namespace: '',
  };
}

/** What a step shows: the running one, the review waiting, the failure and its error. */
function stepStatus(run: ShownRun, stage: StageLayout, stageStatus: string | undefined, step: StepLayout): Record<string, unknown> {
  const { life } = run;
  if (stageStatus === undefined || stageStatus === 'PAUSE') return {};
  if (life.endTime !== null && life.ending?.kind === 'step' && life.ending.step.id === step.id) {
    if (life.ending.action === 'ABORT') return { status: 'REVIEW_ABORT' };
    // bk-ci stores "null" and ManualReviewAction.valueOf("null") throws in the engine.
    return {
      status: 'FAILED',
      errorType: 'SYSTEM',
      errorMsg: 'No enum constant com.tencent.devops.common.pipeline.enums.ManualReviewAction.null',
    };
  }
  if (['SUCCEED', 'SKIP', 'CANCELED'].includes(stageStatus)) return { status: stageStatus };
  // Jobs run side by side: a step's progress is counted within its job.
  const steps = stage.jobs[step.jobIndex]?.steps ?? [];
  return life.endTime !== null ? failedStageStepStatus(run, steps, step) : runningStepStatus(run, steps, step, stageStatus);
}

/** A step of a failed stage: the steps before the failed one ran, the failed one carries its error. */
function failedStageStepStatus(run: ShownRun, steps: StepLayout[], step: StepLayout): Record<string, unknown> {
  const { builds, build, life } = run;
  const failed = builds.failedStep(build, life);
  // Other jobs of the failed stage ran to their end; the failed job stopped at its step.
  if (failed !== undefined && failed.jobIndex !== step.jobIndex) return { status: 'SUCCEED' };
  const at = steps.indexOf(step);
  const failedAt = failed === undefined ? steps.length - 1 : steps.findIndex((candidate) => candidate.id === failed.id);
  if (at < failedAt) return { status: 'SUCCEED' };
  if (at > failedAt) return {};
  const error = builds.errorInfoList(build, life).find((candidate) => candidate.taskId === step.id);
  return {
    status: 'FAILED',
    ...(error === undefined ? {} : { errorType: error.errorType, errorCode: error.errorCode, errorMsg: error.errorMsg }),
  };
}

/** A step of a running stage: a review step in its job marks how far the job got. */
function runningStepStatus(run: ShownRun, steps: StepLayout[], step: StepLayout, stageStatus: string): Record<string, unknown> {
  const { builds, build, life } = run;
  const phases = builds.pipelineOf(build)?.phases;
  const isReviewHere = (phase: { step?: string | undefined }, index: number) =>
    phase.step !== undefined && steps.some((candidate) => candidate.name === phase.step) && index <= life.phaseIndex;
  const reviewPhase = phases?.findIndex(isReviewHere) ?? -1;
  const reviewAt = reviewPhase < 0 ? -1 : steps.findIndex((candidate) => candidate.name === phases?.[reviewPhase]?.step);
  const waiting = life.pending?.phase === reviewPhase && reviewPhase >= 0;
  const runningAt = reviewAt < 0 ? 0 : waiting ? reviewAt : reviewAt + 1;
  const at = steps.indexOf(step);
  if (at < runningAt) return { status: 'SUCCEED' };
  if (at === runningAt) return { status: waiting ? 'REVIEWING' : stageStatus };
  return {};
}
