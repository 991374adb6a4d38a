import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { z } from 'zod';
import { ApiGateway, gatewaySchema } from './apigateway.ts';
import { ArtifactWorld } from './artifacts.ts';
import type { BuildIdData } from './build-records.ts';
import { BuildWorld } from './builds.ts';
import { type Fault, FaultPlan, faultRuleBody } from './faults.ts';
import { FileServer, filesBody } from './files.ts';
import { LogWorld, logFailBody } from './logs.ts';
import { type Pipeline, pipelineSchema } from './pipeline-seed.ts';
import { type RetrySeed, retryBody, retryBuild, retryRefusal } from './retries.ts';
import { decideByControl, reviewBody } from './review-decisions.ts';
import { bodyOptional, CALLBACK_EVENTS, route, type World } from './routes.ts';
import { type BuildSeed, seedBuild, seededBuildBody } from './seeded-builds.ts';
import { type Callback, newProject, type SignTask, type StoredProject } from './state.ts';
import { TokenAuthority, type TokenInfo } from './tokens.ts';
import { VariableWorld } from './variables.ts';
import { type Flavour, html, json, type Reply, Wire } from './wire.ts';

export const OPENAPI_PREFIX = '/ms/openapi/api/apigw/v3/';
/** Where the OpenAPI's versions live: `v3/…` and `v4/…` follow it. */
const OPENAPI_ROOT = '/ms/openapi/api/apigw/';
export const TOKEN_PATH = '/ms/auth/api/user/token/get';
const CONTROL_PREFIX = '/__emulator/';

export interface EmulatorOptions {
  flavour?: Flavour;
  /** Lifetime of issued tokens. Default 4 h, bk-ci's in-code default. */
  tokenLifetimeMs?: number;
  /** `wrapped` is what bk-ci's code returns, `bare` what its docs show. Default: bare for spec, wrapped for bkci. */
  tokenResponse?: 'wrapped' | 'bare';
  /** Requests per second and user on the token endpoint (bk-ci's gateway allows 20). Off by default. */
  tokenRateLimit?: number;
  now?: () => number;
  port?: number;
  host?: string;
  /** Serve https with this key and certificate. */
  tls?: { key: string; cert: string };
  /**
   * Put the BlueKing API Gateway in front: `/v4/apigw-app|apigw-user/…` with X-Bkapi-Authorization,
   * bk-ci's own `/ms/openapi/…` refused. Also `POST /__emulator/gateway`.
   */
  gateway?: z.input<typeof gatewaySchema>;
  /**
   * How the callbacks list pages: `pages` as bk-ci does (count, page, totalPages), or
   * `ignores-page`, a server (a proxy, an older build) that answers every page with the first
   * and sends no count.
   */
  callbackPaging?: 'pages' | 'ignores-page';
  /**
   * Told when a fault holds a request without its (whole) answer (`hang`, `stall`): a test's clock
   * can then let the client's request-timeout pass at once instead of in real time.
   */
  onHold?: (request: { method: string; path: string }) => void;
  /** How the build's files are served (emulator/files.ts): realm, login, a redirect to storage. */
  files?: z.input<typeof filesBody>;
}

export interface LoggedRequest {
  method: string;
  /** The path exactly as sent, still percent-encoded. */
  path: string;
  /** The query string exactly as sent, without `?`. */
  query: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  time: number;
  /** The client's port: the same port means the same connection. */
  remotePort: number | undefined;
}

export interface SignSeed {
  resignId: string;
  runningMs?: number;
  result?: 'SUCCESS' | 'FAIL';
  failMessage?: string;
  projectId?: string;
}

export interface ProjectSeed extends Partial<Omit<StoredProject, 'members' | 'viewers'>> {
  englishName: string;
  projectName: string;
  /** Project managers. */
  members?: string[];
  /** Members who are not managers. */
  viewers?: string[];
}

export interface Emulator {
  readonly url: string;
  readonly flavour: Flavour;
  readonly faults: FaultPlan;
  readonly log: LoggedRequest[];
  readonly tokens: TokenAuthority;
  readonly projects: Map<string, StoredProject>;
  readonly callbacks: Callback[];
  readonly builds: BuildWorld;
  /** The log service: `failSearches` makes log searches answer 999 (or 3). */
  readonly logs: LogWorld;
  /** The build's files as the gateway serves them, and the storage origin bk-repo may redirect to. */
  readonly files: FileServer;
  /** A pipeline whose builds follow the given life (emulator/README.md, POST pipelines). */
  seedPipeline(seed: z.input<typeof pipelineSchema>): Pipeline;
  /**
   * Retries a finished build as bk-ci does (POST builds/retry): the same id, executeCount + 1, a new
   * run through `phases`. Throws bk-ci's refusal for a build that has not finished.
   */
  retryBuild(seed: RetrySeed): BuildIdData;
  /** A build in a pipeline's history with the given message, status and start time (POST builds): an earlier attempt's. */
  seedBuild(seed: BuildSeed): { id: string; num: number };
  /** A user with a login ticket (`bk_token`) and a ready access token. */
  addUser(userId: string, tokenLifetimeMs?: number): { bkToken: string; token: TokenInfo };
  seedProject(seed: ProjectSeed): StoredProject;
  seedSign(seed: SignSeed): SignTask;
  /**
   * Sends `event` to every callback registered for it on the project, as bk-ci's CallBackControl
   * does: POST `{event, data}`, `X-DEVOPS-WEBHOOK-TOKEN` = the secret or `NONE`. Returns the
   * receivers' HTTP statuses (bk-ci itself ignores them).
   */
  deliver(projectId: string, event: string, data: unknown): Promise<{ url: string; status: number | string }[]>;
  /** Requests to the openapi prefix or the token endpoint, in order. */
  requests(filter?: { method?: string; path?: string }): LoggedRequest[];
  close(): Promise<void>;
}

const userBody = z.object({ userId: z.string().min(1).default('admin'), tokenLifetimeMs: z.number().int().optional() }).strict();
const long = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d+$/)
    .transform((d) => BigInt(d)),
]);
const projectBody = z
  .object({
    englishName: z.string().min(1),
    projectName: z.string().min(1),
    description: z.string().optional(),
    creator: z.string().optional(),
    members: z.array(z.string()).optional(),
    viewers: z.array(z.string()).optional(),
    projectType: z.number().int().optional(),
    bgId: long.optional(),
    bgName: z.string().optional(),
    deptId: long.nullable().optional(),
    deptName: z.string().optional(),
    centerId: long.nullable().optional(),
    centerName: z.string().optional(),
    businessLineId: long.nullable().optional(),
    businessLineName: z.string().optional(),
    secrecy: z.boolean().optional(),
    enabled: z.boolean().optional(),
    properties: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
const signBody = z
  .object({
    resignId: z.string().min(1),
    runningMs: z.number().int().min(0).optional(),
    result: z.enum(['SUCCESS', 'FAIL']).optional(),
    failMessage: z.string().optional(),
    projectId: z.string().optional(),
  })
  .strict();
/** Optional keys zod left out, typed as left out (zod adds no undefined values for absent keys). */
function defined<T extends object>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}

const disableBody = z.object({ projectId: z.string().min(1), url: z.string().min(1), event: z.string().optional() }).strict();

const deliverBody = z.object({ projectId: z.string().min(1), event: z.string().min(1), data: z.unknown().optional() }).strict();

/** JSON as Jackson reads it into Long fields: whole numbers beyond 2^53 stay exact (as bigint). */
function parseLongs(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && !Number.isSafeInteger(value) && /^-?\d+$/.test(context?.source ?? '')
      ? BigInt(context?.source ?? '0')
      : value,
  );
}

/** The answer with `fields` set in its wrapper's `data` object; any other answer as it is. */
function patchData(reply: Reply, fields: Record<string, unknown>): Reply {
  try {
    const body = JSON.parse(reply.body) as unknown;
    if (typeof body !== 'object' || body === null || !('data' in body)) return reply;
    const data = (body as { data: unknown }).data;
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return reply;
    return { ...reply, body: JSON.stringify({ ...body, data: { ...data, ...fields } }) };
  } catch {
    return reply;
  }
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const flavour = options.flavour ?? 'bkci';
  const now = options.now ?? Date.now;
  const wire = new Wire(flavour);
  const tokens = new TokenAuthority(() => options.tokenLifetimeMs ?? 4 * 3600_000, now);
  const tokenResponse = options.tokenResponse ?? (flavour === 'spec' ? 'bare' : 'wrapped');
  const faults = new FaultPlan();
  let apigw = options.gateway === undefined ? undefined : new ApiGateway(gatewaySchema.parse(options.gateway), tokens, now);
  const log: LoggedRequest[] = [];
  const sockets = new Set<Socket>();
  const tokenHits = new Map<string, number[]>();
  let lastProjectId = 0;
  let lastCallbackId = 0;
  let url = '';

  const builds = new BuildWorld(wire, now);
  const artifacts = new ArtifactWorld(wire, now, builds, () => url);
  const world: World = {
    wire,
    now,
    projects: new Map(),
    signs: new Map(),
    callbacks: [],
    callbackPaging: options.callbackPaging ?? 'pages',
    nextCallbackId: () => ++lastCallbackId,
    builds,
    logs: new LogWorld(wire, now, builds),
    variables: new VariableWorld(wire, now, builds),
    artifacts,
    nextProjectId: () => ++lastProjectId,
    baseUrl: () => url,
  };

  const files = new FileServer({
    artifacts,
    tokens,
    projects: world.projects,
    onHold: options.onHold,
    fault: (method, path) => faults.take(method, path),
  });
  files.set(filesBody.parse(options.files ?? {}));

  /**
   * What bk-ci says to a project that cannot be created (AbsProjectServiceImpl.validate): a name
   * checked first, then the English name. A seed gets no exemption: a test that seeds a
   * duplicate would pass where bk-ci fails.
   */
  const duplicateOf = (seed: { englishName: string; projectName: string }): Reply | undefined => {
    for (const p of world.projects.values())
      if (p.projectName === seed.projectName)
        return json(400, {
          status: 2119002,
          message: '项目名或英文名重复',
          detail: `a project named "${seed.projectName}" exists: ${p.englishName}`,
        });
    if (world.projects.has(seed.englishName))
      return json(400, { status: 2119007, message: '英文名已经存在', detail: `project ${seed.englishName} exists` });
    return undefined;
  };

  /** bk-ci's words for a project it does not have (ApiAspect) and an event it does not know (CallBackEvent.valueOf). */
  const unknownProject = (projectId: string): Reply | undefined =>
    world.projects.has(projectId) ? undefined : json(404, { status: 404, message: `ProjectId [${projectId}] not find, please check it.` });
  const unknownEvent = (event: string | undefined): Reply | undefined =>
    event === undefined || CALLBACK_EVENTS.has(event)
      ? undefined
      : json(400, {
          status: 400,
          message: '查询参数请求错误',
          detail: `${event} is not one of bk-ci's callback events: ${[...CALLBACK_EVENTS].join(', ')}`,
        });

  const seedProject = (seed: ProjectSeed): StoredProject => {
    const duplicate = duplicateOf(seed);
    if (duplicate !== undefined) throw new Error(`cannot seed project ${seed.englishName}: ${duplicate.body}`);
    const { members, viewers, ...fields } = seed;
    const creator = seed.creator ?? members?.[0] ?? 'admin';
    const p = newProject(fields, world.nextProjectId(), creator, now());
    for (const m of members ?? []) p.members.add(m);
    for (const v of viewers ?? []) p.viewers.add(v);
    world.projects.set(p.englishName, p);
    return p;
  };

  const seedSign = (seed: SignSeed): SignTask => {
    const task: SignTask = {
      resignId: seed.resignId,
      createdAt: now(),
      runningMs: seed.runningMs ?? 0,
      result: seed.result ?? 'SUCCESS',
      failMessage: seed.failMessage ?? '',
      projectId: seed.projectId ?? 'demo',
      pipelineId: 'p-0123456789abcdef',
      buildId: 'b-0123456789abcdef',
      resultFileName: `${seed.resignId}_enterprise_sign.ipa`,
    };
    world.signs.set(task.resignId, task);
    return task;
  };

  const addUser = (userId: string, lifetimeMs?: number) => ({
    bkToken: tokens.addTicket(userId),
    token: tokens.issue(userId, lifetimeMs),
  });

  const deliver = (projectId: string, event: string, data: unknown) =>
    Promise.all(
      world.callbacks
        .filter((cb) => cb.projectId === projectId && cb.event === event && cb.enable)
        .map(async (cb) => {
          try {
            const res = await fetch(cb.url, {
              method: 'POST',
              headers: { 'content-type': 'application/json;charset=utf-8', 'x-devops-webhook-token': cb.secretToken ?? 'NONE' },
              body: JSON.stringify({ event, data }),
              signal: AbortSignal.timeout(3000),
            });
            await res.body?.cancel();
            return { url: cb.url, status: res.status };
          } catch (e) {
            return { url: cb.url, status: String(e) };
          }
        }),
    );

  /**
   * The control API, for shells and workflows (emulator/README.md lists every body). A body that
   * is not what an endpoint takes is a 400 that says what is wrong; nothing is half-applied.
   */
  async function control(method: string, path: string, body: string): Promise<Reply> {
    const name = path.slice(CONTROL_PREFIX.length);
    const endpoint = CONTROL[`${method} ${name}`];
    if (endpoint === undefined)
      return json(404, { message: `no control endpoint ${method} ${path}; there are: ${Object.keys(CONTROL).join(', ')}` });
    let input: unknown = {};
    if (body.trim() !== '') {
      try {
        input = JSON.parse(body);
      } catch (e) {
        return json(400, { message: `the body is not JSON: ${String(e)}` });
      }
    }
    return endpoint(input);
  }

  /** A control endpoint: its body checked by the schema before anything is done. */
  const control_ =
    <S extends z.ZodType>(body: S, run: (b: z.output<S>) => unknown, refuse: (b: z.output<S>) => Reply | undefined = () => undefined) =>
    async (input: unknown): Promise<Reply> => {
      const parsed = body.safeParse(input);
      if (!parsed.success)
        return json(400, { message: parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ') });
      return refuse(parsed.data) ?? json(200, await run(parsed.data));
    };
  const CONTROL: Record<string, (input: unknown) => Promise<Reply>> = {
    'POST users': control_(userBody, (b) => addUser(b.userId, b.tokenLifetimeMs)),
    'POST projects': control_(projectBody, (b) => ({ englishName: seedProject(defined(b)).englishName }), duplicateOf),
    'POST signs': control_(signBody, (b) => seedSign(defined(b))),
    'POST callbacks/disable': control_(
      disableBody,
      (b) => {
        const hit = world.callbacks.filter(
          (cb) => cb.projectId === b.projectId && cb.url === b.url && (b.event === undefined || cb.event === b.event),
        );
        for (const cb of hit) cb.enable = false;
        return { disabled: hit.map((cb) => cb.event) };
      },
      (b) => unknownProject(b.projectId) ?? unknownEvent(b.event),
    ),
    'POST gateway': control_(gatewaySchema, (b) => {
      apigw = new ApiGateway(b, tokens, now);
      return { ok: true };
    }),
    'POST pipelines': control_(pipelineSchema, (b) => {
      world.builds.seed(b);
      return { ok: true };
    }),
    'POST reviews': control_(reviewBody, (b) => decideByControl(world.builds, b)),
    'POST builds/retry': control_(
      retryBody,
      (b) => retryBuild(world.builds, b),
      (b) => {
        const build = world.builds.builds.get(b.buildId);
        const refusal = build === undefined ? undefined : retryRefusal(world.builds, build);
        return refusal === undefined ? undefined : json(400, refusal);
      },
    ),
    'POST builds': control_(seededBuildBody, (b) => {
      const built = seedBuild(world.builds, b);
      return { id: built.id, num: built.num };
    }),
    'POST logs/fail': control_(logFailBody, (b) => {
      world.logs.failSearches(b);
      return { ok: true };
    }),
    'POST files': control_(filesBody, (b) => files.set(b)),
    'POST faults': control_(faultRuleBody, (b) => {
      faults.add(b);
      return { ok: true, armed: faults.list().length };
    }),
    'GET faults': control_(z.object({}), () => faults.list()),
    'DELETE faults': control_(z.object({}), () => {
      faults.clear();
      return { ok: true };
    }),
    'GET log': control_(z.object({}), () => log),
    'GET builds': control_(z.object({}), () =>
      [...world.builds.builds.values()].map((b) => ({
        id: b.id,
        projectId: b.projectId,
        pipelineId: b.pipelineId,
        num: b.num,
        executeCount: b.executeCount,
        userId: b.userId,
        buildMsg: b.buildMsg,
        params: b.params,
        retries: b.retries.map((r) => ({ executeCount: r.executeCount, userId: r.userId, scope: r.scope })),
        ...world.builds.state(b),
      })),
    ),
    'POST deliver': control_(
      deliverBody,
      (b) => deliver(b.projectId, b.event, b.data ?? {}),
      (b) => unknownProject(b.projectId) ?? unknownEvent(b.event),
    ),
  };

  function handle(method: string, path: string, query: URLSearchParams, req: IncomingMessage, body: string): Reply {
    if (apigw !== undefined) {
      const front = apigw.front(method, path, req.headers);
      if ('reply' in front) return front.reply;
      const parsed = parseBody(method, body, front.segments);
      if ('status' in parsed) return parsed;
      return route(world, { method, segments: front.segments, query, userId: front.userId, body: parsed.value });
    }
    if (path === TOKEN_PATH) return issueToken(method, req);
    // Outside bk-ci's service locations (`/ms/<service>/api/…`) nginx itself answers, with its
    // error page (docs/bkci/wrappers-and-errors.md): a BlueKing API Gateway path sent here, say.
    if (!path.startsWith('/ms/')) return wire.gatewayError(404, '请求资源不存在。');
    if (!path.startsWith(OPENAPI_ROOT)) return wire.notFound();
    const check = tokens.check(query.get('access_token'));
    if (!check.ok) {
      if (check.reason === 'empty') return wire.tokenEmpty();
      if (check.reason === 'expired') return wire.tokenExpired(check.expiredAt);
      return wire.tokenIllegal();
    }
    const uid = req.headers['x-devops-uid'];
    if (typeof uid !== 'string' || uid === '') return wire.error(400, 400, '参数校验失败:request param userId cannot be empty');
    let segments: string[];
    try {
      segments = path.slice(OPENAPI_ROOT.length).split('/').map(decodeURIComponent);
    } catch {
      return wire.error(400, 400, '查询参数请求错误');
    }
    const parsed = parseBody(method, body, segments);
    if ('status' in parsed) return parsed;
    return route(world, { method, segments, query, userId: uid, body: parsed.value });
  }

  /** A POST or PUT body as Jackson reads it; an empty or broken one is bk-ci's 400. */
  function parseBody(method: string, body: string, segments: string[]): { value: unknown } | Reply {
    if (method !== 'POST' && method !== 'PUT') return { value: undefined };
    if (body === '') return bodyOptional(segments) ? { value: undefined } : wire.error(400, 400, 'JSON参数错误');
    try {
      return { value: parseLongs(body) };
    } catch {
      return wire.error(400, 400, 'JSON参数错误');
    }
  }

  function issueToken(method: string, req: IncomingMessage): Reply {
    if (method !== 'GET') return wire.error(405, 405, 'HTTP方法不被允许。');
    const ticket = /(?:^|;\s*)bk_token=([^;]*)/.exec(req.headers.cookie ?? '')?.[1];
    const userId = tokens.userOfTicket(ticket);
    if (userId === undefined) return wire.gatewayError(401, '用户权限验证失败。');
    if (options.tokenRateLimit !== undefined) {
      const t = now();
      const hits = (tokenHits.get(userId) ?? []).filter((h) => t - h < 1000);
      hits.push(t);
      tokenHits.set(userId, hits);
      if (hits.length > options.tokenRateLimit) return html(429, 'Too Many Requests');
    }
    const info = tokens.issue(userId);
    return tokenResponse === 'wrapped' ? wire.ok(info) : json(200, info);
  }

  function send(res: ServerResponse, reply: Reply): void {
    res.writeHead(reply.status, { 'content-type': `${reply.contentType};charset=utf-8`, ...reply.headers });
    res.end(reply.body);
  }

  function applyFault(fault: Fault, req: IncomingMessage, res: ServerResponse, answer: () => Reply): void {
    switch (fault.kind) {
      case 'status': {
        const ct = fault.contentType ?? 'json';
        const body =
          fault.body ??
          (ct === 'html'
            ? html(fault.status, 'Error').body
            : ct === 'json'
              ? JSON.stringify({ status: fault.status, message: `injected ${fault.status}` })
              : `injected ${fault.status}`);
        const contentType = ct === 'html' ? 'text/html' : ct === 'json' ? 'application/json' : 'text/plain';
        send(res, { status: fault.status, body, contentType, ...(fault.headers ? { headers: fault.headers } : {}) });
        return;
      }
      case 'wrapper-status':
        send(res, json(200, { status: fault.status, message: fault.message ?? 'injected failure' }));
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'hang':
        options.onHold?.({ method: req.method ?? '', path: req.url ?? '' });
        return;
      case 'truncate':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"status":0,"data":{"resignId":"s-');
        return;
      case 'stall':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"status":0,"data":', () => options.onHold?.({ method: req.method ?? '', path: req.url ?? '' }));
        return;
      case 'cut': {
        const reply = answer();
        res.writeHead(reply.status, { 'content-type': `${reply.contentType};charset=utf-8`, ...reply.headers });
        res.write(Buffer.from(reply.body).subarray(0, fault.bytes), () => req.socket.destroy());
        return;
      }
      case 'delay':
        setTimeout(() => send(res, answer()), fault.ms);
        return;
      case 'patch':
        send(res, patchData(answer(), fault.data));
        return;
      // About a build file's bytes (emulator/files.ts): any other answer is sent as it is.
      case 'checksum':
      case 'headers':
        send(res, answer());
        return;
    }
  }

  const listener: RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const method = req.method ?? 'GET';
      const rawUrl = req.url ?? '/';
      const q = rawUrl.indexOf('?');
      const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
      const rawQuery = q === -1 ? '' : rawUrl.slice(q + 1);
      const body = Buffer.concat(chunks).toString('utf8');
      if (path.startsWith(CONTROL_PREFIX)) {
        control(method, path, body).then(
          (reply) => send(res, reply),
          (e: unknown) => send(res, json(400, { message: String(e) })),
        );
        return;
      }
      log.push({ method, path, query: rawQuery, headers: { ...req.headers }, body, time: now(), remotePort: req.socket.remotePort });
      const answer = (): Reply => {
        try {
          return handle(method, path, new URLSearchParams(rawQuery), req, body);
        } catch (e) {
          return wire.error(500, 500, `服务器错误。 ${String(e)}`);
        }
      };
      if (files.handles(path)) {
        const fault = faults.take(method, path);
        files.serve(req, res, path, new URLSearchParams(rawQuery), fault, (f) => applyFault(f, req, res, () => wire.notFound()));
        return;
      }
      const taken = faults.takeRule(method, path);
      if (taken === undefined) send(res, answer());
      else if (taken.after) {
        // The work is done (a start starts its build); only the answer is lost, late or cut.
        const handled = answer();
        applyFault(taken.fault, req, res, () => handled);
      } else applyFault(taken.fault, req, res, answer);
    });
  };
  const server = options.tls ? createTlsServer({ key: options.tls.key, cert: options.tls.cert }, listener) : createServer(listener);
  // nginx's default keepalive_timeout, which bk-ci's gateway keeps.
  server.keepAliveTimeout = 75_000;
  server.on(options.tls ? 'secureConnection' : 'connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  url = `${options.tls ? 'https' : 'http'}://${options.host ?? '127.0.0.1'}:${port}`;
  await files.start(options.host ?? '127.0.0.1');

  return {
    url,
    flavour,
    faults,
    log,
    tokens,
    projects: world.projects,
    callbacks: world.callbacks,
    builds: world.builds,
    logs: world.logs,
    files,
    seedPipeline: (seed) => {
      const p = pipelineSchema.parse(seed);
      world.builds.seed(p);
      return p;
    },
    retryBuild: (seed) => retryBuild(world.builds, retryBody.parse(seed)),
    seedBuild: (seed) => {
      const b = seedBuild(world.builds, seededBuildBody.parse(seed));
      return { id: b.id, num: b.num };
    },
    addUser,
    seedProject,
    seedSign,
    deliver,
    requests: (filter = {}) =>
      log.filter(
        (r) => (filter.method === undefined || r.method === filter.method) && (filter.path === undefined || r.path.includes(filter.path)),
      ),
    close: async () => {
      await files.close();
      await new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      });
    },
  };
}
