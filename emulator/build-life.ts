// Where a build is in its life at a moment, worked out from what is kept of it (build-records.ts)
// and the life its pipeline scripts (pipeline-seed.ts): the phase under way, a review that waits, a
// decision that ended it, a stop; and what its stages, steps and errorInfoList show then. Pure:
// the time is given. Facts from docs/bkci/builds.md.
import { allSteps, type StageLayout, type StepLayout } from './build-model.ts';
import type { Build } from './build-records.ts';
import type { Phase, Pipeline } from './pipeline-seed.ts';
import { stageReview, stepReview } from './reviews.ts';

/** bk-ci's BuildStatus.isFailure, and the build statuses that end as a failure. */
const FAILURES = new Set([
  'FAILED',
  'TERMINATE',
  'REVIEW_ABORT',
  'QUALITY_CHECK_FAIL',
  'QUEUE_TIMEOUT',
  'EXEC_TIMEOUT',
  'HEARTBEAT_TIMEOUT',
  'QUOTA_FAILED',
]);
/** A status of the queue: the build has not started running (startTime 0). */
export const QUEUED = new Set(['QUEUE', 'QUEUE_CACHE', 'RETRY', 'DEPENDENT_WAITING', 'TRIGGER_REVIEWING']);

/** What a build's current run lives: the pipeline as that run sees it, its stages, when the run entered the queue. */
export interface RunPlan {
  pipeline: Pipeline | undefined;
  stages: StageLayout[];
  queuedAt: number;
}

/** Where a build is in its life at one moment. */
export interface Life {
  status: string;
  endTime: number | null;
  /** For a STAGE_SUCCESS pause: the stage's name. */
  stage?: string;
  phaseIndex: number;
  /** When it left the queue; 0 while queued or when it never ran. */
  startTime: number;
  /** The user stage under way (index into the layout), -1 before any. */
  current: number;
  /** The phase whose review waits, with when the pause began. */
  pending?: { phase: number; since: number };
  /** When each phase reached so far began, by phase index. */
  phaseStarts: number[];
  /** How it ended, when a review decided it. */
  ending?: { kind: 'rejected'; stageIndex: number } | { kind: 'step'; step: StepLayout; action: string };
}

/** Where the walk through the phases stands as one phase begins. */
type PhaseStart = Pick<Life, 'phaseIndex' | 'startTime' | 'current' | 'phaseStarts'> & { begunAt: number };

/** A phase's end: when it ended (the walk goes on), or the life the build stands in during it. */
type PhaseEnd = { endedAt: number } | { life: Life };

/** The whole picture of a build's current run at `at`. */
export function lifeAt(plan: RunPlan, build: Build, at: number): Life {
  if (build.canceledAt !== undefined && build.canceledAt <= at) {
    const { canceledAt, ...running } = build;
    // Stopped: what it was doing then, and nothing waits any more.
    const { pending: _pending, ...before } = lifeAt(plan, running, canceledAt);
    return { ...before, status: 'CANCELED', endTime: canceledAt, phaseIndex: -1 };
  }
  const { pipeline, stages } = plan;
  let begunAt = plan.queuedAt;
  let startTime = 0;
  let current = -1;
  const phaseStarts: number[] = [];
  for (const [phaseIndex, phase] of (pipeline?.phases ?? []).entries()) {
    phaseStarts.push(begunAt);
    if (startTime === 0 && !QUEUED.has(phase.status)) startTime = begunAt;
    if (startTime !== 0) current = Math.max(current, 0);
    const anchored = stageOfPhase(pipeline, stages, phase);
    if (anchored >= 0) current = anchored;
    const start: PhaseStart = { phaseIndex, startTime, current, phaseStarts, begunAt };
    const end = phaseEnd(plan, build, phase, start, at);
    if ('life' in end) return end.life;
    begunAt = end.endedAt;
  }
  return {
    status: pipeline?.result ?? 'SUCCEED',
    endTime: begunAt,
    phaseIndex: pipeline?.phases.length ?? 0,
    startTime,
    current,
    phaseStarts,
  };
}

/** The user stage a phase runs in: its review step's stage, or the stage it names; -1 for none. */
function stageOfPhase(pipeline: Pipeline | undefined, stages: StageLayout[], phase: Phase): number {
  if (phase.step !== undefined) return allSteps(stages).find((step) => step.name === phase.step)?.stageIndex ?? -1;
  return phase.stage === undefined ? -1 : (pipeline?.stages.indexOf(phase.stage) ?? -1);
}

function phaseEnd(plan: RunPlan, build: Build, phase: Phase, start: PhaseStart, at: number): PhaseEnd {
  if (phase.review !== undefined && plan.pipeline !== undefined) return stageReviewEnd(plan.pipeline, build, phase, start, at);
  if (phase.step !== undefined && plan.pipeline !== undefined) return stepReviewEnd(plan.stages, build, phase, start, at);
  const { begunAt, ...here } = start;
  if (phase.ms === undefined || at < begunAt + phase.ms)
    return { life: { ...here, status: phase.status, endTime: null, ...(phase.stage ? { stage: phase.stage } : {}) } };
  return { endedAt: begunAt + phase.ms };
}

/** A stage review: waiting, approved (the walk goes on), or rejected (the finally stages run, then the build ends). */
function stageReviewEnd(pipeline: Pipeline, build: Build, phase: Phase, start: PhaseStart, at: number): PhaseEnd {
  const { begunAt, ...here } = start;
  const review = stageReview(pipeline, build, here.phaseIndex, begunAt, at);
  if (review.decidedAt === undefined)
    return {
      life: {
        ...here,
        status: 'STAGE_SUCCESS',
        endTime: null,
        stage: phase.stage ?? '',
        pending: { phase: here.phaseIndex, since: begunAt },
      },
    };
  if (review.status === 'REVIEW_PROCESSED') return { endedAt: review.decidedAt };
  // Rejected (by a reviewer or the timeout): the build runs its finally stages, then ends STAGE_SUCCESS.
  const ending = { kind: 'rejected' as const, stageIndex: here.current };
  const end = review.decidedAt + pipeline.rejectRunMs;
  return {
    life: at < end ? { ...here, status: 'RUNNING', endTime: null, ending } : { ...here, status: 'STAGE_SUCCESS', endTime: end, ending },
  };
}

/** A manual-review step: waiting until a decision takes effect, approved (the walk goes on), or rejected (the build fails). */
function stepReviewEnd(stages: StageLayout[], build: Build, phase: Phase, start: PhaseStart, at: number): PhaseEnd {
  const { begunAt, ...here } = start;
  const step = allSteps(stages).find((candidate) => candidate.name === phase.step);
  const decision = stepReview(build, here.phaseIndex, at);
  if (step === undefined || decision === undefined || decision.effectiveAt > at)
    return { life: { ...here, status: phase.status, endTime: null, pending: { phase: here.phaseIndex, since: begunAt } } };
  if (decision.action === 'PROCESS') return { endedAt: decision.effectiveAt };
  return { life: { ...here, status: 'FAILED', endTime: decision.effectiveAt, ending: { kind: 'step', step, action: decision.action } } };
}

/** The step a failed build failed at: the one errorInfoList names, else the last step. */
export function failedStep(plan: RunPlan, life: Life): StepLayout | undefined {
  if (life.ending?.kind === 'step') return life.ending.step;
  const steps = allSteps(plan.stages);
  const named = plan.pipeline?.errorInfoList[0]?.taskName;
  return steps.find((step) => step.name === named) ?? steps.at(-1);
}

/** Each user stage's status (undefined: not reached). */
export function stageStatuses(plan: RunPlan, life: Life): (string | undefined)[] {
  const count = plan.pipeline?.stages.length ?? 0;
  const upTo = (reached: number, status: string | undefined) =>
    Array.from({ length: count }, (_, index) => (index < reached ? 'SUCCEED' : index === reached ? status : undefined));
  if (life.startTime === 0) return Array.from({ length: count }, () => undefined);
  if (life.ending?.kind === 'rejected') return upTo(life.ending.stageIndex, 'CANCELED');
  if (life.endTime === null) {
    if (life.status === 'STAGE_SUCCESS') return upTo(life.current, 'PAUSE');
    return upTo(life.current, QUEUED.has(life.status) ? undefined : life.status);
  }
  if (life.status === 'CANCELED') return upTo(life.current, 'CANCELED');
  if (life.status === 'SKIP') return Array.from({ length: count }, () => 'SKIP');
  if (FAILURES.has(life.status)) return upTo(failedStep(plan, life)?.stageIndex ?? count - 1, life.status);
  return upTo(count - 1, life.status);
}

/** errorInfoList of a failed build, each placed at the step it names. */
export function errorInfoList(plan: RunPlan, life: Life): Record<string, unknown>[] {
  if (life.endTime === null || !FAILURES.has(life.status)) return [];
  const steps = allSteps(plan.stages);
  const fallback = failedStep(plan, life);
  return (plan.pipeline?.errorInfoList ?? []).map((error) => {
    const step = steps.find((candidate) => candidate.name === error.taskName) ?? fallback;
    return {
      stageId: `stage-${(step?.stageIndex ?? 0) + 2}`,
      containerId: step?.containerId ?? '1',
      taskId: step?.id ?? '',
      errorType: 'USER',
      ...error,
      atomCode: error.atomCode ?? step?.atomCode ?? 'run',
    };
  });
}
