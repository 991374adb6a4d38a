// What a build waits for and who may decide it, and whether a review was refused, from
// build_detail's ModelRecord (docs/bkci/builds.md#reviews).
import { describe, expect, it } from 'vitest';
import { buildDetail } from '../../src/bkci/builds.ts';
import { describeRejection, pendingReview, rejection } from '../../src/pipeline/review-state.ts';

const trigger = {
  id: 'stage-1',
  name: 'Trigger',
  containers: [{ id: '0', elements: [{ '@type': 'manualTrigger', id: 'e-t', status: 'SUCCEED' }] }],
};
const detail = (stages: unknown[]) => buildDetail.parse({ id: 'b-1', status: 'RUNNING', model: { stages: [trigger, ...stages] } });
const group = (id: string, name: string, reviewers: string[], decided: Record<string, unknown> = {}) => ({
  id,
  name,
  reviewers,
  status: null,
  ...decided,
});

describe('pendingReview', () => {
  it("a stage's review: the first group still pending, with its id and reviewers", () => {
    const d = detail([
      {
        id: 'stage-2',
        name: 'Release',
        status: 'PAUSE',
        checkIn: {
          status: 'REVIEWING',
          reviewGroups: [group('g-1', 'QA', ['qa1'], { status: 'PROCESS', operator: 'qa1' }), group('g-2', 'Ops', ['ops1', 'ops2,ops3'])],
        },
      },
    ]);
    expect(pendingReview(d)).toEqual({
      kind: 'stage',
      key: 'stage:stage-2:g-2',
      stageId: 'stage-2',
      stage: 'Release',
      groupId: 'g-2',
      group: 'Ops',
      reviewers: ['ops1', 'ops2', 'ops3'],
    });
  });

  it('a manual-review step: its element id, step id and reviewers (actualReviewUsers before reviewUsers)', () => {
    const step = (extra: Record<string, unknown>) =>
      detail([
        {
          id: 'stage-2',
          name: 'Deploy',
          status: 'RUNNING',
          containers: [
            {
              id: '1',
              name: 'Job',
              elements: [{ '@type': 'manualReviewUserTask', id: 'e-9', stepId: 'approve', name: 'Approve', status: 'REVIEWING', ...extra }],
            },
          ],
        },
      ]);
    expect(pendingReview(step({ reviewUsers: ['$WHO'], actualReviewUsers: ['amy', 'bo'] }))).toEqual({
      kind: 'step',
      key: 'step:e-9',
      elementId: 'e-9',
      stepId: 'approve',
      step: 'Approve',
      stage: 'Deploy',
      reviewers: ['amy', 'bo'],
    });
    expect(pendingReview(step({ reviewUsers: ['amy,bo'] }))?.reviewers).toEqual(['amy', 'bo']);
    expect(pendingReview(step({ status: 'SUCCEED' }))).toBeUndefined();
  });

  it('nothing waits: undefined', () => {
    expect(pendingReview(detail([{ id: 'stage-2', name: 'Build', status: 'RUNNING', containers: [] }]))).toBeUndefined();
    expect(pendingReview(buildDetail.parse({ id: 'b-1' }))).toBeUndefined();
  });
});

describe('rejection', () => {
  const rejected = (g: Record<string, unknown>) =>
    detail([
      {
        id: 'stage-2',
        name: 'Release',
        status: 'SUCCEED',
        checkIn: { status: 'REVIEW_ABORT', timeout: 24, reviewGroups: [group('g-1', 'QA', ['qa1'], g)] },
      },
    ]);

  it('by a reviewer: who and why', () => {
    const r = rejection(rejected({ status: 'ABORT', operator: 'qa1', suggest: 'not today' }));
    expect(r).toEqual({ what: "stage 'Release'", stageId: 'stage-2', by: 'qa1', why: 'not today', timedOut: false });
    expect(r && describeRejection(r)).toBe("stage 'Release' was rejected by qa1: not today");
  });

  it("by bk-ci on the review's timeout", () => {
    const r = rejection(rejected({ status: 'ABORT', operator: 'admin', suggest: 'TIMEOUT' }));
    expect(r && describeRejection(r, 24)).toBe("stage 'Release' was rejected by bk-ci: nobody decided its review within its timeout (24h)");
  });

  it('a manual-review step that ended REVIEW_ABORT; nothing refused otherwise', () => {
    const d = detail([
      {
        id: 'stage-2',
        name: 'Deploy',
        containers: [{ elements: [{ '@type': 'manualReviewUserTask', id: 'e-9', name: 'Approve', status: 'REVIEW_ABORT' }] }],
      },
    ]);
    expect(rejection(d)?.what).toBe("step 'Approve'");
    expect(rejection(detail([{ id: 'stage-2', name: 'Release', checkIn: { status: 'REVIEW_PROCESSED' } }]))).toBeUndefined();
  });
});
