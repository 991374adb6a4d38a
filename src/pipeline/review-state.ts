// What a build waits for and who may decide it, and whether a review was refused — read from
// build_detail, the only place bk-ci says it (docs/bkci/builds.md#reviews).
import type { BuildDetail } from '../bkci/builds.ts';

type Stage = NonNullable<NonNullable<BuildDetail['model']>['stages']>[number];
type Element = NonNullable<NonNullable<NonNullable<Stage['containers']>[number]['elements']>[number]>;

/** A stage's entry review (its first pending group), or a manual-review step that is REVIEWING. */
export type PendingReview =
  | {
      kind: 'stage';
      /** Tells one pause from the next: stage and group. */
      key: string;
      stageId: string;
      stage: string;
      groupId: string | undefined;
      group: string | undefined;
      reviewers: string[];
    }
  | { kind: 'step'; key: string; elementId: string; stepId: string | undefined; step: string; stage: string; reviewers: string[] };

/** A review that was refused: a stage's (by a reviewer, or by bk-ci on its timeout) or a manual-review step's. */
export interface Rejection {
  /** "stage 'Release'", "step 'Approve release'". */
  what: string;
  /** The stage whose entry review was refused (a manual-review step's: undefined): a retry from it asks again. */
  stageId: string | undefined;
  by: string | undefined;
  why: string | undefined;
  /** bk-ci rejected it itself when the review's timeout passed (suggest "TIMEOUT"). */
  timedOut: boolean;
}

const MANUAL_REVIEW = 'manualReviewUserTask';
/** How bk-ci marks a refused review group (ManualReviewAction.ABORT), and a refused check. */
export const ABORTED = new Set(['ABORT', 'REVIEW_ABORT']);
const stagesOf = (d: BuildDetail): Stage[] => d.model?.stages ?? [];
const elementsOf = (s: Stage): Element[] => (s.containers ?? []).flatMap((c) => c.elements ?? []);
const nameOf = (s: Stage, i: number): string => s.name || s.id || `stage ${i + 1}`;
/** Reviewers as bk-ci checks them: actualReviewUsers (after variables), else reviewUsers, each split at commas. */
const splitUsers = (users: readonly string[] | null | undefined): string[] => [
  ...new Set(
    (users ?? [])
      .flatMap((u) => u.split(','))
      .map((u) => u.trim())
      .filter((u) => u !== ''),
  ),
];

/** The first thing the build waits on a person for, with who may decide it; undefined when nothing waits. */
export function pendingReview(detail: BuildDetail): PendingReview | undefined {
  for (const [index, stage] of stagesOf(detail).entries()) {
    const check = stage.checkIn;
    if (check && (check.status === 'REVIEWING' || stage.status === 'PAUSE')) {
      // Only the first group still pending may decide (StagePauseCheck.groupToReview).
      const group = (check.reviewGroups ?? []).find((g) => !g.status);
      if (group !== undefined || check.status === 'REVIEWING') {
        const stageId = stage.id ?? `stage-${index + 1}`;
        return {
          kind: 'stage',
          key: `stage:${stageId}:${group?.id ?? group?.name ?? ''}`,
          stageId,
          stage: nameOf(stage, index),
          groupId: group?.id ?? undefined,
          group: group?.name ?? undefined,
          reviewers: splitUsers(group?.reviewers),
        };
      }
    }
    // Stage 0 holds the trigger: bk-ci skips it when it looks for a review step.
    if (index === 0) continue;
    const step = elementsOf(stage).find((e) => e['@type'] === MANUAL_REVIEW && e.status === 'REVIEWING');
    if (step?.id)
      return {
        kind: 'step',
        key: `step:${step.id}`,
        elementId: step.id,
        stepId: step.stepId ?? undefined,
        step: step.name || step.id,
        stage: nameOf(stage, index),
        reviewers: splitUsers(step.actualReviewUsers?.length ? step.actualReviewUsers : step.reviewUsers),
      };
  }
  return undefined;
}

/** The review that was refused, if one was: a stage's checkIn REVIEW_ABORT, or a manual-review step ended REVIEW_ABORT. */
export function rejection(detail: BuildDetail): Rejection | undefined {
  for (const [index, stage] of stagesOf(detail).entries()) {
    if (stage.checkIn?.status === 'REVIEW_ABORT') {
      const group = (stage.checkIn.reviewGroups ?? []).find((g) => ABORTED.has(g.status ?? ''));
      const why = group?.suggest || undefined;
      const timedOut = why === 'TIMEOUT';
      const by = timedOut ? undefined : (group?.operator ?? undefined);
      return { what: `stage '${nameOf(stage, index)}'`, stageId: stage.id ?? undefined, by, why, timedOut };
    }
    const step = elementsOf(stage).find((e) => e['@type'] === MANUAL_REVIEW && e.status === 'REVIEW_ABORT');
    if (step !== undefined)
      return { what: `step '${step.name || step.id || '?'}'`, stageId: undefined, by: undefined, why: undefined, timedOut: false };
  }
  return undefined;
}

/** "stage 'Release' was rejected by bob: not today", "… was rejected by bk-ci: its review timed out". */
export function describeRejection(refused: Rejection, timeoutHours?: number): string {
  if (refused.timedOut)
    return `${refused.what} was rejected by bk-ci: nobody decided its review within its timeout${timeoutHours ? ` (${timeoutHours}h)` : ''}`;
  return `${refused.what} was rejected${refused.by ? ` by ${refused.by}` : ''}${refused.why ? `: ${refused.why}` : ''}`;
}

/** "stage 'Release' (group 'QA')", "step 'Approve' of stage 'Deploy'". */
export function describePending(pending: PendingReview): string {
  return pending.kind === 'stage'
    ? `stage '${pending.stage}'${pending.group ? ` (group '${pending.group}')` : ''}`
    : `step '${pending.step}' of stage '${pending.stage}'`;
}

/** The review timeout of the stage that was rejected, in hours, when bk-ci says it. */
export function reviewTimeoutHours(detail: BuildDetail): number | undefined {
  return stagesOf(detail).find((s) => s.checkIn?.status === 'REVIEW_ABORT')?.checkIn?.timeout ?? undefined;
}
