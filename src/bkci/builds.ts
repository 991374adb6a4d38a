// bk-ci's pipeline builds (v4): where start, status, stop, retry and detail live, the shapes of
// their answers, and a typed call for each that owns its query: the build named in it, an answer
// about another build refused, an unknown build said in words. What the statuses mean is the build
// room's (src/pipeline/status.ts). The history: src/bkci/build-history.ts. Facts: docs/bkci/builds.md.
import { ActionError, HttpError, ServerSaidError } from '../base/errors.ts';
import { z } from '../base/schema.ts';
import type { BkciApi, CallSpec, Reply } from './client.ts';
import { onBoth } from './routes.ts';

export const BUILD_START = onBoth('POST', 'v4/projects/{projectId}/build_start');
export const BUILD_STATUS = onBoth('GET', 'v4/projects/{projectId}/build_status');
export const BUILD_STOP = onBoth('POST', 'v4/projects/{projectId}/build_stop');
/** A write whose outcome can be unknown: POST, so never sent again once it may have reached bk-ci (src/http/retry.ts). */
export const BUILD_RETRY = onBoth('POST', 'v4/projects/{projectId}/build_retry');
export const BUILD_DETAIL = onBoth('GET', 'v4/projects/{projectId}/build_detail');

/** The start value that becomes the build's message (PIPELINE_BUILD_MSG), cut by bk-ci to 255 UTF-16 code units (a Kotlin String's length). */
export const BUILD_MSG = 'BK_CI_BUILD_MSG';
export const BUILD_MSG_MAX = 255;

const count = z.number().int().nullish();

/** BuildId: what build_start answers. */
export const buildId = z.object({ id: z.string().min(1), num: count, executeCount: count, pipelineId: z.string().nullish() });

/** BuildHistoryWithVars: the fields the action reads are checked; the rest passes through to `data`. */
export const buildStatus = z.looseObject({
  id: z.string(),
  buildNum: count,
  status: z.string(),
  startTime: z.number().nullish(),
  endTime: z.number().nullish(),
  currentQueuePosition: count,
  buildMsg: z.string().nullish(),
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
  /**
   * Every variable of the build, raw, secrets included: read only to mask the secret ones early
   * (src/pipeline/variables.ts), never shown. Unreadable, it costs nothing but that.
   */
  variables: z.record(z.string(), z.string().nullable()).nullish().catch(null),
});
export type BuildStatus = z.infer<typeof buildStatus>;

const text = z.string().nullish();
const users = z.array(z.string()).nullish();

/** StagePauseCheck: a stage's entry review (准入审核). */
const checkIn = z.looseObject({
  manualTrigger: z.boolean().nullish(),
  status: text,
  reviewGroups: z
    .array(
      z.looseObject({
        id: text,
        name: text,
        reviewers: users,
        groups: z.array(z.unknown()).nullish(),
        status: text,
        operator: text,
        reviewTime: z.number().nullish(),
        suggest: text,
      }),
    )
    .nullish(),
  timeout: z.number().nullish(),
});

/** A step of the model: a manual-review step is `@type: manualReviewUserTask` with its reviewers. */
const element = z.looseObject({
  '@type': text,
  id: text,
  stepId: text,
  name: text,
  status: text,
  reviewUsers: users,
  actualReviewUsers: users,
  errorCode: z.number().nullish(),
  errorMsg: text,
});

/** ModelRecord: the build's model with each stage's, job's and step's status. */
export const buildDetail = z.looseObject({
  id: z.string(),
  pipelineId: text,
  /** The pipeline's name, for the check run's default name. */
  pipelineName: text,
  status: text,
  executeCount: count,
  buildNum: count,
  endTime: z.number().nullish(),
  cancelUserId: text,
  model: z
    .looseObject({
      stages: z
        .array(
          z.looseObject({
            id: text,
            name: text,
            status: text,
            checkIn: checkIn.nullish(),
            containers: z
              .array(
                z.looseObject({
                  id: text,
                  name: text,
                  status: text,
                  jobId: text,
                  containerHashId: text,
                  elements: z.array(element).nullish(),
                  /** The trigger container's start parameters (BuildFormProperty): each one's id and type (`PASSWORD`, …). */
                  params: z.array(z.looseObject({ id: text, type: text })).nullish(),
                }),
              )
              .nullish(),
          }),
        )
        .nullish(),
    })
    .nullish(),
});
export type BuildDetail = z.infer<typeof buildDetail>;

/** Start errors bk-ci gives by code, in words that say what to do. */
export function startProblem(
  code: number | undefined,
  httpStatus: number,
  start: { projectId: string; pipelineId: string; user: string },
  message: string,
): string | undefined {
  const pipeline = `pipeline ${start.pipelineId} of project ${start.projectId}`;
  if (code === 2101038 || (httpStatus === 404 && code !== 2101163))
    return `${pipeline} was not found (bk-ci ${code ?? 404}): check pipeline-id (p-…) and project-id`;
  if (httpStatus === 403 || code === 2101008)
    return `${start.user} may not start ${pipeline}: the user needs the pipeline's execute permission`;
  if (code === 2101047) return `${pipeline} is locked (disabled): enable it in bk-ci's pipeline settings, or ask its managers`;
  if (code === 2101080) return `project ${start.projectId} is disabled in bk-ci, so no build can start`;
  if (code === 2101049) return `the build queue of ${pipeline} is full: wait for running builds, or raise the pipeline's queue size`;
  if (code === 2101020) return `${pipeline} is being started too often (bk-ci's limit): try again in a minute`;
  if (code === 2101190) return `${pipeline} has no released version, only a draft: release it in bk-ci first`;
  if (code === 2101254) {
    const name = /\[([^\]]+)\]/.exec(message)?.[1];
    return `a required start parameter${name === undefined ? '' : ` (${name})`} is missing: give it in build-params`;
  }
  return undefined;
}

/**
 * bk-ci's refusals of build_retry (PipelineBuildRetryService.retry; docs/bkci/builds.md#retry)
 * in words that say what to do; undefined for any other (its own message stands).
 */
export function retryProblem(code: number | undefined, message: string): string | undefined {
  if (code === 2101258) return `bk-ci retries only builds that started in the last ${/(\d+)/.exec(message)?.[1] ?? '28'} days`;
  if (code === 2101047) return "the pipeline is locked (disabled): enable it in bk-ci's pipeline settings, or ask its managers";
  if (code === 2101039) return "the build's pipeline model is gone in bk-ci (the pipeline or its version was deleted)";
  if (code === 2101129 || code === 2100002) return 'the build has not finished: bk-ci retries only a finished build';
  if (code === 2101114) return 'that stage did not fail: bk-ci retries a stage only when it failed or was cancelled';
  if (code === 2101081) return "the build's data has expired in bk-ci: only a whole-build retry is possible";
  if (code === 2101058) return "the build is not one of pipeline-id's builds";
  return undefined;
}

/** A build's identity: its project, its pipeline when known (build-status may be given none), its id. */
export interface BuildRef {
  projectId: string;
  pipelineId?: string | undefined;
  id: string;
}

/** What a typed call sends through: bk-ci's client, or the same within a side read's budget (src/pipeline/side-reads.ts). */
export type Calls = Pick<BkciApi, 'call'>;

/** How a call is sent when the job is cancelled or an answer is wanted soon, as the HTTP request says (src/http/caller.ts). */
export type SendOptions = Pick<CallSpec<unknown>, 'detached' | 'once' | 'survivesCancel'>;

/** A reply that carries its data. */
export type Answer<T> = Omit<Reply<T>, 'data'> & { data: T };

/** How every call about one build names it: the project in the path, the build and its pipeline in the query. */
export const atBuild = (build: BuildRef, query: Record<string, string | undefined> = {}) => ({
  params: { projectId: build.projectId },
  query: { buildId: build.id, pipelineId: build.pipelineId, ...query },
});

/** No build by that id in the project: bk-ci's v4 answer (400 `Invalid buildId`) said in words. */
export class UnknownBuildError extends ActionError {
  override name = 'UnknownBuildError';
}

/** bk-ci answered about another build than the one asked for, or without the build: the answer is not used. */
export class StrayAnswerError extends ActionError {
  override name = 'StrayAnswerError';
}

/** v4 answers an unknown build id with 400 `参数校验失败:{0} Invalid buildId…`: said plainly; any other failure as it is. */
function unknownBuild(error: unknown, build: BuildRef): unknown {
  if (!(error instanceof HttpError) || error.status !== 400 || !/Invalid buildId/i.test(error.serverMessage)) return error;
  return new UnknownBuildError(
    `no build ${build.id} in project ${build.projectId}${build.pipelineId ? ` (pipeline ${build.pipelineId})` : ''}: check build-id and project-id`,
    { status: 400, cause: error },
  );
}

/** A read about one build: its answer must be about that build, of its pipeline, never another's (a proxy or cache may mix answers up). */
async function readAbout<T extends { id: string; pipelineId?: string | null | undefined }>(
  api: Calls,
  build: BuildRef,
  spec: Pick<CallSpec<T>, 'endpoint' | 'data'> & { what: string },
  send: SendOptions,
): Promise<Answer<T>> {
  const reply = await api.call({ endpoint: spec.endpoint, ...atBuild(build), data: spec.data, ...send }).catch((e: unknown) => {
    throw unknownBuild(e, build);
  });
  const { data } = reply;
  if (data === undefined)
    throw new StrayAnswerError(`bk-ci answered ${spec.what} of build ${build.id} without data`, { status: reply.status });
  if (data.id !== build.id)
    throw new StrayAnswerError(
      `bk-ci answered ${spec.what} with build ${data.id} when asked for ${build.id}: the answer is not trusted (a proxy or cache between the runner and bk-ci may mix answers up)`,
      { status: reply.status },
    );
  // build_detail names the build's pipeline: one asked for by its pipeline is that pipeline's, whatever the history said.
  if (build.pipelineId !== undefined && data.pipelineId && data.pipelineId !== build.pipelineId)
    throw new StrayAnswerError(
      `bk-ci answered ${spec.what} of build ${build.id} as a build of pipeline ${data.pipelineId}, not of ${build.pipelineId}: the answer is not trusted`,
      { status: reply.status },
    );
  return { ...reply, data };
}

/** The build's status (build_status). */
export const readBuildStatus = (api: Calls, b: BuildRef, send: SendOptions = {}): Promise<Answer<BuildStatus>> =>
  readAbout(api, b, { endpoint: BUILD_STATUS, data: buildStatus, what: 'the status' }, send);

/** The build's model (build_detail): its stages, jobs and steps, its run, its reviews. */
export const readBuildDetail = (api: Calls, b: BuildRef, send: SendOptions = {}): Promise<Answer<BuildDetail>> =>
  readAbout(api, b, { endpoint: BUILD_DETAIL, data: buildDetail, what: 'build_detail' }, send);

/** POSTs build_start with the start values: sent once, and let finish after a cancel (its answer still counts). */
export const startBuild = (api: Calls, pipeline: { projectId: string; pipelineId: string }, values: Record<string, string>) =>
  api.call({
    endpoint: BUILD_START,
    params: { projectId: pipeline.projectId },
    query: { pipelineId: pipeline.pipelineId },
    body: values,
    data: buildId,
    survivesCancel: true,
  });

/** bk-ci's answer to build_stop for a build that had already ended. */
const ALREADY_ENDED = 2101182;

/** POSTs build_stop once, even though the job was cancelled, within `timeoutMs`: `stopped`, or `ended` when the build already had. */
export async function stopBuild(api: Calls, build: BuildRef, timeoutMs: number): Promise<'stopped' | 'ended'> {
  try {
    await api.call({ endpoint: BUILD_STOP, ...atBuild(build), data: z.unknown(), detached: { timeoutMs } });
    return 'stopped';
  } catch (e) {
    if (e instanceof ServerSaidError && e.serverStatus === ALREADY_ENDED) return 'ended';
    throw e;
  }
}

/**
 * What build_retry runs again: from a task (`taskId`: a stage, job, step or element), its failed
 * steps skipped or not; the failed jobs of the stage `taskId` (`failedContainer`); or, with no
 * taskId, the whole build (bk-ci ignores failedContainer then).
 */
export interface RetryAsk {
  taskId?: string | undefined;
  skip?: boolean;
  failedContainer?: boolean;
}

/** POSTs build_retry: sent once, and let finish after a cancel (its answer still counts). */
export const retryBuild = (api: Calls, build: BuildRef, ask: RetryAsk) =>
  api.call({
    endpoint: BUILD_RETRY,
    ...atBuild(build, {
      taskId: ask.taskId,
      ...(ask.skip ? { skip: 'true' } : {}),
      ...(ask.failedContainer ? { failedContainer: 'true' } : {}),
    }),
    data: buildId,
    survivesCancel: true,
  });
