// Calls to the emulator's v4 OpenAPI as a client sends them: on bk-ci's own gateway (access_token
// in the query, X-DEVOPS-UID) or behind the BlueKing API Gateway (X-Bkapi-Authorization).
import type { Emulator } from '../../emulator/server.ts';
import { type RawResponse, raw } from './raw-http.ts';
import { type PipelineSeed, startWorld, T0 } from './world.ts';

export type Route = 'bkci' | 'apigw';

export interface V4 {
  get(path: string, query: Record<string, string | number | boolean | undefined>): Promise<RawResponse>;
  post(path: string, query: Record<string, string | number | boolean | undefined>, body: string): Promise<RawResponse>;
  /** POST /__emulator/{name}. */
  control(name: string, body: unknown): Promise<RawResponse>;
}

export function v4(emu: Emulator, projectId: string, user: string, route: Route = 'bkci'): V4 {
  const { accessToken } = emu.addUser(user).token;
  const call = (method: string, path: string, query: Record<string, string | number | boolean | undefined>, body?: string) => {
    const q = new URLSearchParams();
    if (route === 'bkci') q.set('access_token', accessToken);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
    const headers: Record<string, string> =
      route === 'bkci'
        ? { 'x-devops-uid': user }
        : {
            'x-bkapi-authorization': JSON.stringify({ bk_app_code: 'ci-app', bk_app_secret: 'app-secret-0001', access_token: accessToken }),
          };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const prefix = route === 'bkci' ? '/ms/openapi/api/apigw/v4' : '/v4/apigw-user';
    return raw(emu.url, method, `${prefix}/projects/${projectId}/${path}?${q}`, { headers, ...(body === undefined ? {} : { body }) });
  };
  return {
    get: (path, query) => call('GET', path, query),
    post: (path, query, body) => call('POST', path, query, body),
    control: (name, body) => raw(emu.url, 'POST', `/__emulator/${name}`, { body: JSON.stringify(body) }),
  };
}

/** A build started on a seeded pipeline: its id. */
export async function startBuild(api: V4, pipelineId: string, params: Record<string, string> = {}): Promise<string> {
  const res = await api.post('build_start', { pipelineId }, JSON.stringify(params));
  const body = res.json() as { data?: { id?: string } };
  if (typeof body.data?.id !== 'string') throw new Error(`build_start answered ${res.status} ${res.body}`);
  return body.data.id;
}

/**
 * An emulator on a clock the test moves (`at(ms)`: ms after the build started), pipeline `p-app` of
 * project `demo` seeded with `seed`, and one build of it started. The caller closes `emu`.
 */
export async function seededBuild(
  seed: PipelineSeed,
  options: { route?: Route; flavour?: 'bkci' | 'spec'; t0?: number } = {},
): Promise<{ emu: Emulator; api: V4; buildId: string; at: (ms: number) => void }> {
  const t0 = options.t0 ?? T0;
  const w = await startWorld({
    flavour: options.flavour ?? 'bkci',
    ...(options.route === 'apigw' ? { gateway: {} } : {}),
    users: [],
    project: false,
  });
  w.clock.t = t0;
  w.pipeline({ name: 'App', ...seed });
  const api = v4(w.emu, 'demo', 'alice', options.route);
  const buildId = await startBuild(api, 'p-app');
  return { emu: w.emu, api, buildId, at: (ms) => (w.clock.t = t0 + ms) };
}
