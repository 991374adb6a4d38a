import type { PipelineSeed } from './world.ts';

/** Pipeline p-review: its build waits at the review of stage Release (group QA, alice may approve), then runs 100 ms. */
export const REVIEW_PIPELINE: PipelineSeed = {
  pipelineId: 'p-review',
  stages: ['Release'],
  phases: [
    { status: 'STAGE_SUCCESS', stage: 'Release', review: { groups: [{ name: 'QA', reviewers: ['alice'] }] } },
    { status: 'RUNNING', ms: 100, stage: 'Release' },
  ],
};
