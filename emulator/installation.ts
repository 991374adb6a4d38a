// The emulated bk-ci installation: its worlds (projects, re-sign tasks, callbacks, pipelines and
// their builds, logs, variables and files), who may call it (tokens, the token endpoint, the API
// Gateway put in front), the faults armed, and every request it received. The server that
// answers for it is emulator/server.ts; its control API, emulator/control.ts.
import type { z } from 'zod';
import { ApiGateway, gatewaySchema } from './apigateway.ts';
import { ArtifactWorld } from './artifacts.ts';
import { BuildWorld } from './builds.ts';
import { type CallbackPaging, CallbackWorld } from './callbacks.ts';
import type { HoldListener } from './fault-replies.ts';
import { FaultPlan } from './faults.ts';
import { FileServer, filesBody } from './files.ts';
import { LogWorld } from './logs.ts';
import { ProjectWorld } from './projects.ts';
import { SignWorld } from './signs.ts';
import { TokenEndpoint } from './token-endpoint.ts';
import { TokenAuthority } from './tokens.ts';
import { VariableWorld } from './variables.ts';
import { type Flavour, Wire } from './wire.ts';

export interface InstallationOptions {
  flavour?: Flavour;
  /** Lifetime of issued tokens. Default 4 h, bk-ci's in-code default. */
  tokenLifetimeMs?: number;
  /** `wrapped` is what bk-ci's code returns, `bare` what its docs show. Default: bare for spec, wrapped for bkci. */
  tokenResponse?: 'wrapped' | 'bare';
  /** Requests per second and user on the token endpoint (bk-ci's gateway allows 20). Off by default. */
  tokenRateLimit?: number;
  now?: () => number;
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
  callbackPaging?: CallbackPaging;
  /**
   * Told when a fault holds a request without its (whole) answer (`hang`, `stall`): a test's clock
   * can then let the client's request-timeout pass at once instead of in real time.
   */
  onHold?: HoldListener;
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

export class Installation {
  readonly flavour: Flavour;
  readonly now: () => number;
  readonly wire: Wire;
  readonly tokens: TokenAuthority;
  readonly tokenEndpoint: TokenEndpoint;
  readonly faults = new FaultPlan();
  /** Requests to the OpenAPI, the token endpoint and the files, in order (not the control API's). */
  readonly log: LoggedRequest[] = [];
  readonly projects: ProjectWorld;
  readonly signs: SignWorld;
  readonly callbacks: CallbackWorld;
  readonly builds: BuildWorld;
  readonly logs: LogWorld;
  readonly variables: VariableWorld;
  readonly artifacts: ArtifactWorld;
  readonly files: FileServer;
  /** The BlueKing API Gateway in front, if there is one (`gateway`, POST /__emulator/gateway). */
  gateway: ApiGateway | undefined;
  /** Where it listens, once it does: the links it hands out lead there. */
  url = '';

  constructor(options: InstallationOptions) {
    this.flavour = options.flavour ?? 'bkci';
    const now = options.now ?? Date.now;
    const baseUrl = () => this.url;
    this.now = now;
    this.wire = new Wire(this.flavour);
    this.tokens = new TokenAuthority(() => options.tokenLifetimeMs ?? 4 * 3600_000, now);
    this.tokenEndpoint = new TokenEndpoint(this.wire, this.tokens, now, {
      response: options.tokenResponse ?? (this.flavour === 'spec' ? 'bare' : 'wrapped'),
      rateLimit: options.tokenRateLimit,
    });
    this.gateway = options.gateway === undefined ? undefined : new ApiGateway(gatewaySchema.parse(options.gateway), this.tokens, now);
    this.projects = new ProjectWorld(this.wire, now);
    this.signs = new SignWorld(this.wire, now, baseUrl);
    this.callbacks = new CallbackWorld(this.wire, now, this.projects, options.callbackPaging ?? 'pages');
    this.builds = new BuildWorld(this.wire, now);
    this.logs = new LogWorld(this.wire, now, this.builds);
    this.variables = new VariableWorld(this.wire, now, this.builds);
    this.artifacts = new ArtifactWorld(this.wire, now, this.builds, baseUrl);
    this.files = new FileServer({
      artifacts: this.artifacts,
      tokens: this.tokens,
      projects: this.projects.projects,
      onHold: options.onHold,
      fault: (method, path) => this.faults.take(method, path),
    });
    this.files.set(filesBody.parse(options.files ?? {}));
  }
}
