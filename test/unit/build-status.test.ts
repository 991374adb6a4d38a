// bk-ci's BuildStatus, as src/pipeline/status.ts reads it: every status of BuildStatus.kt, and the
// two that depend on an endTime.
import { describe, expect, it } from 'vitest';
import { buildMessage, startValues } from '../../src/pipeline/start.ts';
import { endOf, firstError, isKnownStatus, pausedStage, stagePaused, waitingOn } from '../../src/pipeline/status.ts';

const END = 1_780_000_000_000;

describe("a build's end, as BuildStatus.kt's isFinish() says it", () => {
  it.each([
    ['SUCCEED', null, 'success'],
    ['SKIP', null, 'success'],
    ['REVIEW_PROCESSED', null, 'success'],
    ['QUALITY_CHECK_PASS', null, 'success'],
    ['STAGE_SUCCESS', END, 'success'],
    ['STAGE_SUCCESS', null, 'waiting'],
    ['STAGE_SUCCESS', 0, 'waiting'],
    ['FAILED', END, 'failure'],
    ['TERMINATE', END, 'failure'],
    ['REVIEW_ABORT', END, 'failure'],
    ['QUALITY_CHECK_FAIL', END, 'failure'],
    ['QUEUE_TIMEOUT', END, 'failure'],
    ['EXEC_TIMEOUT', END, 'failure'],
    ['HEARTBEAT_TIMEOUT', END, 'failure'],
    ['QUOTA_FAILED', END, 'failure'],
    ['UNEXEC', END, 'failure'],
    ['UNEXEC', null, 'waiting'],
    ['CANCELED', END, 'cancelled'],
    ['RUNNING', null, 'waiting'],
    ['REVIEWING', null, 'waiting'],
    ['PREPARE_ENV', null, 'waiting'],
    ['QUEUE', null, 'waiting'],
    ['LOOP_WAITING', null, 'waiting'],
    ['CALL_WAITING', null, 'waiting'],
    ['TRY_FINALLY', null, 'waiting'],
    ['QUEUE_CACHE', null, 'waiting'],
    ['RETRY', null, 'waiting'],
    ['PAUSE', null, 'waiting'],
    ['DEPENDENT_WAITING', null, 'waiting'],
    ['QUALITY_CHECK_WAIT', null, 'waiting'],
    ['TRIGGER_REVIEWING', null, 'waiting'],
    ['UNKNOWN', null, 'waiting'],
    ['WARPING', END, 'waiting'],
  ])('%s (endTime %s): %s', (status, endTime, expected) => {
    expect(endOf({ status, endTime })).toBe(expected);
    expect(isKnownStatus(status)).toBe(status !== 'WARPING');
  });

  it('a stage pause is STAGE_SUCCESS without an endTime, named by the stage bk-ci marks PAUSE', () => {
    const s = {
      id: 'b-1',
      status: 'STAGE_SUCCESS',
      endTime: null,
      stageStatus: [
        { stageId: 'stage-1', name: 'Build', status: 'SUCCEED' },
        { stageId: 'stage-2', name: 'Release', status: 'PAUSE' },
      ],
    };
    expect(stagePaused(s)).toBe(true);
    expect(waitingOn(s)).toBe("waiting for review of stage 'Release'");
    expect(stagePaused({ ...s, endTime: END })).toBe(false);
  });

  // bk-ci clears the end time of a build it retries; one left from before the retry is older than the start.
  it.each([
    ['STAGE_SUCCESS', END, END - 1, 'success'],
    ['STAGE_SUCCESS', END, END, 'success'],
    ['STAGE_SUCCESS', END, END + 1, 'waiting'],
    ['STAGE_SUCCESS', END, null, 'success'],
    ['STAGE_SUCCESS', -1, null, 'waiting'],
    ['UNEXEC', END, END + 1, 'waiting'],
    ['UNEXEC', END, END, 'failure'],
  ])('%s with endTime %s and startTime %s: %s', (status, endTime, startTime, expected) => {
    expect(endOf({ status, endTime, startTime })).toBe(expected);
  });

  const stage = (name: string, status: string | null) => ({ stageId: `stage-${name}`, name, status });
  it.each([
    ['PAUSE before a REVIEWING one', [stage('Build', 'REVIEWING'), stage('Release', 'PAUSE')], 'Release'],
    ['REVIEWING when none is PAUSE', [stage('Build', 'SUCCEED'), stage('Check', 'REVIEWING'), stage('Release', null)], 'Check'],
    ['else the first not done', [stage('Build', 'SUCCEED'), stage('Lint', 'SKIP'), stage('Release', null)], 'Release'],
    ['none: every stage done', [stage('Build', 'SUCCEED'), stage('Lint', 'SKIP')], undefined],
    ['none: no stages', [], undefined],
  ])('the paused stage: %s', (_, stageStatus, expected) => {
    const s = { id: 'b-1', status: 'STAGE_SUCCESS', endTime: null, stageStatus };
    expect(pausedStage(s)).toBe(expected);
    expect(waitingOn(s)).toBe(expected === undefined ? 'waiting for a stage review' : `waiting for review of stage '${expected}'`);
  });

  it.each([
    [{ status: 'QUEUE', currentQueuePosition: 3 }, 'queued (position 3)'],
    [{ status: 'QUEUE_CACHE', currentQueuePosition: 2 }, 'queued (position 2)'],
    [{ status: 'QUEUE', currentQueuePosition: 0 }, 'queued'],
    [{ status: 'QUEUE_CACHE' }, 'queued'],
    [{ status: 'RUNNING', currentQueuePosition: 3 }, 'RUNNING'],
    [{ status: 'STAGE_SUCCESS', endTime: END }, 'STAGE_SUCCESS'],
  ])('what %j waits on: %s', (s, expected) => {
    expect(waitingOn({ id: 'b-1', ...s })).toBe(expected);
  });

  it.each([
    [[{ taskName: 'Deploy', errorCode: 2199001, errorMsg: 'host unreachable' }], 'Deploy (2199001): host unreachable'],
    [[{ taskName: 'Deploy', errorMsg: 'host unreachable' }], 'Deploy: host unreachable'],
    [[{ errorCode: 0 }, { taskName: 'second' }], 'a task: no message'],
    [[], undefined],
    [undefined, undefined],
  ])('the first error of %j: %s', (errorInfoList, expected) => {
    expect(firstError({ id: 'b-1', status: 'FAILED', errorInfoList })).toBe(expected);
  });
});

describe("the start's message", () => {
  const w = {
    sha: 'abc1234',
    repository: 'octo/app',
    ref: 'main',
    serverUrl: 'https://github.com',
    runId: '42',
    runAttempt: '3',
    job: 'deploy',
  };

  const step = { pipelineId: 'p-app', params: { TARGET: 'linux' } };

  it('names the run and the job, the pipeline, a digest of the parameters, the attempt, and a mark unique to the step', () => {
    expect(buildMessage(w, step, 'mark')).toMatch(/^GitHub octo\/app run 42 job deploy \(p-app, params [0-9a-f]{8}\) attempt 3 \[mark\]$/);
    expect(buildMessage(w, undefined, 'mark')).toBe('GitHub octo/app run 42 attempt 3 job deploy [mark]');
    const a = startValues({}, w).body.BK_CI_BUILD_MSG;
    const b = startValues({}, w).body.BK_CI_BUILD_MSG;
    expect(a).not.toBe(b);
  });

  it("fits bk-ci's 255 characters with its mark whole, whatever the repository's name", () => {
    for (const mark of [undefined, step, { ...step, key: 'k'.repeat(300) }]) {
      const long = buildMessage(
        { ...w, repository: `${'o'.repeat(100)}/${'汉'.repeat(200)}`, job: 'j'.repeat(100) },
        mark,
        'mark-12345678',
      );
      expect([...long].length).toBeLessThanOrEqual(255);
      expect(long.endsWith(' [mark-12345678]')).toBe(true);
    }
  });

  it("build-params that set BK_CI_BUILD_MSG keep theirs: the message is then not the step's own", () => {
    expect(startValues({ BK_CI_BUILD_MSG: 'release 1.10' }, w)).toMatchObject({ body: { BK_CI_BUILD_MSG: 'release 1.10' }, own: false });
    expect(startValues({}, undefined)).toMatchObject({ own: true });
  });
});
