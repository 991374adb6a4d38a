// The emulated bk-ci installation on loopback, for tests, `npm start` and `npm run emulator`
// (emulator/README.md): startEmulator puts the installation (installation.ts) behind a server
// whose requests go to the control API (control.ts), a build file's download (files.ts) or the
// front doors (openapi.ts), each through the faults armed for it (fault-replies.ts).
import type { RequestListener } from 'node:http';
import type { z } from 'zod';
import type { BuildIdData } from './build-records.ts';
import type { BuildWorld } from './builds.ts';
import type { Callback, Delivery } from './callbacks.ts';
import { answerControl, CONTROL_PREFIX } from './control.ts';
import { type Exchange, type HoldListener, replyWithFault } from './fault-replies.ts';
import type { FaultPlan } from './faults.ts';
import type { FileServer } from './files.ts';
import { Installation, type InstallationOptions, type LoggedRequest } from './installation.ts';
import type { LogWorld } from './logs.ts';
import { bodyOf, type LoopbackServer, listenOnLoopback } from './loopback.ts';
import { answerApi } from './openapi.ts';
import { type Pipeline, pipelineSchema } from './pipeline-seed.ts';
import type { StoredProject } from './project-record.ts';
import type { ProjectSeed } from './projects.ts';
import { type RetrySeed, retryBody, retryBuild } from './retries.ts';
import { type BuildSeed, seedBuild, seededBuildBody } from './seeded-builds.ts';
import type { SignSeed, SignTask } from './signs.ts';
import type { TokenAuthority, User } from './tokens.ts';
import { type Flavour, json, type Reply, sendReply } from './wire.ts';

export { OPENAPI_PREFIX, TOKEN_PATH } from './openapi.ts';

export interface EmulatorOptions extends InstallationOptions {
  port?: number;
  host?: string;
  /** Serve https with this key and certificate. */
  tls?: { key: string; cert: string };
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
  addUser(userId: string, tokenLifetimeMs?: number): User;
  seedProject(seed: ProjectSeed): StoredProject;
  seedSign(seed: SignSeed): SignTask;
  /**
   * Sends `event` to every callback registered for it on the project, as bk-ci's CallBackControl
   * does: POST `{event, data}`, `X-DEVOPS-WEBHOOK-TOKEN` = the secret or `NONE`. Returns the
   * receivers' HTTP statuses (bk-ci itself ignores them).
   */
  deliver(projectId: string, event: string, data: unknown): Promise<Delivery[]>;
  /** Requests to the openapi prefix or the token endpoint, in order. */
  requests(filter?: { method?: string; path?: string }): LoggedRequest[];
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const installation = new Installation(options);
  const server = await listenOnLoopback(listenerFor(installation, options.onHold), {
    port: options.port,
    host: options.host,
    tls: options.tls,
    // nginx's default keepalive_timeout, which bk-ci's gateway keeps.
    keepAliveTimeout: 75_000,
  });
  installation.url = server.url;
  await installation.files.start(options.host ?? '127.0.0.1');
  return emulatorOf(installation, server);
}

/** The installation as its users in code see it: its state, and seeding as the control API does. */
function emulatorOf(installation: Installation, server: LoopbackServer): Emulator {
  const { builds, log } = installation;
  return {
    url: server.url,
    flavour: installation.flavour,
    faults: installation.faults,
    log,
    tokens: installation.tokens,
    projects: installation.projects.projects,
    callbacks: installation.callbacks.callbacks,
    builds,
    logs: installation.logs,
    files: installation.files,
    seedPipeline: (seed) => {
      const pipeline = pipelineSchema.parse(seed);
      builds.seed(pipeline);
      return pipeline;
    },
    retryBuild: (seed) => retryBuild(builds, retryBody.parse(seed)),
    seedBuild: (seed) => {
      const build = seedBuild(builds, seededBuildBody.parse(seed));
      return { id: build.id, num: build.num };
    },
    addUser: (userId, tokenLifetimeMs) => installation.tokens.addUser(userId, tokenLifetimeMs),
    seedProject: (seed) => installation.projects.seed(seed),
    seedSign: (seed) => installation.signs.seed(seed),
    deliver: (projectId, event, data) => installation.callbacks.deliver(projectId, event, data),
    requests: (filter = {}) =>
      log.filter(
        (request) =>
          (filter.method === undefined || request.method === filter.method) &&
          (filter.path === undefined || request.path.includes(filter.path)),
      ),
    close: async () => {
      await installation.files.close();
      await server.close();
    },
  };
}

function listenerFor(installation: Installation, onHold: HoldListener): RequestListener {
  return (req, res) => {
    void bodyOf(req).then((body) => answer(installation, { req, res }, body, onHold));
  };
}

/** Answers one request: the control API's, a file's bytes, or the front doors' answer, each as the faults armed for it say. */
function answer(installation: Installation, exchange: Exchange, body: string, onHold: HoldListener): void {
  const { req, res } = exchange;
  const method = req.method ?? 'GET';
  const rawUrl = req.url ?? '/';
  const queryAt = rawUrl.indexOf('?');
  const path = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  const rawQuery = queryAt === -1 ? '' : rawUrl.slice(queryAt + 1);
  if (path.startsWith(CONTROL_PREFIX)) {
    answerControl(installation, method, path, body).then(
      (reply) => sendReply(res, reply),
      (error: unknown) => sendReply(res, json(400, { message: String(error) })),
    );
    return;
  }
  const { faults, files, log, wire } = installation;
  log.push({
    method,
    path,
    query: rawQuery,
    headers: { ...req.headers },
    body,
    time: installation.now(),
    remotePort: req.socket.remotePort,
  });
  if (files.handles(path)) {
    const fault = faults.take(method, path);
    files.serve(req, res, path, new URLSearchParams(rawQuery), fault, (other) =>
      replyWithFault(other, exchange, () => wire.notFound(), onHold),
    );
    return;
  }
  const apiAnswer = (): Reply => {
    try {
      return answerApi(installation, { method, path, query: new URLSearchParams(rawQuery), headers: req.headers, body });
    } catch (error) {
      return wire.error(500, 500, `服务器错误。 ${String(error)}`);
    }
  };
  const taken = faults.takeRule(method, path);
  if (taken === undefined) sendReply(res, apiAnswer());
  else if (taken.after) {
    // The work is done (a start starts its build); only the answer is lost, late or cut.
    const handled = apiAnswer();
    replyWithFault(taken.fault, exchange, () => handled, onHold);
  } else replyWithFault(taken.fault, exchange, apiAnswer, onHold);
}
