// The emulated installation's front doors: bk-ci's own gateway (the token endpoint, nginx's answers
// outside bk-ci's services, the access token and X-DEVOPS-UID checks before the OpenAPI) or,
// when one is put in front, the BlueKing API Gateway (apigateway.ts). Either way a request that
// passes reaches the routes (routes.ts) with its body as Jackson reads it.
import type { IncomingHttpHeaders } from 'node:http';
import type { ApiGateway } from './apigateway.ts';
import type { Installation } from './installation.ts';
import { bodyOptional, route, type Worlds } from './routes.ts';
import type { Reply } from './wire.ts';

export const OPENAPI_PREFIX = '/ms/openapi/api/apigw/v3/';
/** Where the OpenAPI's versions live: `v3/…` and `v4/…` follow it. */
const OPENAPI_ROOT = '/ms/openapi/api/apigw/';
export const TOKEN_PATH = '/ms/auth/api/user/token/get';

/** A request at the front door, its path and query as sent. */
export interface ApiRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the front doors stand in front of: the worlds, who may call, the API Gateway if there is one. */
type FrontDoors = Worlds & Pick<Installation, 'tokens' | 'tokenEndpoint' | 'gateway'>;

/** The answer to a request at whichever front door the installation has. */
export function answerApi(doors: FrontDoors, request: ApiRequest): Reply {
  return doors.gateway === undefined ? throughBkci(doors, request) : throughGateway(doors, doors.gateway, request);
}

function throughGateway(doors: FrontDoors, gateway: ApiGateway, request: ApiRequest): Reply {
  const { method, query, body } = request;
  const front = gateway.front(method, request.path, request.headers);
  if ('reply' in front) return front.reply;
  const parsed = parseBody(doors, method, body, front.segments);
  if ('reply' in parsed) return parsed.reply;
  return route(doors, { method, segments: front.segments, query, userId: front.userId, body: parsed.value });
}

function throughBkci(doors: FrontDoors, request: ApiRequest): Reply {
  const { wire } = doors;
  const { method, path, query } = request;
  if (path === TOKEN_PATH) return doors.tokenEndpoint.answer(method, request.headers);
  // Outside bk-ci's service locations (`/ms/<service>/api/…`) nginx itself answers, with its
  // error page (docs/bkci/wrappers-and-errors.md): a BlueKing API Gateway path sent here, say.
  if (!path.startsWith('/ms/')) return wire.gatewayError(404, '请求资源不存在。');
  if (!path.startsWith(OPENAPI_ROOT)) return wire.notFound();
  const check = doors.tokens.check(query.get('access_token'));
  if (!check.ok) {
    if (check.reason === 'empty') return wire.tokenEmpty();
    if (check.reason === 'expired') return wire.tokenExpired(check.expiredAt);
    return wire.tokenIllegal();
  }
  const userId = request.headers['x-devops-uid'];
  if (typeof userId !== 'string' || userId === '') return wire.error(400, 400, '参数校验失败:request param userId cannot be empty');
  let segments: string[];
  try {
    segments = path.slice(OPENAPI_ROOT.length).split('/').map(decodeURIComponent);
  } catch {
    return wire.error(400, 400, '查询参数请求错误');
  }
  const parsed = parseBody(doors, method, request.body, segments);
  if ('reply' in parsed) return parsed.reply;
  return route(doors, { method, segments, query, userId, body: parsed.value });
}

/** A POST or PUT body as Jackson reads it; an empty or broken one is bk-ci's 400. */
function parseBody(worlds: Worlds, method: string, body: string, segments: string[]): { value: unknown } | { reply: Reply } {
  if (method !== 'POST' && method !== 'PUT') return { value: undefined };
  if (body === '') return bodyOptional(segments) ? { value: undefined } : { reply: worlds.wire.error(400, 400, 'JSON参数错误') };
  try {
    return { value: parseLongs(body) };
  } catch {
    return { reply: worlds.wire.error(400, 400, 'JSON参数错误') };
  }
}

/** JSON as Jackson reads it into Long fields: whole numbers beyond 2^53 stay exact (as bigint). */
function parseLongs(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && !Number.isSafeInteger(value) && /^-?\d+$/.test(context?.source ?? '')
      ? BigInt(context?.source ?? '0')
      : value,
  );
}
