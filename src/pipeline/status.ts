// Which statuses end a build, and how: bk-ci's BuildStatus (common-pipeline/.../enums/BuildStatus.kt),
// taken from its source, not its docs: isFinish() = isFailure() || isSuccess() || isCancel(), and
// in newer releases UNEXEC, which ends a build here only with an endTime (a build that never ran);
// STAGE_SUCCESS ends one only with an endTime after its startTime (BuildInfo.isFinish).
// Everything else waits.
import type { BuildStatus } from '../bkci/builds.ts';

/** What the action makes of a build's end, as the `conclusion` output says it. */
export type Conclusion = 'success' | 'failure' | 'cancelled' | 'rejected' | 'waiting-review' | 'timed-out' | 'running';

/** isSuccess(). */
const SUCCESS = new Set(['SUCCEED', 'SKIP', 'REVIEW_PROCESSED', 'QUALITY_CHECK_PASS']);
/** isFailure(): FAILED, isPassiveStop(), isTimeout(), QUOTA_FAILED. */
export const FAILURE = new Set([
  'FAILED',
  'TERMINATE',
  'REVIEW_ABORT',
  'QUALITY_CHECK_FAIL',
  'QUEUE_TIMEOUT',
  'EXEC_TIMEOUT',
  'HEARTBEAT_TIMEOUT',
  'QUOTA_FAILED',
]);
/** The rest of the enum: CANCELED, the two that end a build only with an endTime, and those that never do. */
const OTHERS = [
  'CANCELED',
  'RUNNING',
  'REVIEWING',
  'PREPARE_ENV',
  'UNEXEC',
  'QUEUE',
  'LOOP_WAITING',
  'CALL_WAITING',
  'TRY_FINALLY',
  'QUEUE_CACHE',
  'RETRY',
  'PAUSE',
  'STAGE_SUCCESS',
  'DEPENDENT_WAITING',
  'QUALITY_CHECK_WAIT',
  'TRIGGER_REVIEWING',
  'UNKNOWN',
];
const KNOWN = new Set([...SUCCESS, ...FAILURE, ...OTHERS]);

export const isKnownStatus = (status: string): boolean => KNOWN.has(status);

/**
 * The end a status says, before any review is looked at: `success`, `failure`, `cancelled`, or
 * `waiting` (not ended). A STAGE_SUCCESS with an endTime is `success` here; whether its stage
 * review was rejected is for build_detail to say (src/pipeline/review-state.ts).
 */
export function endOf(
  status: Pick<BuildStatus, 'status' | 'endTime'> & { startTime?: number | null | undefined },
): 'success' | 'failure' | 'cancelled' | 'waiting' {
  // bk-ci clears the end time of a build it retries; a stale one from before a retry is not after its start.
  const ended = typeof status.endTime === 'number' && status.endTime > 0 && (!status.startTime || status.endTime >= status.startTime);
  if (SUCCESS.has(status.status)) return 'success';
  if (FAILURE.has(status.status)) return 'failure';
  if (status.status === 'CANCELED') return 'cancelled';
  if (status.status === 'STAGE_SUCCESS') return ended ? 'success' : 'waiting';
  if (status.status === 'UNEXEC') return ended ? 'failure' : 'waiting';
  return 'waiting';
}

/** A stage waits for its entry review: STAGE_SUCCESS without an endTime. */
export const stagePaused = (s: Pick<BuildStatus, 'status' | 'endTime' | 'startTime'>): boolean =>
  s.status === 'STAGE_SUCCESS' && endOf(s) === 'waiting';

/** The stage a review pause waits at: the one bk-ci marks PAUSE, else the first one not done. */
export function pausedStage(status: BuildStatus): string | undefined {
  const stages = status.stageStatus ?? [];
  const waiting =
    stages.find((st) => st.status === 'PAUSE') ??
    stages.find((st) => st.status === 'REVIEWING') ??
    stages.find((st) => !['SUCCEED', 'SKIP'].includes(st.status ?? ''));
  return waiting?.name ?? undefined;
}

/** What the build waits on, in words: "queued (position 3)", "waiting for review of stage 'Release'". */
export function waitingOn(status: BuildStatus): string {
  if (status.status === 'QUEUE' || status.status === 'QUEUE_CACHE')
    return status.currentQueuePosition ? `queued (position ${status.currentQueuePosition})` : 'queued';
  if (stagePaused(status)) {
    const stage = pausedStage(status);
    return stage === undefined ? 'waiting for a stage review' : `waiting for review of stage '${stage}'`;
  }
  return status.status;
}

/** The first error bk-ci recorded, in one line: "Deploy (2199001): host unreachable". */
export function firstError(status: BuildStatus): string | undefined {
  const first = status.errorInfoList?.[0];
  if (first === undefined) return undefined;
  return `${first.taskName ?? 'a task'}${first.errorCode ? ` (${first.errorCode})` : ''}: ${first.errorMsg ?? 'no message'}`;
}
