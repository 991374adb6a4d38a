// bk-ci's OpenAPI paths (v3 and v4, after `/ms/openapi/api/apigw/` or the API Gateway's mapping),
// each dispatched to the world that answers it. A path bk-ci has with another method is its 405;
// a path it does not have, its 404.
import { buildDetail } from './build-detail.ts';
import { buildRetry } from './build-retry.ts';
import { buildStatus } from './build-status.ts';
import { buildHistories } from './histories.ts';
import type { Installation } from './installation.ts';
import { manualReview, manualStartStage } from './review-decisions.ts';
import type { Reply } from './wire.ts';

/** The worlds the OpenAPI answers from. */
export type Worlds = Pick<Installation, 'wire' | 'projects' | 'signs' | 'callbacks' | 'builds' | 'logs' | 'variables' | 'artifacts'>;

/** An OpenAPI request as bk-ci's resource sees it. */
export interface Call {
  method: string;
  /** Path segments after the API type, version first, each decoded once. */
  segments: string[];
  query: URLSearchParams;
  userId: string;
  body: unknown;
}

/** A path's handler: the worlds, the call, and the path's `:x` segments in order. */
type Route = (worlds: Worlds, call: Call, ...params: string[]) => Reply;

/** [method, pattern] → handler; `:x` matches one segment. */
const ROUTES: [string, string, Route][] = [
  ['GET', 'v3/sign/ipa/:id/detail', (worlds, _call, id) => worlds.signs.detail(id)],
  ['GET', 'v3/sign/ipa/:id/downloadUrl', (worlds, _call, id) => worlds.signs.downloadUrl(id)],
  ['GET', 'v3/projects', (worlds, call) => worlds.projects.list(call.userId)],
  ['GET', 'v4/projects/project/project_list', (worlds, call) => worlds.projects.listV4(call.userId, call.query)],
  ['POST', 'v3/projects', (worlds, call) => worlds.projects.create(call.userId, call.body)],
  ['GET', 'v3/projects/:id', (worlds, _call, id) => worlds.projects.get(id)],
  ['PUT', 'v3/projects/:id', (worlds, call, id) => worlds.projects.update(call.userId, id, call.body)],
  ['POST', 'v3/projects/:id/callbacks/batch', (worlds, call, project) => worlds.callbacks.create(call.userId, project, call.query)],
  ['GET', 'v3/projects/:id/callbacks', (worlds, call, project) => worlds.callbacks.list(call.userId, project, call.query)],
  ['DELETE', 'v3/projects/:id/callbacks/:cb', (worlds, call, project, id) => worlds.callbacks.delete(call.userId, project, id)],
  ['POST', 'v4/projects/:id/callbacks/batch', (worlds, call, project) => worlds.callbacks.create(call.userId, project, call.query)],
  ['GET', 'v4/projects/:id/callbacks/callback_list', (worlds, call, project) => worlds.callbacks.list(call.userId, project, call.query)],
  [
    'DELETE',
    'v4/projects/:id/callbacks/callback',
    (worlds, call, project) => worlds.callbacks.delete(call.userId, project, call.query.get('id') ?? ''),
  ],
  [
    'POST',
    'v4/projects/:p/build_start',
    (worlds, call, project) => worlds.builds.start(project, call.query.get('pipelineId'), call.userId, call.body),
  ],
  ['GET', 'v4/projects/:p/build_status', (worlds, call, project) => buildStatus(worlds.builds, worlds.variables, project, call.query)],
  [
    'POST',
    'v4/projects/:p/build_stop',
    (worlds, call, project) => worlds.builds.stop(project, call.query.get('buildId'), call.query.get('pipelineId'), call.userId),
  ],
  ['POST', 'v4/projects/:p/build_retry', (worlds, call, project) => buildRetry(worlds.builds, project, call.query, call.userId)],
  ['GET', 'v4/projects/:p/build_histories', (worlds, call, project) => buildHistories(worlds.builds, project, call.query)],
  ['GET', 'v4/projects/:p/build_detail', (worlds, call, project) => buildDetail(worlds.builds, project, call.query)],
  [
    'POST',
    'v4/projects/:p/manual_start_build_stage',
    (worlds, call, project) => manualStartStage(worlds.builds, project, call.query, call.userId, call.body),
  ],
  [
    'POST',
    'v4/projects/:p/manual_review',
    (worlds, call, project) => manualReview(worlds.builds, project, call.query, call.userId, call.body),
  ],
  ['GET', 'v4/projects/:p/logs/after_line_logs', (worlds, call, project) => worlds.logs.afterLine(project, call.query)],
  ['GET', 'v4/projects/:p/logs/more_logs', (worlds, call, project) => worlds.logs.moreLines(project, call.query)],
  ['POST', 'v4/projects/:p/build_variables', (worlds, call, project) => worlds.variables.values(project, call.query, call.body)],
  ['GET', 'v4/projects/:p/artifactories/file_info', (worlds, call, project) => worlds.artifacts.fileInfo(project, call.query)],
  [
    'GET',
    'v4/projects/:p/artifactories/user_download_url',
    (worlds, call, project) => worlds.artifacts.userDownloadUrl(project, call.query),
  ],
];

/** Calls whose body bk-ci declares nullable (`values ?: emptyMap()`, `reviewRequest?`) or takes none: no body is no error. */
const OPTIONAL_BODY = new Set(['build_start', 'manual_start_build_stage', 'build_stop', 'build_retry']);
export const bodyOptional = (segments: string[]): boolean =>
  segments[0] === 'v4' && segments[1] === 'projects' && segments.length === 4 && OPTIONAL_BODY.has(segments[3] ?? '');

export function route(worlds: Worlds, call: Call): Reply {
  // bk-ci's interface declares `downloadUrl/` with a trailing slash; the docs omit it.
  const segments = call.segments.at(-1) === '' ? call.segments.slice(0, -1) : call.segments;
  let pathMatched = false;
  for (const [method, pattern, handler] of ROUTES) {
    const parts = pattern.split('/');
    if (parts.length !== segments.length) continue;
    if (!parts.every((part, index) => part.startsWith(':') || part === segments[index])) continue;
    const params = segments.filter((_, index) => parts[index]?.startsWith(':'));
    pathMatched = true;
    if (method === call.method) return handler(worlds, call, ...params);
  }
  return pathMatched ? worlds.wire.error(405, 405, 'HTTP方法不被允许。') : worlds.wire.notFound();
}
