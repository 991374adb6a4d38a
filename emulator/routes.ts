import type { ArtifactWorld } from './artifacts.ts';
import { buildDetail } from './build-detail.ts';
import { buildRetry } from './build-retry.ts';
import { buildStatus } from './build-status.ts';
import type { BuildWorld } from './builds.ts';
import { buildHistories } from './histories.ts';
import type { LogWorld } from './logs.ts';
import { manualReview, manualStartStage } from './review-decisions.ts';
import type { Callback, Long, SignTask, StoredProject } from './state.ts';
import { day, newProject, projectVO } from './state.ts';
import type { VariableWorld } from './variables.ts';
import type { Reply, Wire } from './wire.ts';

export interface World {
  wire: Wire;
  now: () => number;
  projects: Map<string, StoredProject>;
  signs: Map<string, SignTask>;
  callbacks: Callback[];
  callbackPaging: 'pages' | 'ignores-page';
  nextCallbackId: () => number;
  builds: BuildWorld;
  logs: LogWorld;
  variables: VariableWorld;
  artifacts: ArtifactWorld;
  nextProjectId: () => number;
  baseUrl: () => string;
}

export interface Call {
  method: string;
  /** Path segments after the API type, version first, each decoded once. */
  segments: string[];
  query: URLSearchParams;
  userId: string;
  body: unknown;
}

// The emulator's own copy of bk-ci's facts (event names here, error texts in wire.ts), kept on
// purpose apart from src/: it is a witness of how bk-ci answers, so it never takes the action's
// word for it. A change in bk-ci is made in both places, from bk-ci's source.
export const CALLBACK_EVENTS = new Set([
  'DELETE_PIPELINE',
  'CREATE_PIPELINE',
  'UPDATE_PIPELINE',
  'STREAM_ENABLED',
  'RESTORE_PIPELINE',
  'BUILD_START',
  'BUILD_END',
  'BUILD_STAGE_START',
  'BUILD_STAGE_END',
  'BUILD_JOB_START',
  'BUILD_JOB_END',
  'BUILD_TASK_START',
  'BUILD_TASK_END',
  'BUILD_TASK_PAUSE',
  'PROJECT_CREATE',
  'PROJECT_UPDATE',
  'PROJECT_ENABLE',
  'PROJECT_DISABLE',
]);
const REGIONS = new Set(['DEVNET', 'OSS', 'IDC']);
const ENGLISH_NAME = /^[a-z][a-zA-Z0-9-]+$/;

type Route = (w: World, c: Call, ...params: string[]) => Reply;

/** [method, pattern] → handler; `:x` matches one segment. */
const ROUTES: [string, string, Route][] = [
  ['GET', 'v3/sign/ipa/:id/detail', signDetail],
  ['GET', 'v3/sign/ipa/:id/downloadUrl', signDownloadUrl],
  ['GET', 'v3/projects', listProjects],
  ['GET', 'v4/projects/project/project_list', listProjectsV4],
  ['POST', 'v3/projects', createProject],
  ['GET', 'v3/projects/:id', getProject],
  ['PUT', 'v3/projects/:id', updateProject],
  ['POST', 'v3/projects/:id/callbacks/batch', createCallbacks],
  ['GET', 'v3/projects/:id/callbacks', listCallbacks],
  ['DELETE', 'v3/projects/:id/callbacks/:cb', (w, c, p, id) => deleteCallback(w, c, p, id ?? '')],
  ['POST', 'v4/projects/:id/callbacks/batch', createCallbacks],
  ['GET', 'v4/projects/:id/callbacks/callback_list', listCallbacks],
  ['DELETE', 'v4/projects/:id/callbacks/callback', (w, c, p) => deleteCallback(w, c, p, c.query.get('id') ?? '')],
  ['POST', 'v4/projects/:p/build_start', (w, c, p) => w.builds.start(p, c.query.get('pipelineId'), c.userId, c.body)],
  ['GET', 'v4/projects/:p/build_status', (w, c, p) => buildStatus(w.builds, p, c.query)],
  ['POST', 'v4/projects/:p/build_stop', (w, c, p) => w.builds.stop(p, c.query.get('buildId'), c.query.get('pipelineId'), c.userId)],
  ['POST', 'v4/projects/:p/build_retry', (w, c, p) => buildRetry(w.builds, p, c.query, c.userId)],
  ['GET', 'v4/projects/:p/build_histories', (w, c, p) => buildHistories(w.builds, p, c.query)],
  ['GET', 'v4/projects/:p/build_detail', (w, c, p) => buildDetail(w.builds, p, c.query)],
  ['POST', 'v4/projects/:p/manual_start_build_stage', (w, c, p) => manualStartStage(w.builds, p, c.query, c.userId, c.body)],
  ['POST', 'v4/projects/:p/manual_review', (w, c, p) => manualReview(w.builds, p, c.query, c.userId, c.body)],
  ['GET', 'v4/projects/:p/logs/after_line_logs', (w, c, p) => w.logs.afterLine(p, c.query)],
  ['GET', 'v4/projects/:p/logs/more_logs', (w, c, p) => w.logs.moreLines(p, c.query)],
  ['POST', 'v4/projects/:p/build_variables', (w, c, p) => w.variables.values(p, c.query, c.body)],
  ['GET', 'v4/projects/:p/artifactories/file_info', (w, c, p) => w.artifacts.fileInfo(p, c.query)],
  ['GET', 'v4/projects/:p/artifactories/user_download_url', (w, c, p) => w.artifacts.userDownloadUrl(p, c.query)],
];

/** Calls whose body bk-ci declares nullable (`values ?: emptyMap()`, `reviewRequest?`) or takes none: no body is no error. */
const OPTIONAL_BODY = new Set(['build_start', 'manual_start_build_stage', 'build_stop', 'build_retry']);
export const bodyOptional = (segments: string[]): boolean =>
  segments[0] === 'v4' && segments[1] === 'projects' && segments.length === 4 && OPTIONAL_BODY.has(segments[3] ?? '');

export function route(w: World, c: Call): Reply {
  // bk-ci's interface declares `downloadUrl/` with a trailing slash; the docs omit it.
  const segments = c.segments.at(-1) === '' ? c.segments.slice(0, -1) : c.segments;
  let pathMatched = false;
  for (const [method, pattern, handler] of ROUTES) {
    const parts = pattern.split('/');
    if (parts.length !== segments.length) continue;
    if (!parts.every((p, i) => p.startsWith(':') || p === segments[i])) continue;
    const params = segments.filter((_, i) => parts[i]?.startsWith(':'));
    pathMatched = true;
    if (method === c.method) return handler(w, c, ...params);
  }
  return pathMatched ? w.wire.error(405, 405, 'HTTP方法不被允许。') : w.wire.notFound();
}

function signStatus(w: World, task: SignTask): { status: string; message: string } {
  if (w.now() - task.createdAt < task.runningMs) return { status: 'RUNNING', message: 'Sign is running...' };
  return task.result === 'SUCCESS'
    ? { status: 'SUCCESS', message: 'Sign finished.' }
    : { status: 'FAIL', message: task.failMessage || 'Unknown error.' };
}

function signDetail(w: World, _c: Call, id: string): Reply {
  const task = w.signs.get(id);
  if (task === undefined) {
    // bk-ci's EnumResignStatus.parse(null) is RUNNING: an unknown id runs forever.
    return w.wire.flavour === 'bkci' ? w.wire.ok({ resignId: id, status: 'RUNNING', message: 'Sign is running...' }) : w.wire.notFound();
  }
  return w.wire.ok({ resignId: id, ...signStatus(w, task) });
}

function signDownloadUrl(w: World, _c: Call, id: string): Reply {
  const task = w.signs.get(id);
  if (task === undefined) return w.wire.domain(404, 2122011, '签名任务不存在。');
  const filePath = `bk-archive/${task.projectId}/${task.pipelineId}/${task.buildId}/${task.resultFileName}`;
  return w.wire.ok(`${w.baseUrl()}/artifactory/api/service/artifactories/file/download/local?filePath=${encodeURIComponent(filePath)}`);
}

function getProject(w: World, _c: Call, id: string): Reply {
  const p = w.projects.get(id);
  // bk-ci: getByEnglishName returns null and the answer is 200, code 0, no data.
  if (p === undefined) return w.wire.flavour === 'bkci' ? w.wire.projectOk(undefined) : w.wire.notFound();
  return w.wire.projectOk(projectVO(p));
}

function listProjects(w: World, c: Call): Reply {
  const visible = [...w.projects.values()].filter((p) => (p.members.has(c.userId) || p.viewers.has(c.userId)) && !p.offlined);
  return w.wire.projectOk(visible.map(projectVO));
}

/**
 * v4's list (ApigwProjectResourceV4 project_list): the same projects, filtered by `channelCodes`
 * (repeated; every project here is made through the API, channel BS) and paged only when both
 * `page` and `pageSize` are given (AbsProjectServiceImpl.list).
 */
function listProjectsV4(w: World, c: Call): Reply {
  const channels = c.query.getAll('channelCodes');
  const visible = [...w.projects.values()].filter(
    (p) => (p.members.has(c.userId) || p.viewers.has(c.userId)) && !p.offlined && (channels.length === 0 || channels.includes('BS')),
  );
  const page = Number(c.query.get('page'));
  const size = Number(c.query.get('pageSize'));
  const paged =
    c.query.has('page') && c.query.has('pageSize') && page >= 1 && size >= 1 ? visible.slice((page - 1) * size, page * size) : visible;
  return w.wire.projectOk(paged.map(projectVO));
}

type Body = Record<string, unknown>;
type FieldKind = 'string' | 'int' | 'bool' | 'object' | 'array';

const CREATE_FIELDS: Record<string, FieldKind> = {
  projectName: 'string',
  englishName: 'string',
  description: 'string',
  projectType: 'int',
  bgId: 'int',
  bgName: 'string',
  businessLineId: 'int',
  businessLineName: 'string',
  deptId: 'int',
  deptName: 'string',
  centerId: 'int',
  centerName: 'string',
  secrecy: 'bool',
  hidden: 'bool',
  projectScope: 'int',
  kind: 'int',
  properties: 'object',
  subjectScopes: 'array',
  logoAddress: 'string',
  authSecrecy: 'int',
  enabled: 'bool',
  productId: 'int',
  productName: 'string',
  kpiCode: 'string',
  kpiName: 'string',
};
const UPDATE_FIELDS: Record<string, FieldKind> = { ...CREATE_FIELDS, ccAppId: 'int', ccAppName: 'string' };

/** Jackson's view of the body: unknown fields ignored, wrong types and missing required fields a 400. */
function readBody(w: World, body: unknown, fields: Record<string, FieldKind>, required: string[]): Body | Reply {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return w.wire.error(400, 400, 'JSON参数错误');
  const b = body as Body;
  for (const name of required) {
    if (b[name] === undefined || b[name] === null) return w.wire.error(400, 400, `请求体内容参数错误。温馨提示：请确认${name}是否符合要求`);
  }
  for (const [name, kind] of Object.entries(fields)) {
    const v = b[name];
    if (v === undefined || v === null) continue;
    const fits =
      kind === 'string'
        ? typeof v === 'string'
        : kind === 'int'
          ? Number.isInteger(v) || typeof v === 'bigint'
          : kind === 'bool'
            ? typeof v === 'boolean'
            : kind === 'array'
              ? Array.isArray(v)
              : typeof v === 'object' && !Array.isArray(v);
    if (!fits) return w.wire.error(400, 400, '查询参数请求错误');
  }
  return b;
}

const isReply = (x: Body | Reply): x is Reply =>
  typeof (x as Reply).contentType === 'string' && typeof (x as Reply).status === 'number' && typeof (x as Reply).body === 'string';

function checkProjectName(w: World, name: string, exceptEnglishName: string): Reply | undefined {
  if (name.trim() === '') return w.wire.domain(400, 2119003, '名称不能为空');
  if (name.length > 64) return w.wire.domain(400, 2119004, '项目名至多1-64个字符');
  for (const p of w.projects.values()) {
    if (p.projectName === name && p.englishName !== exceptEnglishName) return w.wire.domain(409, 2119002, '项目名或英文名重复');
  }
  return undefined;
}

function createProject(w: World, c: Call): Reply {
  const b = readBody(w, c.body, CREATE_FIELDS, ['projectName', 'englishName', 'description']);
  if (isReply(b)) return b;
  const projectName = b.projectName as string;
  const englishName = b.englishName as string;
  const nameProblem = checkProjectName(w, projectName, '\u0000');
  if (nameProblem) return nameProblem;
  if (englishName.trim() === '') return w.wire.domain(400, 2119003, '名称不能为空');
  if (englishName.length < 2 || englishName.length > 32) return w.wire.domain(400, 2119005, '英文名长度在3-32个字符');
  if (!ENGLISH_NAME.test(englishName)) return w.wire.domain(400, 2119006, '英文名是字符+数字组成，并以小写字母开头');
  if (w.projects.has(englishName)) return w.wire.domain(409, 2119007, '英文名已经存在');
  const p = newProject({ englishName, projectName }, w.nextProjectId(), c.userId, w.now());
  assignFields(p, b, true);
  w.projects.set(englishName, p);
  return w.wire.projectOk(true, 201);
}

/**
 * bk-ci's ProjectDao.update: organisation fields are written whether given or not (their
 * defaults when omitted); a few only when non-null; `kind` and `ccAppId` never.
 */
function assignFields(p: StoredProject, b: Body, creating: boolean): void {
  const long = (k: string, d: number | null): Long | null => (b[k] === undefined || b[k] === null ? d : (b[k] as Long));
  // Int fields: readBody let a bigint through only for Long ones in spirit; Number keeps the type.
  const int = (k: string, d: number | null): number | null => {
    const v = long(k, d);
    return v === null ? null : Number(v);
  };
  const str = (k: string, d: string): string => (typeof b[k] === 'string' ? (b[k] as string) : d);
  p.projectName = b.projectName as string;
  p.description = b.description as string;
  p.projectType = int('projectType', 0) ?? 0;
  p.bgId = long('bgId', 0) ?? 0;
  p.bgName = str('bgName', '');
  p.businessLineId = long('businessLineId', null);
  p.businessLineName = str('businessLineName', '');
  p.centerId = long('centerId', creating ? 0 : null);
  p.centerName = str('centerName', '');
  p.deptId = long('deptId', creating ? 0 : null);
  p.deptName = str('deptName', '');
  p.productId = int('productId', null);
  p.subjectScopes = Array.isArray(b.subjectScopes) ? b.subjectScopes : [];
  p.secrecy = b.secrecy === true;
  if (typeof b.hidden === 'boolean') p.hidden = b.hidden;
  if (typeof b.logoAddress === 'string') p.logoAddr = b.logoAddress;
  if (typeof b.properties === 'object' && b.properties !== null) p.properties = b.properties as Record<string, unknown>;
  if (Number.isInteger(b.authSecrecy)) p.authSecrecy = b.authSecrecy as number;
  if (creating) {
    p.kind = int('kind', 0) ?? 0;
    p.projectScope = int('projectScope', 0) ?? 0;
    if (typeof b.enabled === 'boolean') p.enabled = b.enabled;
  }
}

function updateProject(w: World, c: Call, id: string): Reply {
  const p = w.projects.get(id);
  if (p === undefined) return w.wire.notFound();
  const b = readBody(w, c.body, UPDATE_FIELDS, ['projectName', 'description']);
  if (isReply(b)) return b;
  // The permission check and the name-uniqueness check both use the body's englishName
  // (default ""), not the path: a client that leaves it out trips over its own name.
  const englishName = typeof b.englishName === 'string' ? b.englishName : '';
  const target = w.projects.get(englishName);
  if (target === undefined || !target.members.has(c.userId)) {
    return w.wire.flavour === 'spec'
      ? w.wire.error(403, 403, 'You do not have permission to do so')
      : w.wire.error(400, 400, '修改项目错误: 没有该项目的操作权限');
  }
  const nameProblem = checkProjectName(w, b.projectName as string, englishName);
  if (nameProblem) return nameProblem;
  assignFields(p, b, false);
  p.englishName = englishName;
  p.updator = c.userId;
  p.updatedAt = day(w.now());
  return w.wire.projectOk(true);
}

function createCallbacks(w: World, c: Call, projectId: string): Reply {
  for (const name of ['url', 'region', 'event']) {
    if (c.query.get(name) === null) return w.wire.error(400, 400, `参数校验失败:request param ${name} cannot be empty`);
  }
  const url = c.query.get('url') ?? '';
  const region = c.query.get('region') ?? '';
  const event = c.query.get('event') ?? '';
  if (!REGIONS.has(region)) return w.wire.error(400, 400, '查询参数类型错误');
  if (event.trim() === '') return w.wire.error(400, 400, '请求的参数内容为空');
  const project = w.projects.get(projectId);
  if (project === undefined || !project.members.has(c.userId)) {
    return w.wire.domain(403, 2101104, `流水线: ${c.userId}非项目${projectId}管理员`);
  }
  if (!/^https?:\/\/[^/\s]+/i.test(url)) return w.wire.domain(400, 2101132, '回调的url非法');
  const names = event.split(',').map((e) => e.trim());
  // CallBackEvent.valueOf on every name before anything is saved: one bad name fails all.
  if (names.some((n) => !CALLBACK_EVENTS.has(n))) return w.wire.error(400, 400, '查询参数请求错误');
  const successEvents: string[] = [];
  const failureEvents: Record<string, string> = {};
  for (const name of names) {
    if (url.length > 255) {
      failureEvents[name] = "Data truncation: Data too long for column 'CALLBACK_URL' at row 1";
      continue;
    }
    const existing = w.callbacks.find((cb) => cb.projectId === projectId && cb.url === url && cb.event === name);
    const secretToken = c.query.get('secretToken');
    // ProjectPipelineCallbackDao.save: onDuplicateKeyUpdate sets the URL and the secret, never ENABLE.
    if (existing) {
      existing.secretToken = secretToken;
      existing.region = region;
    } else {
      w.callbacks.push({
        id: w.nextCallbackId(),
        projectId,
        url,
        event: name,
        region,
        secretToken,
        creator: c.userId,
        enable: true,
        createdAt: w.now(),
      });
    }
    successEvents.push(name);
  }
  return w.wire.ok({ successEvents, failureEvents });
}

/** GET …/callbacks?page&pageSize: a project member's view, newest first, secrets never shown. */
function listCallbacks(w: World, c: Call, projectId: string): Reply {
  const project = w.projects.get(projectId);
  if (project === undefined || !(project.members.has(c.userId) || project.viewers.has(c.userId)))
    return w.wire.domain(403, 2101133, `用户（${c.userId}）无（${projectId}）项目权限`);
  const ignoresPage = w.callbackPaging === 'ignores-page';
  const page = ignoresPage ? 1 : Math.max(1, Number(c.query.get('page') ?? 1) || 1);
  const pageSize = Math.min(100, Math.max(1, Number(c.query.get('pageSize') ?? 20) || 20));
  const all = w.callbacks.filter((cb) => cb.projectId === projectId).sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
  const records = all
    .slice((page - 1) * pageSize, page * pageSize)
    .map((cb) => ({ id: cb.id, projectId, callBackUrl: cb.url, events: cb.event, secretToken: null, enable: cb.enable }));
  if (ignoresPage) return w.wire.ok({ records });
  return w.wire.ok({ count: all.length, page, pageSize, totalPages: Math.ceil(all.length / pageSize), records });
}

/** DELETE …/callbacks/{id} (v4: callbacks/callback?id=): a project manager's, by id. */
function deleteCallback(w: World, c: Call, projectId: string, id: string): Reply {
  const project = w.projects.get(projectId);
  if (project === undefined || !project.members.has(c.userId))
    return w.wire.domain(403, 2101104, `流水线: ${c.userId}非项目${projectId}管理员`);
  const at = w.callbacks.findIndex((cb) => cb.projectId === projectId && String(cb.id) === id);
  if (at === -1) return w.wire.domain(400, 2101136, `回调记录(${id})不存在`);
  w.callbacks.splice(at, 1);
  return w.wire.ok(true);
}
