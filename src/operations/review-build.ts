import { z } from 'zod';
import { BUILD_DETAIL, BUILD_STATUS, MANUAL_REVIEW, MANUAL_START_STAGE } from '../bkci/build-endpoints.ts';
import {
  BUILD_OUTPUTS,
  buildIdInput,
  consoleUrlInput,
  onReviewInput,
  pipelineIdInput,
  SIGHT_ENDPOINTS,
  sightInputs,
  waitInput,
} from '../build/inputs.ts';
import { mapping, segment } from '../inputs/fields.ts';
import { defineOperation } from './operation.ts';

/**
 * Approves or rejects what a build waits for, as the token's user: a stage's first pending review
 * group or a manual-review step. Nothing is sent when nothing waits, the user may not decide or a
 * parameter is not the review's. With wait it then follows the build like build-status.
 */
const inputs = z.object({
  'project-id': segment('project-id'),
  'build-id': buildIdInput,
  'pipeline-id': pipelineIdInput.optional(),
  decision: z.string().pipe(z.enum(['approve', 'reject'], { error: 'decision must be approve or reject' })),
  suggestion: z.string().optional(),
  'review-params': mapping('review-params').optional(),
  wait: waitInput,
  'console-url': consoleUrlInput,
  'on-review': onReviewInput,
  ...sightInputs,
});

/** The inputs as parsed: what the run gets. */
export type ReviewBuildTask = z.output<typeof inputs>;

export default defineOperation({
  inputs,
  endpoints: [BUILD_DETAIL, MANUAL_START_STAGE, MANUAL_REVIEW, BUILD_STATUS, ...SIGHT_ENDPOINTS],
  outputs: BUILD_OUTPUTS,
  credentials: 'any',
  describe: (t) => [
    ['project-id', t['project-id']],
    ['build-id', t['build-id']],
    ['decision', t.decision],
    ['review-params', Object.keys(t['review-params'] ?? {}).join(', ')],
    ['wait', String(t.wait)],
  ],
  waits: (t) => t.wait,
  run: async (t, ctx) => (await import('./review-build-run.ts')).runReviewBuild(t, ctx),
});
