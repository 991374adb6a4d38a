// bk-ci's pipeline builds (v4): where start, status, stop, detail and history live, and the
// shapes of their answers. What the statuses mean is the build room's (src/pipeline/status.ts).
// Facts: docs/bkci/builds.md.
import { z } from '../base/schema.ts';
import { onBoth } from './routes.ts';

export const BUILD_START = onBoth('POST', 'v4/projects/{projectId}/build_start');
export const BUILD_STATUS = onBoth('GET', 'v4/projects/{projectId}/build_status');
export const BUILD_STOP = onBoth('POST', 'v4/projects/{projectId}/build_stop');
/** A write whose outcome can be unknown: POST, so never sent again once it may have reached bk-ci (src/http/retry.ts). */
export const BUILD_RETRY = onBoth('POST', 'v4/projects/{projectId}/build_retry');
export const BUILD_DETAIL = onBoth('GET', 'v4/projects/{projectId}/build_detail');
export const BUILD_HISTORIES = onBoth('GET', 'v4/projects/{projectId}/build_histories');

/** How a call about one build names it: the project in the path, the build and its pipeline in the query. */
export const atBuild = (b: { projectId: string; pipelineId?: string | undefined; id: string }) => ({
  params: { projectId: b.projectId },
  query: { buildId: b.id, pipelineId: b.pipelineId },
});

/** The start value that becomes the build's message (PIPELINE_BUILD_MSG), cut by bk-ci to 255 UTF-16 code units (a Kotlin String's length). */
export const BUILD_MSG = 'BK_CI_BUILD_MSG';
export const BUILD_MSG_MAX = 255;

/**
 * build_histories' text filters (buildMsg, remark, materialCommitId) are MySQL `LIKE '%value%'`
 * with the value pasted in as it is (PipelineBuildDao): `%` and `_` are wildcards and a backslash
 * escapes. This is the value that matches `text` itself.
 */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, '\\$&');

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

/**
 * A start parameter as a build row shows it (BuildParameters): bk-ci's own (the material, the
 * message) are read-only; a declared one carries its default. Its value may be a secret: it is
 * compared, never shown.
 */
const buildParameter = z.looseObject({
  key: z.string(),
  value: z.unknown().optional(),
  readOnly: z.boolean().nullish(),
  defaultValue: z.unknown().optional(),
  sensitive: z.boolean().nullish(),
});
export type BuildParameter = z.infer<typeof buildParameter>;

/** A row of build_histories: what finds a build again, and what proves whose it is (its starter, its start parameters). */
export const historyPage = z.looseObject({
  count: z.number().nullish(),
  page: z.number().nullish(),
  pageSize: z.number().nullish(),
  totalPages: z.number().nullish(),
  records: z
    .array(
      z.looseObject({
        id: z.string(),
        buildNum: count,
        status: z.string().nullish(),
        buildMsg: z.string().nullish(),
        executeCount: count,
        startTime: z.number().nullish(),
        endTime: z.number().nullish(),
        /** The start user (the trigger user for other starts). Unreadable, they prove nothing, and cost no other row. */
        userId: z.string().nullish().catch(null),
        buildParameters: z.array(buildParameter).nullish().catch(null),
      }),
    )
    .nullish(),
});
export type HistoryPage = z.infer<typeof historyPage>;

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
