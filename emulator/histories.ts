// GET v4/projects/{p}/build_histories: a pipeline's builds, newest first (BUILD_NUM desc unless
// updateTimeDesc), paged, filtered as bk-ci's PipelineBuildDao does: buildMsg, materialCommitId and
// remark are SQL `LIKE '%value%'` (the value's own % and _ are wildcards too; MySQL's default
// collation ignores case), startUser and status are `IN`, times are bounds on columns that stay
// NULL until set (START_TIME while a build is queued). Facts from docs/bkci/builds.md.
import type { Build, BuildWorld, Life } from './builds.ts';
import type { Reply } from './wire.ts';

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
export function sqlContains(haystack: string, needle: string): boolean {
  let re = '';
  for (let i = 0; i < needle.length; i++) {
    const c = needle[i] ?? '';
    if (c === '\\' && i + 1 < needle.length) re += (needle[++i] ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '%') re += '[\\s\\S]*';
    else if (c === '_') re += '[\\s\\S]';
    else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(re, 'iu').test(haystack);
}

type Query = URLSearchParams;

export function buildHistories(w: BuildWorld, projectId: string, query: Query): Reply {
  const wire = w.wire;
  const pipelineId = query.get('pipelineId');
  if (!pipelineId) return wire.error(400, 400, '参数校验失败:request param pipelineId cannot be empty');
  const badType = () => wire.error(400, 400, '查询参数类型错误');
  // JAX-RS converts every query parameter before the method runs: a wrong type fails the call.
  const int = (name: string): number | undefined | null => {
    const v = query.get(name);
    if (v === null || v === '') return undefined;
    return /^-?\d+$/.test(v.trim()) ? Number(v) : null;
  };
  const nums: Record<string, number | undefined> = {};
  for (const name of [
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
  ]) {
    const v = int(name);
    if (v === null) return badType();
    nums[name] = v;
  }
  const statuses = query.getAll('status').filter((s) => s !== '');
  if (statuses.some((s) => !BUILD_STATUSES.has(s))) return badType();
  const desc = query.get('updateTimeDesc');
  if (desc !== null && !['true', 'false', ''].includes(desc)) return badType();
  const startUsers = query.getAll('startUser').filter((s) => s !== '');
  const buildMsg = query.get('buildMsg') ?? '';
  const commit = query.get('materialCommitId') ?? '';
  const page = Math.max(1, nums.page ?? 1);
  // ApigwParamUtil.standardSize: at most 100; default 20.
  const pageSize = Math.min(100, Math.max(1, nums.pageSize ?? 20));
  const after = (v: number | undefined, min: number | undefined) => min === undefined || min <= 0 || (v !== undefined && v >= min);
  const before = (v: number | undefined, max: number | undefined) => max === undefined || max <= 0 || (v !== undefined && v <= max);

  const rows: { b: Build; life: Life }[] = [];
  for (const b of w.builds.values()) {
    if (b.projectId !== projectId || b.pipelineId !== pipelineId) continue;
    if (w.now() < b.startedAt + (w.pipelineOf(b)?.historyLagMs ?? 0)) continue;
    const life = w.life(b);
    const start = life.startTime === 0 ? undefined : life.startTime;
    const end = life.endTime ?? undefined;
    if (buildMsg.trim() !== '' && !sqlContains(b.buildMsg, buildMsg)) continue;
    if (startUsers.length > 0 && !startUsers.includes(b.userId)) continue;
    if (statuses.length > 0 && !statuses.includes(life.status)) continue;
    if (commit.trim() !== '' && !w.material(b).some((m) => sqlContains(String(m.newCommitId), commit))) continue;
    if (!after(start, nums.startTimeStartTime) || !before(start, nums.startTimeEndTime)) continue;
    if (!after(end, nums.endTimeStartTime) || !before(end, nums.endTimeEndTime)) continue;
    if (!after(b.startedAt, nums.queueTimeStartTime) || !before(b.startedAt, nums.queueTimeEndTime)) continue;
    if (!after(b.num, nums.buildNoStart) || !before(b.num, nums.buildNoEnd)) continue;
    rows.push({ b, life });
  }
  const updated = (r: { b: Build; life: Life }) => r.life.endTime ?? (r.life.startTime || r.b.startedAt);
  if (desc === 'true') rows.sort((x, y) => updated(y) - updated(x) || x.b.id.localeCompare(y.b.id));
  else if (desc === 'false') rows.sort((x, y) => updated(x) - updated(y) || x.b.id.localeCompare(y.b.id));
  else rows.sort((x, y) => y.b.num - x.b.num);
  const records = rows.slice((page - 1) * pageSize, page * pageSize).map((r) => w.history(r.b, r.life));
  return wire.ok({
    count: rows.length,
    page,
    pageSize,
    totalPages: Math.ceil(rows.length / pageSize),
    records,
    hasDownloadPermission: true,
    pipelineVersion: 1,
  });
}
