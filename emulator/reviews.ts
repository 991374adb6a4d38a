// Reviews a build waits on: a stage's entry review (StagePauseCheck with review groups) and a
// manual-review step (manualReviewUserTask). Facts from docs/bkci/builds.md#reviews and
// bk-ci's StagePauseCheck (groupToReview, reviewGroup, getReviewGroupById) and PipelineStageService
// (cancelStage: a timeout is rejected by "SYSTEM" with suggest "TIMEOUT", on the first group).
import { createHash } from 'node:crypto';
import type { Build, Pipeline } from './builds.ts';

/** A decision on a stage's review group. */
export interface StageDecision {
  kind: 'stage';
  phase: number;
  group: number;
  action: 'PROCESS' | 'ABORT';
  user: string;
  suggest?: string;
  params?: unknown[];
  at: number;
}

/** A decision on a manual-review step; `null` is what bk-ci stores when `status` is missing. */
export interface StepDecision {
  kind: 'step';
  phase: number;
  action: 'PROCESS' | 'ABORT' | 'null';
  user: string;
  suggest?: string;
  desc?: string;
  params?: unknown[];
  at: number;
  /** When the build moves on: bk-ci's engine picks the decision up moments later. */
  effectiveAt: number;
}

export type Decision = StageDecision | StepDecision;

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
export function stageReview(p: Pipeline, b: Build, phase: number, since: number, at: number): StageReviewState {
  const review = p.phases[phase]?.review;
  const groups: GroupView[] = (review?.groups ?? []).map((g, i) => ({
    id: groupId(p.pipelineId, phase, i),
    name: g.name,
    reviewers: g.reviewers,
    groups: g.groups,
  }));
  const reviewParams = (review?.params ?? []).map((x) => ({ ...x }));
  const state: StageReviewState = { groups, reviewParams, status: 'REVIEWING' };
  for (const d of b.decisions) {
    if (d.kind !== 'stage' || d.phase !== phase || d.at > at) continue;
    const g = groups[d.group];
    if (g === undefined || g.status !== undefined) continue;
    const changed = changedParams(reviewParams, d.params);
    Object.assign(g, {
      status: d.action,
      operator: d.user,
      reviewTime: d.at,
      ...(d.suggest === undefined ? {} : { suggest: d.suggest }),
      ...(changed.length === 0 ? {} : { params: changed }),
    });
    if (d.action === 'ABORT') return { ...state, status: 'REVIEW_ABORT', decidedAt: d.at };
    if (groups.every((x) => x.status !== undefined)) return { ...state, status: 'REVIEW_PROCESSED', decidedAt: d.at };
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
    const origin = current.find((c) => c.key === key);
    if (origin === undefined || String(origin.value) === String(value)) continue;
    changed.push(param);
    origin.value = value;
  }
  return changed;
}

/** The first group still pending (StagePauseCheck.groupToReview). */
export const pendingGroup = (groups: GroupView[]): number => groups.findIndex((g) => g.status === undefined);

/** The decision on the manual-review step of phase `phase`, if one was made by `at`. */
export function stepReview(b: Build, phase: number, at: number): StepDecision | undefined {
  return b.decisions.find((d): d is StepDecision => d.kind === 'step' && d.phase === phase && d.at <= at);
}
