// Deciding what a build waits for (v4): a stage's entry review and a manual-review step. Facts
// and refusals: docs/bkci/builds.md#reviews.
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
