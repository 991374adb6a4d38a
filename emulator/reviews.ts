// Reviews a build waits on: a stage's entry review (StagePauseCheck with review groups) and a
// manual-review step (manualReviewUserTask). Facts from docs/bkci/builds.md#reviews and
// bk-ci's StagePauseCheck (groupToReview, reviewGroup, getReviewGroupById) and PipelineStageService
// (cancelStage: a timeout is rejected by "SYSTEM" with suggest "TIMEOUT", on the first group).
import { createHash } from 'node:crypto';
import type { Build, StepDecision } from './build-records.ts';
import type { Pipeline } from './pipeline-seed.ts';

/** A StageReviewGroup as build_detail shows it; `status` absent (null) while pending. */
export interface GroupView {
  id: string;
  name: string;
  reviewers: string[];
  groups: string[];
  status?: string;
  operator?: string;
  reviewTime?: number;
  suggest?: string;
  params?: unknown[];
}

export interface StageReviewState {
  groups: GroupView[];
  /** The review's params with the values reviewers set so far (passed on to the next group). */
  reviewParams: { key: string; value?: unknown }[];
  status: 'REVIEWING' | 'REVIEW_PROCESSED' | 'REVIEW_ABORT';
  /** When the review was settled (last approval, a rejection, the timeout); undefined while pending. */
  decidedAt?: number;
}

/** bk-ci gives each review group a UUID without dashes when the pipeline is saved. */
export const groupId = (pipelineId: string, phase: number, group: number): string =>
  createHash('md5').update(`${pipelineId}/review/${phase}/${group}`).digest('hex');

/** The stage review of phase `phase`, paused since `since`, as it stands at `at`. */
export function stageReview(pipeline: Pipeline, build: Build, phase: number, since: number, at: number): StageReviewState {
  const review = pipeline.phases[phase]?.review;
  const groups: GroupView[] = (review?.groups ?? []).map((group, index) => ({
    id: groupId(pipeline.pipelineId, phase, index),
    name: group.name,
    reviewers: group.reviewers,
    groups: group.groups,
  }));
  const reviewParams = (review?.params ?? []).map((param) => ({ ...param }));
  const state: StageReviewState = { groups, reviewParams, status: 'REVIEWING' };
  for (const decision of build.decisions) {
    if (decision.kind !== 'stage' || decision.phase !== phase || decision.at > at) continue;
    const group = groups[decision.group];
    if (group === undefined || group.status !== undefined) continue;
    const changed = changedParams(reviewParams, decision.params);
    Object.assign(group, {
      status: decision.action,
      operator: decision.user,
      reviewTime: decision.at,
      ...(decision.suggest === undefined ? {} : { suggest: decision.suggest }),
      ...(changed.length === 0 ? {} : { params: changed }),
    });
    if (decision.action === 'ABORT') return { ...state, status: 'REVIEW_ABORT', decidedAt: decision.at };
    if (groups.every((other) => other.status !== undefined)) return { ...state, status: 'REVIEW_PROCESSED', decidedAt: decision.at };
  }
  const deadline = since + (review?.timeout ?? 24) * 3_600_000;
  if (at >= deadline) {
    // cancelStageBySystem: reviewGroup(groupId = null) is the first group, decided only if still pending.
    const first = groups[0];
    if (first !== undefined && first.status === undefined)
      Object.assign(first, { status: 'ABORT', operator: 'SYSTEM', reviewTime: deadline, suggest: 'TIMEOUT' });
    return { ...state, status: 'REVIEW_ABORT', decidedAt: deadline };
  }
  return state;
}

/**
 * StagePauseCheck.parseReviewParams: a group shows only the params whose value it changed (keys
 * the review does not have are ignored), and the new values pass on to the next group.
 */
function changedParams(current: { key: string; value?: unknown }[], given: unknown[] | undefined): unknown[] {
  const changed: unknown[] = [];
  for (const param of given ?? []) {
    if (typeof param !== 'object' || param === null || !('key' in param)) continue;
    const { key, value } = param as { key: unknown; value?: unknown };
    const origin = current.find((candidate) => candidate.key === key);
    if (origin === undefined || String(origin.value) === String(value)) continue;
    changed.push(param);
    origin.value = value;
  }
  return changed;
}

/** The first group still pending (StagePauseCheck.groupToReview). */
export const pendingGroup = (groups: GroupView[]): number => groups.findIndex((group) => group.status === undefined);

/** The decision on the manual-review step of phase `phase`, if one was made by `at`. */
export function stepReview(build: Build, phase: number, at: number): StepDecision | undefined {
  return build.decisions.find(
    (decision): decision is StepDecision => decision.kind === 'step' && decision.phase === phase && decision.at <= at,
  );
}
