// Deciding what a build waits for (v4): a stage's entry review and a manual-review step. Facts
// and refusals: docs/bkci/builds.md#reviews.
import { z } from '../base/schema.ts';
import { atBuild, type BuildRef, type Calls } from './builds.ts';
import { onBoth } from './routes.ts';

export const MANUAL_START_STAGE = onBoth('POST', 'v4/projects/{projectId}/manual_start_build_stage');
export const MANUAL_REVIEW = onBoth('POST', 'v4/projects/{projectId}/manual_review');

/** Refusals of the two review endpoints, by bk-ci's code. */
export const REVIEW_REFUSALS: Record<number, string> = {
  2101073: 'the review group sent is not the one pending',
  2101008: 'the user is not among the reviewers of the pending group',
  2101167: 'the stage is not waiting for review',
  2101018: 'the user is not among the reviewers of the step',
  2101279: 'the step does not exist or is not waiting for review',
};

/** What waits for the decision: a stage's entry review (its group, by id), or a manual-review step. */
export type ReviewAt =
  | { kind: 'stage'; stageId: string; groupId: string | undefined }
  | { kind: 'step'; elementId: string; stepId: string | undefined };

/** A decision as bk-ci takes it: approve or reject, a reason, the review's parameters (ManualReviewParam, as defined). */
export interface ReviewDecision {
  decision: 'approve' | 'reject';
  suggestion: string | undefined;
  params: readonly unknown[];
}

/** POSTs the decision: a stage's to manual_start_build_stage (cancel=true rejects), a step's to manual_review (PROCESS or ABORT). */
export async function decideReview(api: Calls, build: BuildRef, at: ReviewAt, decided: ReviewDecision): Promise<void> {
  const suggest = decided.suggestion === undefined ? {} : { suggest: decided.suggestion };
  if (at.kind === 'stage')
    await api.call({
      endpoint: MANUAL_START_STAGE,
      ...atBuild(build, { stageId: at.stageId, cancel: decided.decision === 'reject' ? 'true' : 'false' }),
      body: { reviewParams: decided.params, ...(at.groupId === undefined ? {} : { id: at.groupId }), ...suggest },
      data: z.unknown(),
    });
  else
    await api.call({
      endpoint: MANUAL_REVIEW,
      ...atBuild(build, { elementId: at.elementId, stepId: at.stepId }),
      body: { status: decided.decision === 'approve' ? 'PROCESS' : 'ABORT', params: decided.params, ...suggest },
      data: z.unknown(),
    });
}
