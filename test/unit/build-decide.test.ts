// What the wait on a build decides from what it read (src/pipeline/build-decide.ts): one row per
// case, for each decision — whether a poll reads the model, which review waits, whether the wait
// goes on, how the build's end is read after the wait, and the step's conclusion and words.
import { describe, expect, it } from 'vitest';
import { type BuildDetail, type BuildStatus, buildDetail, buildStatus } from '../../src/bkci/builds.ts';
import {
  brokenOff,
  DETAIL_EVERY_MS,
  decideEnd,
  type EndFacts,
  endConclusion,
  modelRead,
  pollVerdict,
  reportEnd,
  reviewNow,
} from '../../src/pipeline/build-decide.ts';
import type { PendingReview } from '../../src/pipeline/review-state.ts';

const END = 1_780_000_000_000;
const NOW = END + 60_000;
const status = (s: string, more: Record<string, unknown> = {}): BuildStatus => buildStatus.parse({ id: 'b-1', status: s, ...more });
const ended = (s: string, more: Record<string, unknown> = {}) => status(s, { startTime: END - 5000, endTime: END, ...more });

const trigger = { id: 'stage-1', name: 'Trigger', containers: [] };
const model = (stages: unknown[], more: Record<string, unknown> = {}): BuildDetail =>
  buildDetail.parse({ id: 'b-1', status: 'RUNNING', model: { stages: [trigger, ...stages] }, ...more });
const release = (checkIn: Record<string, unknown>) => ({ id: 'stage-2', name: 'Release', status: 'PAUSE', checkIn });
const pausedModel = model([release({ status: 'REVIEWING', reviewGroups: [{ id: 'g-1', name: 'QA', reviewers: ['qa1'], status: null }] })]);
const rejectedModel = model([
  release({
    status: 'REVIEW_ABORT',
    reviewGroups: [{ id: 'g-1', name: 'QA', reviewers: ['qa1'], status: 'ABORT', operator: 'qa1', suggest: 'not today' }],
  }),
]);
const stagePending: PendingReview = {
  kind: 'stage',
  key: 'stage:stage-2:g-1',
  stageId: 'stage-2',
  stage: 'Release',
  groupId: 'g-1',
  group: 'QA',
  reviewers: ['qa1'],
};
const stepPending: PendingReview = {
  kind: 'step',
  key: 'step:e-9',
  elementId: 'e-9',
  stepId: undefined,
  step: 'Approve',
  stage: 'Deploy',
  reviewers: [],
};
const paused = status('STAGE_SUCCESS', {
  stageStatus: [
    { name: 'Build', status: 'SUCCEED' },
    { name: 'Release', status: 'PAUSE' },
  ],
});

describe('modelRead: whether a poll reads build_detail', () => {
  const fresh = NOW - 1000;
  const stale = NOW - DETAIL_EVERY_MS;
  it.each<[string, BuildStatus, string | undefined, number | undefined, PendingReview | undefined, ReturnType<typeof modelRead>]>([
    ['the first poll', status('QUEUE'), undefined, undefined, undefined, 'side'],
    ['running, model read a moment ago', status('RUNNING'), 'RUNNING', fresh, undefined, 'none'],
    ['running, model read 30 s ago', status('RUNNING'), 'RUNNING', stale, undefined, 'side'],
    ['queued, model stale: nothing to see yet', status('QUEUE'), 'QUEUE', stale, undefined, 'none'],
    ['queued again after running: a retry', status('QUEUE'), 'RUNNING', fresh, undefined, 'side'],
    ['queued cache after queue: not a retry', status('QUEUE_CACHE'), 'QUEUE', fresh, undefined, 'none'],
    ['ended SUCCEED', ended('SUCCEED'), 'RUNNING', fresh, undefined, 'side'],
    ['ended FAILED', ended('FAILED'), 'RUNNING', fresh, undefined, 'side'],
    ['STAGE_SUCCESS ended: the verdict needs it (a rejected review)', ended('STAGE_SUCCESS'), 'RUNNING', fresh, undefined, 'needed'],
    ['a stage pause not yet known', paused, 'RUNNING', fresh, undefined, 'side'],
    ['a stage pause known as a manual step', paused, 'STAGE_SUCCESS', fresh, stepPending, 'side'],
    ['a stage pause already known', paused, 'STAGE_SUCCESS', fresh, stagePending, 'none'],
  ])('%s', (_, s, previous, detailAt, pending, expected) => {
    expect(modelRead({ status: s, previous, detailAt, now: NOW, pending })).toBe(expected);
  });
});

describe('reviewNow: the review the build waits for', () => {
  it.each<[string, BuildStatus, BuildDetail | undefined, string | undefined]>([
    ['no model read', paused, undefined, undefined],
    ["a stage paused, and the model's review", paused, pausedModel, 'stage:stage-2:g-1'],
    ["bk-ci's status says the pause is over, whatever an older model said", status('RUNNING'), pausedModel, undefined],
    ['the build ended', ended('SUCCEED'), pausedModel, undefined],
    ['nothing waits in the model', status('RUNNING'), model([]), undefined],
  ])('%s', (_, s, detail, key) => {
    expect(reviewNow(s, detail)?.key).toBe(key);
  });
});

describe('pollVerdict: whether the wait goes on', () => {
  it.each<[string, BuildStatus, PendingReview | undefined, boolean, 'wait' | 'fail', string]>([
    ['running', status('RUNNING'), undefined, true, 'wait', 'waiting'],
    ['an unknown status waits', status('SOMETHING_NEW'), undefined, true, 'wait', 'waiting'],
    ['succeeded', ended('SUCCEED'), undefined, true, 'wait', 'done'],
    ['STAGE_SUCCESS with an end', ended('STAGE_SUCCESS'), undefined, true, 'wait', 'done'],
    ['failed', ended('FAILED'), undefined, true, 'wait', 'failed'],
    ['cancelled', ended('CANCELED'), undefined, true, 'wait', 'failed'],
    ['an end before the new run showed: the run before the retry', ended('FAILED'), undefined, false, 'wait', 'waiting'],
    ['a stage pause, on-review wait', paused, stagePending, true, 'wait', 'waiting'],
    ['a stage pause, on-review fail', paused, undefined, true, 'fail', 'failed'],
    ['a manual step waits, on-review fail', status('RUNNING'), stepPending, true, 'fail', 'failed'],
    ['running, nothing waits, on-review fail', status('RUNNING'), undefined, true, 'fail', 'waiting'],
  ])('%s', (_, s, pending, gateOpen, onReview, expected) => {
    expect(pollVerdict(s, pending, gateOpen, onReview)).toBe(expected);
  });
});

describe("reportEnd: the build's end for what is read after the wait", () => {
  it.each<[string, Parameters<typeof reportEnd>, ReturnType<typeof reportEnd>]>([
    ['succeeded', ['done', ended('SUCCEED'), true], 'done'],
    ['failed', ['failed', ended('FAILED'), true], 'failed'],
    ['on-review fail: the build goes on', ['failed', paused, true], undefined],
    ['timed out', ['timeout', ended('SUCCEED'), true], undefined],
    ['never read', ['timeout', undefined, true], undefined],
    ['read once, running', ['read-once', status('RUNNING'), true], undefined],
    ['read once, the run before a retry', ['read-once', ended('SUCCEED'), false], undefined],
  ])('%s', (_, args, expected) => {
    expect(reportEnd(...args)).toBe(expected);
  });
});

describe('brokenOff: the conclusion of a wait broken off', () => {
  it.each<[string, Parameters<typeof brokenOff>[0], string]>([
    ['cancelled, the build stopped (or already ended)', { cancelled: true, stopEnded: true }, 'cancelled'],
    ['cancelled, the build not stopped', { cancelled: true, stopEnded: false }, 'running'],
    ['cancelled, the build stopped: the CANCELED end shown after', { cancelled: true, stopEnded: true, after: 'cancelled' }, 'cancelled'],
    ['cancelled, the build had already succeeded', { cancelled: true, stopEnded: true, after: 'success' }, 'success'],
    ['cancelled, the build had already failed', { cancelled: true, stopEnded: true, after: 'failure' }, 'failure'],
    ['cancelled, the stop sent but bk-ci still shows it running', { cancelled: true, stopEnded: true, after: 'running' }, 'cancelled'],
    ['cancelled, not stopped, the end seen', { cancelled: true, stopEnded: false, after: 'success' }, 'success'],
    ['a read failed, the build under way', { cancelled: false, unknownBuild: false, lastEnded: false }, 'running'],
    ['a read failed after the end was seen', { cancelled: false, unknownBuild: false, lastEnded: true }, 'failure'],
    ['no such build', { cancelled: false, unknownBuild: true, lastEnded: false }, 'failure'],
  ])('%s', (_, how, expected) => {
    expect(brokenOff(how)).toBe(expected);
  });
});

describe('decideEnd: the conclusion, the headline and the words', () => {
  const base: EndFacts = {
    end: 'done',
    last: ended('SUCCEED'),
    gateOpen: true,
    detail: undefined,
    pending: undefined,
    failed: [],
    name: 'build #7 (b-1)',
    ofPipeline: ' of pipeline p-app',
    elapsed: '5s',
    polls: 6,
    timeoutMs: 1_800_000,
    trouble: '',
    problem: undefined,
  };
  const failedStep = [{ id: 'e-2', name: 'Linux › Unit tests', error: 'exit code 1' }];
  it.each<[string, Partial<EndFacts>, string, string, string | undefined]>([
    ['succeeded', {}, 'success', 'build #7 (b-1): SUCCEED after 5s, 6 polls', undefined],
    [
      'succeeded, but the variables could not be read',
      { problem: 'reading the variables failed' },
      'success',
      'build #7 (b-1): SUCCEED after 5s, 6 polls',
      'reading the variables failed',
    ],
    [
      'STAGE_SUCCESS with an end, no review refused',
      { last: ended('STAGE_SUCCESS'), detail: model([]) },
      'success',
      'build #7 (b-1): STAGE_SUCCESS after 5s, 6 polls',
      undefined,
    ],
    [
      'STAGE_SUCCESS: its stage review was rejected',
      { last: ended('STAGE_SUCCESS'), detail: rejectedModel },
      'rejected',
      'build #7 (b-1): rejected',
      "build #7 (b-1) of pipeline p-app was stopped by a rejected review: stage 'Release' was rejected by qa1: not today (bk-ci shows such a build as STAGE_SUCCESS)",
    ],
    [
      'failed, with bk-ci first error',
      {
        end: 'failed',
        last: ended('FAILED', { errorInfoList: [{ taskName: 'Deploy', errorCode: 2199001, errorMsg: 'host unreachable' }] }),
      },
      'failure',
      'build #7 (b-1): FAILED',
      'build #7 (b-1) of pipeline p-app ended FAILED: Deploy (2199001): host unreachable',
    ],
    [
      'failed, no error: the first failed step',
      { end: 'failed', last: ended('FAILED'), failed: failedStep },
      'failure',
      'build #7 (b-1): FAILED',
      'build #7 (b-1) of pipeline p-app ended FAILED: Linux › Unit tests: exit code 1',
    ],
    [
      'failed, nothing said why',
      { end: 'failed', last: ended('FAILED'), ofPipeline: '' },
      'failure',
      'build #7 (b-1): FAILED',
      'build #7 (b-1) ended FAILED',
    ],
    [
      'cancelled in bk-ci, by whom',
      { end: 'failed', last: ended('CANCELED'), detail: model([], { cancelUserId: 'bob' }) },
      'cancelled',
      'build #7 (b-1): CANCELED',
      'build #7 (b-1) of pipeline p-app ended CANCELED: cancelled by bob',
    ],
    [
      'never ran',
      { end: 'failed', last: ended('UNEXEC') },
      'failure',
      'build #7 (b-1): UNEXEC',
      'build #7 (b-1) of pipeline p-app ended UNEXEC: the build never ran (bk-ci ended it before it left the queue)',
    ],
    ['not waited for', { end: 'read-once', last: status('RUNNING') }, 'running', 'build #7 (b-1): RUNNING (not waited for)', undefined],
    [
      'read once: the run before a retry still shows',
      { end: 'read-once', last: ended('FAILED'), gateOpen: false },
      'running',
      'build #7 (b-1): FAILED (not waited for)',
      undefined,
    ],
    [
      'on-review fail at a stage pause',
      { end: 'failed', last: paused },
      'waiting-review',
      'build #7 (b-1): waiting for review',
      "build #7 (b-1) waits for review of stage 'Release'. on-review: fail ends the step here; the build goes on waiting in bk-ci",
    ],
    [
      'on-review fail at a review bk-ci names nobody for',
      { end: 'failed', last: status('RUNNING'), pending: stepPending },
      'waiting-review',
      'build #7 (b-1): waiting for review',
      "build #7 (b-1) waits for review of step 'Approve' of stage 'Deploy': bk-ci names nobody who may approve it. on-review: fail ends the step here; the build goes on waiting in bk-ci",
    ],
    [
      'timed out while a review waits',
      { end: 'timeout', last: paused, pending: stagePending, elapsed: '30m' },
      'timed-out',
      'build #7 (b-1): timed out',
      "build #7 (b-1) is still waiting for review of stage 'Release' (group 'QA') after 30m (6 polls, timeout 30m). The step stopped waiting; the build goes on in bk-ci.",
    ],
    [
      'timed out, never read, the polls failing',
      { end: 'timeout', last: undefined, polls: 1, trouble: ' The polls of the last 30m failed; the last one: HTTP 502.' },
      'timed-out',
      'build #7 (b-1): timed out',
      'build #7 (b-1) could not be read after 5s (1 poll, timeout 30m). The step stopped waiting; the build goes on in bk-ci. The polls of the last 30m failed; the last one: HTTP 502.',
    ],
    [
      'the end of a build that was read and then the wait timed out',
      { end: 'timeout', last: status('RUNNING') },
      'timed-out',
      'build #7 (b-1): timed out',
      'build #7 (b-1) is still RUNNING after 5s (6 polls, timeout 30m). The step stopped waiting; the build goes on in bk-ci.',
    ],
  ])('%s', (_, facts, conclusion, headline, error) => {
    const d = decideEnd({ ...base, ...facts });
    expect(d).toMatchObject({ conclusion, headline });
    expect(d.error).toBe(error);
    expect(d.done).toBe(facts.problem === undefined ? undefined : 'build #7 (b-1) ended SUCCEED');
  });
});

describe('endConclusion: how a build stands as the step states it (the wait and a re-run decide by it)', () => {
  const stepRejected = model([
    {
      id: 'stage-2',
      name: 'Deploy',
      status: 'FAILED',
      containers: [{ elements: [{ '@type': 'manualReviewUserTask', id: 'e-9', status: 'REVIEW_ABORT' }] }],
    },
  ]);
  it.each<[string, BuildStatus, BuildDetail | undefined, string]>([
    ['succeeded', ended('SUCCEED'), undefined, 'success'],
    ['ended at a stage, no model read', ended('STAGE_SUCCESS'), undefined, 'success'],
    ['ended at a stage whose review was rejected', ended('STAGE_SUCCESS'), rejectedModel, 'rejected'],
    ['succeeded, a review rejected in its model', ended('SUCCEED'), rejectedModel, 'rejected'],
    ['failed at a rejected review step', ended('FAILED'), stepRejected, 'rejected'],
    ['failed', ended('FAILED'), pausedModel, 'failure'],
    ['cancelled, a review rejected before', ended('CANCELED'), rejectedModel, 'cancelled'],
    ['paused at a stage review', status('STAGE_SUCCESS', { startTime: END - 5000 }), rejectedModel, 'running'],
    ['running', status('RUNNING'), undefined, 'running'],
    ['never ran', ended('UNEXEC'), undefined, 'failure'],
  ])('%s → %s', (_, s, detail, expected) => {
    expect(endConclusion(s, detail)).toBe(expected);
  });
});
