// bk-ci's BuildStatus, as src/build/status.ts reads it: every status of BuildStatus.kt, and the
// two that depend on an endTime.
import { describe, expect, it } from 'vitest';
import { buildMessage, startValues } from '../../src/build/start.ts';
import { endOf, isKnownStatus, stagePaused, waitingOn } from '../../src/build/status.ts';

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

  it('names the run, its attempt and the job, and a mark unique to the step', () => {
    expect(buildMessage(w, 'mark')).toBe('GitHub octo/app run 42 attempt 3 job deploy [mark]');
    const a = startValues({}, w).body.BK_CI_BUILD_MSG;
    const b = startValues({}, w).body.BK_CI_BUILD_MSG;
    expect(a).not.toBe(b);
  });

  it("fits bk-ci's 255 characters with its mark whole, whatever the repository's name", () => {
    const long = buildMessage({ ...w, repository: `${'o'.repeat(100)}/${'汉'.repeat(200)}`, job: 'j'.repeat(100) }, 'mark-12345678');
    expect([...long].length).toBeLessThanOrEqual(255);
    expect(long.endsWith(' [mark-12345678]')).toBe(true);
  });

  it("build-params that set BK_CI_BUILD_MSG keep theirs: the message is then not the step's own", () => {
    expect(startValues({ BK_CI_BUILD_MSG: 'release 1.10' }, w)).toMatchObject({ body: { BK_CI_BUILD_MSG: 'release 1.10' }, own: false });
    expect(startValues({}, undefined)).toMatchObject({ own: true });
  });
});
