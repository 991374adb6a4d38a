// GET v4/projects/{p}/build_histories: a pipeline's builds, newest first (BUILD_NUM desc unless
// updateTimeDesc), paged, filtered as bk-ci's PipelineBuildDao does: buildMsg, materialCommitId and
// remark are SQL `LIKE '%value%'` (the value's own % and _ are wildcards too; MySQL's default
// collation ignores case), startUser and status are `IN`, times are bounds on columns that stay
// NULL until set (START_TIME while a build is queued). And the BuildHistory row every build
// answer is made from. Facts from docs/bkci/builds.md.

import type { Life } from './build-life.ts';
import { startParameters } from './build-model.ts';
import type { Build } from './build-records.ts';
import type { BuildWorld } from './builds.ts';
import type { Reply, Wire } from './wire.ts';

/** bk-ci's BuildStatus names: any other name in `status` is JAX-RS's 400 查询参数类型错误. */
export const BUILD_STATUSES = new Set([
  'SUCCEED',
  'FAILED',
  'CANCELED',
  'RUNNING',
  'TERMINATE',
  'REVIEWING',
  'REVIEW_ABORT',
  'REVIEW_PROCESSED',
  'HEARTBEAT_TIMEOUT',
  'PREPARE_ENV',
  'UNEXEC',
  'SKIP',
  'QUALITY_CHECK_FAIL',
  'QUEUE',
  'LOOP_WAITING',
  'CALL_WAITING',
  'TRY_FINALLY',
  'QUEUE_TIMEOUT',
  'EXEC_TIMEOUT',
  'QUEUE_CACHE',
  'RETRY',
  'PAUSE',
  'STAGE_SUCCESS',
  'QUOTA_FAILED',
  'DEPENDENT_WAITING',
  'QUALITY_CHECK_PASS',
  'QUALITY_CHECK_WAIT',
  'TRIGGER_REVIEWING',
  'UNKNOWN',
]);

/** MySQL's `LIKE '%needle%'` with its default escape (backslash) and a case-insensitive collation. */
function sqlContains(haystack: string, needle: string): boolean {
  const literal = (char: string) => char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  let pattern = '';
  for (let at = 0; at < needle.length; at++) {
    const char = needle[at] ?? '';
    if (char === '\\' && at + 1 < needle.length) pattern += literal(needle[++at] ?? '');
    else if (char === '%') pattern += '[\\s\\S]*';
    else if (char === '_') pattern += '[\\s\\S]';
    else pattern += literal(char);
  }
  return new RegExp(pattern, 'iu').test(haystack);
}

/** The query's numbers, each converted by JAX-RS before the method runs: a wrong type fails the call. */
const NUMBER_PARAMS = [
  'page',
  'pageSize',
  'startTimeStartTime',
  'startTimeEndTime',
  'endTimeStartTime',
  'endTimeEndTime',
  'queueTimeStartTime',
  'queueTimeEndTime',
  'buildNoStart',
  'buildNoEnd',
] as const;

/** build_histories' query as bk-ci has read it. */
interface HistoryQuery {
  pipelineId: string;
  numbers: Partial<Record<(typeof NUMBER_PARAMS)[number], number>>;
  statuses: string[];
  /** updateTimeDesc: `true`, `false`, or not given (by number). */
  updateTimeDesc: string | null;
  startUsers: string[];
  buildMsg: string;
  commit: string;
}

interface Row {
  build: Build;
  life: Life;
}

export function buildHistories(builds: BuildWorld, projectId: string, query: URLSearchParams): Reply {
  const read = readQuery(builds.wire, query);
  if ('reply' in read) return read.reply;
  const filter = read.query;
  const rows: Row[] = [];
  for (const build of builds.builds.values()) {
    if (build.projectId !== projectId || build.pipelineId !== filter.pipelineId) continue;
    if (builds.now() < build.startedAt + (builds.pipelineOf(build)?.historyLagMs ?? 0)) continue;
    const life = builds.life(build);
    if (matches(builds, filter, build, life)) rows.push({ build, life });
  }
  rows.sort(order(filter.updateTimeDesc));
  const page = Math.max(1, filter.numbers.page ?? 1);
  // ApigwParamUtil.standardSize: at most 100; default 20.
  const pageSize = Math.min(100, Math.max(1, filter.numbers.pageSize ?? 20));
  const records = rows.slice((page - 1) * pageSize, page * pageSize).map((row) => historyRow(builds, row.build, row.life));
  return builds.wire.ok({
    count: rows.length,
    page,
    pageSize,
    totalPages: Math.ceil(rows.length / pageSize),
    records,
    hasDownloadPermission: true,
    pipelineVersion: 1,
  });
}

function readQuery(wire: Wire, query: URLSearchParams): { query: HistoryQuery } | { reply: Reply } {
  const pipelineId = query.get('pipelineId');
  if (!pipelineId) return { reply: wire.error(400, 400, '参数校验失败:request param pipelineId cannot be empty') };
  const badType = { reply: wire.error(400, 400, '查询参数类型错误') };
  const numbers: HistoryQuery['numbers'] = {};
  for (const name of NUMBER_PARAMS) {
    const text = query.get(name);
    if (text === null || text === '') continue;
    if (!/^-?\d+$/.test(text.trim())) return badType;
    numbers[name] = Number(text);
  }
  const statuses = query.getAll('status').filter((status) => status !== '');
  if (statuses.some((status) => !BUILD_STATUSES.has(status))) return badType;
  const updateTimeDesc = query.get('updateTimeDesc');
  if (updateTimeDesc !== null && !['true', 'false', ''].includes(updateTimeDesc)) return badType;
  return {
    query: {
      pipelineId,
      numbers,
      statuses,
      updateTimeDesc,
      startUsers: query.getAll('startUser').filter((user) => user !== ''),
      buildMsg: query.get('buildMsg') ?? '',
      commit: query.get('materialCommitId') ?? '',
    },
  };
}

/** Whether the build's row is one the query asks for: SQL's LIKE, IN and bounds on columns that may be NULL. */
function matches(builds: BuildWorld, filter: HistoryQuery, build: Build, life: Life): boolean {
  const { numbers } = filter;
  const after = (value: number | undefined, min: number | undefined) =>
    min === undefined || min <= 0 || (value !== undefined && value >= min);
  const before = (value: number | undefined, max: number | undefined) =>
    max === undefined || max <= 0 || (value !== undefined && value <= max);
  const within = (value: number | undefined, min: number | undefined, max: number | undefined) => after(value, min) && before(value, max);
  const start = life.startTime === 0 ? undefined : life.startTime;
  const end = life.endTime ?? undefined;
  return (
    (filter.buildMsg.trim() === '' || sqlContains(build.buildMsg, filter.buildMsg)) &&
    (filter.startUsers.length === 0 || filter.startUsers.includes(build.userId)) &&
    (filter.statuses.length === 0 || filter.statuses.includes(life.status)) &&
    (filter.commit.trim() === '' || builds.material(build).some((material) => sqlContains(String(material.newCommitId), filter.commit))) &&
    within(start, numbers.startTimeStartTime, numbers.startTimeEndTime) &&
    within(end, numbers.endTimeStartTime, numbers.endTimeEndTime) &&
    within(build.startedAt, numbers.queueTimeStartTime, numbers.queueTimeEndTime) &&
    within(build.num, numbers.buildNoStart, numbers.buildNoEnd)
  );
}

/** By update time when updateTimeDesc says so (ties by id), else by number, newest first. */
function order(updateTimeDesc: string | null): (one: Row, other: Row) => number {
  const updated = (row: Row) => row.life.endTime ?? (row.life.startTime || row.build.startedAt);
  if (updateTimeDesc === 'true') return (one, other) => updated(other) - updated(one) || one.build.id.localeCompare(other.build.id);
  if (updateTimeDesc === 'false') return (one, other) => updated(one) - updated(other) || one.build.id.localeCompare(other.build.id);
  return (one, other) => other.build.num - one.build.num;
}

/** A BuildHistory row (build_histories), the core of build_status and build_detail. */
export function historyRow(builds: BuildWorld, build: Build, life = builds.life(build)): Record<string, unknown> {
  const pipeline = builds.pipelineOf(build);
  const statuses = builds.stageStatuses(build, life);
  const stageStatus = [
    { stageId: 'stage-1', name: 'stage-1', ...(life.startTime === 0 ? {} : { status: 'SUCCEED', elapsed: 0 }) },
    ...(pipeline?.stages ?? []).map((name, index) => {
      const status = statuses[index];
      return {
        stageId: `stage-${index + 2}`,
        name,
        ...(status === undefined ? {} : { status }),
        ...(status === 'SUCCEED' ? { elapsed: 1000 } : {}),
      };
    }),
  ];
  return {
    id: build.id,
    userId: build.userId,
    trigger: '服务触发',
    buildNum: build.num,
    pipelineVersion: 1,
    startTime: life.startTime,
    endTime: life.endTime,
    status: life.status,
    stageStatus,
    currentTimestamp: builds.now(),
    isMobileStart: false,
    material: builds.material(build),
    queueTime: build.startedAt,
    artifactList: [],
    ...(life.endTime !== null && life.startTime !== 0
      ? { totalTime: life.endTime - build.startedAt, executeTime: life.endTime - life.startTime }
      : {}),
    buildParameters: startParameters(pipeline, build.params),
    startType: 'SERVICE',
    retry: false,
    errorInfoList: builds.errorInfoList(build, life),
    buildMsg: build.buildMsg,
    executeCount: build.executeCount,
    updateTime: life.endTime ?? (life.startTime || builds.runQueuedAt(build)),
  };
}
