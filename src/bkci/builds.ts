// bk-ci's pipeline builds (v4): where start, status and stop live, what a build's status says,
// and which statuses end a build. Facts: bkci-builds-callbacks-gateway.md §1.
import { z } from 'zod';
import { onBoth } from './routes.ts';

export const BUILD_START = onBoth('POST', 'v4/projects/{projectId}/build_start');
export const BUILD_STATUS = onBoth('GET', 'v4/projects/{projectId}/build_status');
export const BUILD_STOP = onBoth('POST', 'v4/projects/{projectId}/build_stop');

/** BuildId: what build_start answers. */
export const buildId = z.object({ id: z.string().min(1), num: z.number().int().nullish(), pipelineId: z.string().nullish() });

/** BuildHistoryWithVars: the fields the action reads are checked; the rest passes through to `data`. */
export const buildStatus = z.looseObject({
  id: z.string(),
  buildNum: z.number().int().nullish(),
  status: z.string(),
  startTime: z.number().nullish(),
  endTime: z.number().nullish(),
  currentQueuePosition: z.number().int().nullish(),
  stageStatus: z
    .array(
      z.looseObject({
        stageId: z.string().nullish(),
        name: z.string().nullish(),
        status: z.string().nullish(),
        elapsed: z.number().nullish(),
      }),
    )
    .nullish(),
  errorInfoList: z
    .array(z.looseObject({ taskName: z.string().nullish(), errorCode: z.number().nullish(), errorMsg: z.string().nullish() }))
    .nullish(),
  /** Only each parameter's name and type are kept: its value may be a secret. */
  buildParameters: z.array(z.object({ key: z.string(), valueType: z.string().nullish() })).nullish(),
});
export type BuildStatus = z.infer<typeof buildStatus>;

/** Statuses that end a build badly (BuildStatus.isFailure), and CANCELED. */
export const FAILED_STATUSES = [
  'FAILED',
  'TERMINATE',
  'QUEUE_TIMEOUT',
  'EXEC_TIMEOUT',
  'HEARTBEAT_TIMEOUT',
  'QUALITY_CHECK_FAIL',
  'REVIEW_ABORT',
  'QUOTA_FAILED',
  'CANCELED',
];

/** Every BuildStatus bk-ci has (CPIPE/enums/BuildStatus.kt): the others mean "not yet", silently. */
const KNOWN = new Set([
  ...FAILED_STATUSES,
  'SUCCEED',
  'RUNNING',
  'REVIEWING',
  'REVIEW_PROCESSED',
  'PREPARE_ENV',
  'UNEXEC',
  'SKIP',
  'QUEUE',
  'LOOP_WAITING',
  'CALL_WAITING',
  'TRY_FINALLY',
  'QUEUE_CACHE',
  'RETRY',
  'PAUSE',
  'STAGE_SUCCESS',
  'DEPENDENT_WAITING',
  'QUALITY_CHECK_PASS',
  'QUALITY_CHECK_WAIT',
  'TRIGGER_REVIEWING',
  'UNKNOWN',
]);

export type BuildEnd = 'succeeded' | 'failed' | 'waiting';

/**
 * Whether the build has ended. STAGE_SUCCESS is the trap: without endTime a stage waits for
 * manual review and the build goes on; with it, the build ended well at a stage.
 */
export function buildEnd(s: BuildStatus): BuildEnd {
  if (s.status === 'SUCCEED') return 'succeeded';
  if (s.status === 'STAGE_SUCCESS') return s.endTime ? 'succeeded' : 'waiting';
  return FAILED_STATUSES.includes(s.status) ? 'failed' : 'waiting';
}

export const isKnownStatus = (status: string): boolean => KNOWN.has(status);

/** The stage a review pause waits at: the one under review, else the first one not done. */
export function reviewStage(s: BuildStatus): string | undefined {
  const stages = s.stageStatus ?? [];
  const waiting = stages.find((st) => st.status === 'REVIEWING') ?? stages.find((st) => !['SUCCEED', 'SKIP'].includes(st.status ?? ''));
  return waiting?.name ?? undefined;
}

/** What the build waits on, in words: "queued (position 3)", "waiting for review of stage 'Release'". */
export function waitingOn(s: BuildStatus): string {
  if (s.status === 'QUEUE' || s.status === 'QUEUE_CACHE')
    return s.currentQueuePosition ? `queued (position ${s.currentQueuePosition})` : 'queued';
  if (s.status === 'STAGE_SUCCESS' && !s.endTime) {
    const stage = reviewStage(s);
    return stage === undefined ? 'waiting for a stage review' : `waiting for review of stage '${stage}'`;
  }
  return s.status;
}

/** The first error bk-ci recorded, in one line: "Deploy (2199001): host unreachable". */
export function firstError(s: BuildStatus): string | undefined {
  const e = s.errorInfoList?.[0];
  if (e === undefined) return undefined;
  return `${e.taskName ?? 'a task'}${e.errorCode ? ` (${e.errorCode})` : ''}: ${e.errorMsg ?? 'no message'}`;
}

/** Start errors bk-ci gives by code, in words that say what to do. */
export function startProblem(
  code: number | undefined,
  httpStatus: number,
  p: { projectId: string; pipelineId: string; user: string },
  message: string,
): string | undefined {
  const pipeline = `pipeline ${p.pipelineId} of project ${p.projectId}`;
  if (code === 2101038 || (httpStatus === 404 && code !== 2101163))
    return `${pipeline} was not found (bk-ci ${code ?? 404}): check pipeline-id (p-…) and project-id`;
  if (httpStatus === 403 || code === 2101008)
    return `${p.user} may not start ${pipeline}: the user needs the pipeline's execute permission`;
  if (code === 2101047) return `${pipeline} is locked (disabled): enable it in bk-ci's pipeline settings, or ask its managers`;
  if (code === 2101080) return `project ${p.projectId} is disabled in bk-ci, so no build can start`;
  if (code === 2101049) return `the build queue of ${pipeline} is full: wait for running builds, or raise the pipeline's queue size`;
  if (code === 2101020) return `${pipeline} is being started too often (bk-ci's limit): try again in a minute`;
  if (code === 2101190) return `${pipeline} has no released version, only a draft: release it in bk-ci first`;
  if (code === 2101254) {
    const name = /\[([^\]]+)\]/.exec(message)?.[1];
    return `a required start parameter${name === undefined ? '' : ` (${name})`} is missing: give it in build-params`;
  }
  return undefined;
}
