// The BlueKing API Gateway in front of the emulated bk-ci, as bk-apigateway's APISIX plugins
// behave (docs/bkci/gateway.md): it verifies X-Bkapi-Authorization, refuses with
// its own error bodies, limits the rate, and maps its v4 front paths to bk-ci's backend paths.
import { z } from 'zod';
import type { TokenAuthority } from './tokens.ts';
import type { Reply } from './wire.ts';

export const gatewaySchema = z
  .object({
    /** The apps the gateway knows: code → secret. */
    apps: z.record(z.string(), z.string()).default({ 'ci-app': 'app-secret-0001' }),
    /** Front paths (regular expressions) no app has been granted: apigw-app calls there get 1640301. */
    ungranted: z.array(z.string()).default([]),
    /** Requests per second and app (or user) before 429; 0 for none. */
    rateLimit: z.number().int().min(0).default(0),
  })
  .strict();
export type GatewayOptions = z.infer<typeof gatewaySchema>;

/** The gateway's own refusal: `{code, code_name, message, result: false, data: null}` and its headers. */
function refuse(status: number, code: number, codeName: string, message: string, headers: Record<string, string> = {}): Reply {
  return {
    status,
    contentType: 'application/json',
    body: JSON.stringify({ code, code_name: codeName, message, result: false, data: null }),
    headers: { 'x-bkapi-error-code': String(code), 'x-bkapi-error-message': encodeURIComponent(message), ...headers },
  };
}

const authorization = z
  .object({
    bk_app_code: z.string().optional(),
    bk_app_secret: z.string().optional(),
    bk_token: z.string().optional(),
    access_token: z.string().optional(),
    bk_username: z.string().optional(),
  })
  .passthrough();

/** Where a front path leads in bk-ci: the project calls are renamed (@BkApigwApi apigwPathTail). */
function backendPath(method: string, rest: string[]): string[] {
  const [first, second, ...more] = rest;
  if (first === 'projects' && second === 'project_list' && more.length === 0) return ['v3', 'projects'];
  if (first === 'projects' && second === 'project_create' && more.length === 0) return ['v3', 'projects'];
  if (first === 'projects' && second !== undefined && more.length === 0 && (method === 'GET' || method === 'PUT'))
    return ['v3', 'projects', second];
  if (first === 'projects' && second !== undefined && more.join('/') === 'callbacks/batch')
    return ['v3', 'projects', second, 'callbacks', 'batch'];
  return ['v4', ...rest];
}

export type Front = { reply: Reply } | { segments: string[]; userId: string };

type Authorization = z.infer<typeof authorization>;

export class ApiGateway {
  readonly #options: GatewayOptions;
  readonly #tokens: TokenAuthority;
  readonly #now: () => number;
  readonly #hits = new Map<string, number[]>();

  constructor(options: GatewayOptions, tokens: TokenAuthority, now: () => number) {
    this.#options = options;
    this.#tokens = tokens;
    this.#now = now;
  }

  /** A request at the gateway: its refusal, or the backend path and the verified user. */
  front(method: string, path: string, headers: Record<string, string | string[] | undefined>): Front {
    const match = /^\/v4\/(apigw-app|apigw-user)\/(.+)$/.exec(path);
    if (match === null) return { reply: refuse(404, 1640401, 'API_NOT_FOUND', `API not found [method="${method}" path="${path}"]`) };
    const type = match[1] ?? '';
    const rest = (match[2] ?? '').split('/');
    const auth = readAuthorization(headers['x-bkapi-authorization']);
    if (auth === undefined)
      return {
        reply: refuse(400, 1640001, 'INVALID_ARGS', 'Parameters error [reason="X-Bkapi-Authorization is not a valid JSON object"]'),
      };
    const app = auth.bk_app_code;
    const appRefusal = this.#appRefusal(type, app, auth.bk_app_secret);
    if (appRefusal !== undefined) return { reply: appRefusal };
    const user = this.#verifiedUser(auth);
    const claimed = user ?? auth.bk_username;
    if (type === 'apigw-user' && user === undefined)
      return {
        reply: refuse(
          401,
          1640102,
          'USER_VERIFY_FAILED',
          'User authentication failed, please provide a valid user identity, such as bk_token, access_token',
        ),
      };
    if (type === 'apigw-app' && this.#options.ungranted.some((pattern) => new RegExp(pattern).test(path)))
      return { reply: refuse(403, 1640301, 'APP_NO_PERMISSION', `App has no permission to the resource [app_code="${app}"]`) };
    if (this.#overLimit(app ?? claimed ?? ''))
      return { reply: refuse(429, 1642901, 'RATE_LIMIT_RESTRICTION', 'Request rate exceeds the limit', { 'retry-after': '1' }) };
    // bk-ci's BlueKingApiFilter with the JWT on: X-DEVOPS-UID from the verified user, else as sent.
    const sent = headers['x-devops-uid'];
    return { segments: backendPath(method, rest), userId: user ?? (typeof sent === 'string' && sent !== '' ? sent : (claimed ?? '')) };
  }

  /** An app the gateway does not know by that secret, or an app call without an app. */
  #appRefusal(type: string, app: string | undefined, secret: string | undefined): Reply | undefined {
    if (app !== undefined && this.#options.apps[app] !== secret)
      return refuse(
        401,
        1640101,
        'APP_VERIFY_FAILED',
        `App authentication failed [app_code="${app}", detail="bk_app_code or bk_app_secret is incorrect"]`,
      );
    if (type === 'apigw-app' && app === undefined)
      return refuse(401, 1640101, 'APP_VERIFY_FAILED', 'App authentication failed [detail="app code cannot be empty"]');
    return undefined;
  }

  /** A verified user: a login ticket or a user token. A bare bk_username is not verified. */
  #verifiedUser(auth: Authorization): string | undefined {
    if (auth.bk_token !== undefined) return this.#tokens.userOfTicket(auth.bk_token);
    if (auth.access_token === undefined) return undefined;
    const check = this.#tokens.check(auth.access_token);
    return check.ok ? check.userId : undefined;
  }

  /** Whether this request makes one more than `rateLimit` in the last second for the app (or user); counted if not. */
  #overLimit(key: string): boolean {
    if (this.#options.rateLimit <= 0) return false;
    const now = this.#now();
    const recent = (this.#hits.get(key) ?? []).filter((hit) => now - hit < 1000);
    if (recent.length >= this.#options.rateLimit) return true;
    this.#hits.set(key, [...recent, now]);
    return false;
  }
}

/** X-Bkapi-Authorization as the gateway reads it; undefined when it is not a JSON object. */
function readAuthorization(raw: string | string[] | undefined): Authorization | undefined {
  try {
    return authorization.parse(typeof raw === 'string' && raw !== '' ? JSON.parse(raw) : {});
  } catch {
    return undefined;
  }
}
