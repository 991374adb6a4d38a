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

/** What a step shows: the running one, the review waiting, the failure and its error. */
function stepStatus(w: BuildWorld, b: Build, life: Life, stage: StageLayout, stageStatus: string | undefined, step: StepLayout) {
  if (stageStatus === undefined || stageStatus === 'PAUSE') return {};
  const p = w.pipelineOf(b);
  // Jobs run side by side: a step's progress is counted within its job.
  const steps = stage.jobs[step.jobIndex]?.steps ?? [];
  const at = steps.indexOf(step);
  if (life.endTime !== null && life.ending?.kind === 'step' && life.ending.step.id === step.id) {
    const action = life.ending.action;
    if (action === 'ABORT') return { status: 'REVIEW_ABORT' };
    // bk-ci stores "null" and ManualReviewAction.valueOf("null") throws in the engine.
    return {
      status: 'FAILED',
      errorType: 'SYSTEM',
      errorMsg: 'No enum constant com.tencent.devops.common.pipeline.enums.ManualReviewAction.null',
    };
  }
  if (['SUCCEED', 'SKIP', 'CANCELED'].includes(stageStatus)) return { status: stageStatus };
  if (life.endTime !== null) {
    // A failed stage: the steps before the failed one ran, the failed one carries its error.
    const failed = w.failedStep(b, life);
    // Other jobs of the failed stage ran to their end; the failed job stopped at its step.
    if (failed !== undefined && failed.jobIndex !== step.jobIndex) return { status: 'SUCCEED' };
    const failedAt = failed === undefined ? steps.length - 1 : steps.findIndex((s) => s.id === failed.id);
    if (at < failedAt) return { status: 'SUCCEED' };
    if (at > failedAt) return {};
    const error = w.errorInfoList(b, life).find((e) => e.taskId === step.id);
    return {
      status: 'FAILED',
      ...(error === undefined ? {} : { errorType: error.errorType, errorCode: error.errorCode, errorMsg: error.errorMsg }),
    };
  }
  // Running: a review step in this stage marks how far it got.
  const reviewPhase =
    p?.phases.findIndex((ph, i) => ph.step !== undefined && steps.some((s) => s.name === ph.step) && i <= life.phaseIndex) ?? -1;
  const reviewAt = reviewPhase < 0 ? -1 : steps.findIndex((s) => s.name === p?.phases[reviewPhase]?.step);
  const waiting = life.pending?.phase === reviewPhase && reviewPhase >= 0;
  const runningAt = reviewAt < 0 ? 0 : waiting ? reviewAt : reviewAt + 1;
  if (at < runningAt) return { status: 'SUCCEED' };
  if (at === runningAt) return { status: waiting ? 'REVIEWING' : stageStatus };
  return {};
}

function element(w: BuildWorld, b: Build, life: Life, stage: StageLayout, status: string | undefined, step: StepLayout) {
  const base = {
    id: step.id,
    ...(step.stepId === null ? {} : { stepId: step.stepId }),
    name: step.name,
    ...stepStatus(w, b, life, stage, status, step),
  };
  if (step.reviewers === undefined) return { '@type': 'marketBuild', atomCode: step.atomCode, version: '1.*', ...base };
  const phase = w.pipelineOf(b)?.phases.findIndex((ph) => ph.step === step.name) ?? -1;
  const decision = phase < 0 ? undefined : stepReview(b, phase, w.now());
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

export function buildDetail(w: BuildWorld, projectId: string, query: URLSearchParams): Reply {
  const found = w.find(projectId, query.get('buildId'), query.get('pipelineId'));
  if (!('id' in found)) return found;
  const executeCount = query.get('executeCount');
  if (executeCount !== null && executeCount !== '' && !/^-?\d+$/.test(executeCount)) return w.wire.error(400, 400, '查询参数类型错误');
  // fixedExecuteCount: the latest run unless an earlier one is asked for (none or < 1 is the latest; a later one falls back to it).
  const b = executeCount === null || executeCount === '' ? found : runOf(found, Number(executeCount));
  const p = w.pipelineOf(b);
  const life = w.life(b);
  const row = historyRow(w, b, life);
  const statuses = w.stageStatuses(b, life);
  const stages = w.layoutOf(b).map((stage, i) => {
    const status = statuses[i];
    const reviewPhase = p?.phases.findIndex((ph) => ph.review !== undefined && ph.stage === stage.name) ?? -1;
    const review = reviewPhase < 0 ? undefined : p?.phases[reviewPhase]?.review;
    const since = life.phaseStarts[reviewPhase];
    const state = p !== undefined && since !== undefined ? stageReview(p, b, reviewPhase, since, w.now()) : undefined;
    return {
      id: stage.id,
      name: stage.name,
      ...(status === undefined ? {} : { status }),
      ...(review === undefined
        ? {}
        : {
            checkIn: {
              manualTrigger: true,
              ...(state === undefined ? {} : { status: state.status }),
              ...(review.desc === undefined ? {} : { reviewDesc: review.desc }),
              // Not reached yet: the groups as saved, each with its id (bk-ci's fixReviewGroups).
              reviewGroups: state?.groups ?? review.groups.map((g, k) => ({ id: groupId(b.pipelineId, reviewPhase, k), ...g })),
              reviewParams: state?.reviewParams ?? review.params,
              timeout: review.timeout,
            },
          }),
      containers: stage.jobs.map((job) => ({
        '@type': 'vmBuild',
        id: job.id,
        containerHashId: job.containerHashId,
        ...(job.jobId === null ? {} : { jobId: job.jobId }),
        name: job.name,
        ...(status === undefined || status === 'PAUSE' ? {} : { status }),
        elements: job.steps.map((step) => element(w, b, life, stage, status, step)),
      })),
    };
  });
  const records = [b.userId, ...found.retries.map((r) => r.userId)].map((startUser) => ({ startUser, timeCost: {} })).reverse();
  return w.wire.ok({
    id: b.id,
    pipelineId: b.pipelineId,
    pipelineName: p?.name ?? '',
    userId: b.userId,
    triggerUser: b.userId,
    trigger: row.trigger,
    // The run's record: a retried run was queued by its retry.
    queueTime: w.runQueuedAt(b),
    startTime: life.startTime,
    ...(life.endTime === null ? {} : { endTime: life.endTime }),
    status: life.status,
    model: {
      name: p?.name ?? '',
      stages: [triggerStage(life.startTime === 0 ? undefined : 'SUCCEED', declaredParams(p, b.params)), ...stages],
    },
    currentTimestamp: w.now(),
    buildNum: b.num,
    ...(b.cancelUserId === undefined ? {} : { cancelUserId: b.cancelUserId }),
    curVersion: 1,
    latestVersion: 1,
    latestBuildNum: [...w.builds.values()].filter((x) => x.projectId === b.projectId && x.pipelineId === b.pipelineId).length,
    executeTime: row.executeTime ?? 0,
    errorInfoList: row.errorInfoList,
    stageStatus: row.stageStatus,
    executeCount: b.executeCount,
    // One record per run, the latest first (BuildRecordModelDao.getRecordInfoList).
    startUserList: records.map((r) => r.startUser),
    recordList: records,
    buildMsg: b.buildMsg,
    material: row.material,
  });
}
