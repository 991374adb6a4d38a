// Deciding what a build waits for (v4): a stage's entry review and a manual-review step; and
// the build's variables. Facts and refusals: docs/bkci/builds.md#reviews, docs/bkci/artifacts-and-variables.md.
import { z } from '../base/schema.ts';

export { BUILD_VARIABLES, MANUAL_REVIEW, MANUAL_START_STAGE } from './build-endpoints.ts';

/** build_variables: name → value, "" for a name the build does not have. */
export const buildVariables = z.record(z.string(), z.string().nullable());

/** Refusals of the two review endpoints, by bk-ci's code. */
export const REVIEW_REFUSALS: Record<number, string> = {
  2101073: 'the review group sent is not the one pending',
  2101008: 'the user is not among the reviewers of the pending group',
  2101167: 'the stage is not waiting for review',
  2101018: 'the user is not among the reviewers of the step',
  2101279: 'the step does not exist or is not waiting for review',
};
