// bk-ci's project callbacks: registered, listed and deleted through the OpenAPI as bk-ci answers
// (ProjectPipelineCallbackDao, CallBackControl), disabled as its circuit breaker does and events
// delivered to them through the control API (POST /__emulator/callbacks/disable, deliver).
import { z } from 'zod';
import type { ProjectWorld } from './projects.ts';
import { json, type Reply, type Wire } from './wire.ts';

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

export interface Callback {
  id: number;
  projectId: string;
  url: string;
  event: string;
  region: string;
  secretToken: string | null;
  creator: string;
  /** bk-ci's circuit breaker clears it after 12 h of failed deliveries; re-registering does not set it again. */
  enable: boolean;
  createdAt: number;
}

/**
 * How the callbacks list pages: `pages` as bk-ci does (count, page, totalPages), or
 * `ignores-page`, a server (a proxy, an older build) that answers every page with the first
 * and sends no count.
 */
export type CallbackPaging = 'pages' | 'ignores-page';

/** POST /__emulator/callbacks/disable. */
export const disableBody = z.object({ projectId: z.string().min(1), url: z.string().min(1), event: z.string().optional() }).strict();
/** POST /__emulator/deliver. */
export const deliverBody = z.object({ projectId: z.string().min(1), event: z.string().min(1), data: z.unknown().optional() }).strict();

/** A receiver's answer to a delivery: its HTTP status, or why there was none. */
export interface Delivery {
  url: string;
  status: number | string;
}

/** The callbacks of the emulated installation, in the order they were registered. */
export class CallbackWorld {
  readonly callbacks: Callback[] = [];
  readonly #wire: Wire;
  readonly #now: () => number;
  readonly #projects: ProjectWorld;
  readonly #paging: CallbackPaging;
  #lastId = 0;

  constructor(wire: Wire, now: () => number, projects: ProjectWorld, paging: CallbackPaging) {
    this.#wire = wire;
    this.#now = now;
    this.#projects = projects;
    this.#paging = paging;
  }

  /** POST …/projects/{p}/callbacks/batch?url&region&event&secretToken: each event saved, or why not. */
  create(userId: string, projectId: string, query: URLSearchParams): Reply {
    for (const name of ['url', 'region', 'event']) {
      if (query.get(name) === null) return this.#wire.error(400, 400, `参数校验失败:request param ${name} cannot be empty`);
    }
    const url = query.get('url') ?? '';
    const region = query.get('region') ?? '';
    const event = query.get('event') ?? '';
    if (!REGIONS.has(region)) return this.#wire.error(400, 400, '查询参数类型错误');
    if (event.trim() === '') return this.#wire.error(400, 400, '请求的参数内容为空');
    if (!this.#projects.projects.get(projectId)?.members.has(userId))
      return this.#wire.domain(403, 2101104, `流水线: ${userId}非项目${projectId}管理员`);
    if (!/^https?:\/\/[^/\s]+/i.test(url)) return this.#wire.domain(400, 2101132, '回调的url非法');
    const names = event.split(',').map((name) => name.trim());
    // CallBackEvent.valueOf on every name before anything is saved: one bad name fails all.
    if (names.some((name) => !CALLBACK_EVENTS.has(name))) return this.#wire.error(400, 400, '查询参数请求错误');
    const successEvents: string[] = [];
    const failureEvents: Record<string, string> = {};
    for (const name of names) {
      if (url.length > 255) failureEvents[name] = "Data truncation: Data too long for column 'CALLBACK_URL' at row 1";
      else {
        this.#save({ userId, projectId, url, region, event: name, secretToken: query.get('secretToken') });
        successEvents.push(name);
      }
    }
    return this.#wire.ok({ successEvents, failureEvents });
  }

  /** ProjectPipelineCallbackDao.save: onDuplicateKeyUpdate sets the URL and the secret, never ENABLE. */
  #save(row: { userId: string; projectId: string; url: string; region: string; event: string; secretToken: string | null }): void {
    const { userId, projectId, url, region, event, secretToken } = row;
    const existing = this.callbacks.find(
      (callback) => callback.projectId === projectId && callback.url === url && callback.event === event,
    );
    if (existing) {
      existing.secretToken = secretToken;
      existing.region = region;
      return;
    }
    const id = ++this.#lastId;
    this.callbacks.push({ id, projectId, url, event, region, secretToken, creator: userId, enable: true, createdAt: this.#now() });
  }

  /** GET …/callbacks?page&pageSize: a project member's view, newest first, secrets never shown. */
  list(userId: string, projectId: string, query: URLSearchParams): Reply {
    if (!this.#projects.sees(this.#projects.projects.get(projectId), userId))
      return this.#wire.domain(403, 2101133, `用户（${userId}）无（${projectId}）项目权限`);
    const ignoresPage = this.#paging === 'ignores-page';
    const page = ignoresPage ? 1 : Math.max(1, Number(query.get('page') ?? 1) || 1);
    const pageSize = Math.min(100, Math.max(1, Number(query.get('pageSize') ?? 20) || 20));
    const all = this.callbacks
      .filter((callback) => callback.projectId === projectId)
      .sort((one, other) => other.createdAt - one.createdAt || other.id - one.id);
    const records = all.slice((page - 1) * pageSize, page * pageSize).map((callback) => ({
      id: callback.id,
      projectId,
      callBackUrl: callback.url,
      events: callback.event,
      secretToken: null,
      enable: callback.enable,
    }));
    if (ignoresPage) return this.#wire.ok({ records });
    return this.#wire.ok({ count: all.length, page, pageSize, totalPages: Math.ceil(all.length / pageSize), records });
  }

  /** DELETE …/callbacks/{id} (v4: callbacks/callback?id=): a project manager's, by id. */
  delete(userId: string, projectId: string, id: string): Reply {
    if (!this.#projects.projects.get(projectId)?.members.has(userId))
      return this.#wire.domain(403, 2101104, `流水线: ${userId}非项目${projectId}管理员`);
    const at = this.callbacks.findIndex((callback) => callback.projectId === projectId && String(callback.id) === id);
    if (at === -1) return this.#wire.domain(400, 2101136, `回调记录(${id})不存在`);
    this.callbacks.splice(at, 1);
    return this.#wire.ok(true);
  }

  /** bk-ci's words for a project it does not have (ApiAspect) or an event it does not know (CallBackEvent.valueOf). */
  refusal(projectId: string, event: string | undefined): Reply | undefined {
    if (!this.#projects.projects.has(projectId))
      return json(404, { status: 404, message: `ProjectId [${projectId}] not find, please check it.` });
    if (event === undefined || CALLBACK_EVENTS.has(event)) return undefined;
    return json(400, {
      status: 400,
      message: '查询参数请求错误',
      detail: `${event} is not one of bk-ci's callback events: ${[...CALLBACK_EVENTS].join(', ')}`,
    });
  }

  /** Disables the project's callbacks for the URL (one event's, or all), as bk-ci's circuit breaker does. */
  disable(target: z.output<typeof disableBody>): { disabled: string[] } {
    const hit = this.callbacks.filter(
      (callback) =>
        callback.projectId === target.projectId &&
        callback.url === target.url &&
        (target.event === undefined || callback.event === target.event),
    );
    for (const callback of hit) callback.enable = false;
    return { disabled: hit.map((callback) => callback.event) };
  }

  /**
   * Sends `event` to every callback registered for it on the project, as bk-ci's CallBackControl
   * does: POST `{event, data}`, `X-DEVOPS-WEBHOOK-TOKEN` = the secret or `NONE`. Returns the
   * receivers' HTTP statuses (bk-ci itself ignores them).
   */
  deliver(projectId: string, event: string, data: unknown): Promise<Delivery[]> {
    const receivers = this.callbacks.filter((callback) => callback.projectId === projectId && callback.event === event && callback.enable);
    return Promise.all(receivers.map((callback) => post(callback, JSON.stringify({ event, data }))));
  }
}

async function post(callback: Callback, body: string): Promise<Delivery> {
  try {
    const response = await fetch(callback.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json;charset=utf-8', 'x-devops-webhook-token': callback.secretToken ?? 'NONE' },
      body,
      signal: AbortSignal.timeout(3000),
    });
    await response.body?.cancel();
    return { url: callback.url, status: response.status };
  } catch (error) {
    return { url: callback.url, status: String(error) };
  }
}
