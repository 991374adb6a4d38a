// Where each bk-ci endpoint lives on each front door. An operation names its endpoints once;
// the client resolves them for the gateway the step uses.
import type { Method } from '../http/caller.ts';
import type { CallKind } from '../http/retry.ts';

export const GATEWAYS = ['bk-ci', 'bk-apigateway'] as const;
export type Gateway = (typeof GATEWAYS)[number];

/**
 * An endpoint as each gateway publishes it: the path after the API type, version first, with
 * `{name}` for a parameter (one segment) and `{...name}` for a list of segments; null where that
 * gateway does not publish it. A path that starts with `/` is taken from base-url itself (the
 * token endpoint is not under the OpenAPI).
 */
export interface Endpoint {
  readonly method: Method;
  readonly path: Readonly<Record<Gateway, string | null>>;
  /** What a call to it is, when its verb says otherwise (a read published as POST); else the verb's default. */
  readonly kind?: CallKind;
}

/** An endpoint both gateways publish at the same path (the gateway puts its API type after the version). */
export const onBoth = (method: Method, path: string, kind?: CallKind): Endpoint => ({
  method,
  path: { 'bk-ci': path, 'bk-apigateway': path },
  ...(kind === undefined ? {} : { kind }),
});

/** An endpoint each gateway publishes at a path of its own; null where one does not publish it. */
export const perGateway = (method: Method, bkci: string | null, apigateway: string | null): Endpoint => ({
  method,
  path: { 'bk-ci': bkci, 'bk-apigateway': apigateway },
});

/** The request operation's endpoint, the user's: `{...path}` stands for their segments, on either gateway. */
export const anyPath = (method: Method): Endpoint => onBoth(method, '{...path}');

/**
 * The API type on the BlueKing API Gateway: `apigw-app` when the app identifies itself (app state,
 * the app must be granted each resource), `apigw-user` otherwise (user state).
 */
export type ApiType = 'apigw-app' | 'apigw-user';

export type PathParams = Readonly<Record<string, string | readonly string[]>>;

/** A path parameter as exactly one segment: `/`, `?`, `#` and `%` cannot change the route. */
export function pathSegment(value: string): string {
  if (value === '' || value === '.' || value === '..') throw new Error(`"${value}" cannot be a path segment`);
  return encodeURIComponent(value);
}

/**
 * The endpoint's path on the gateway, every parameter encoded; undefined where the gateway does
 * not publish it. bk-ci's own gateway: `/ms/openapi/api/apigw/v4/projects/…`; the BlueKing API
 * Gateway swaps version and type: `/v4/apigw-app/projects/…`.
 */
export function resolvePath(
  endpoint: Endpoint,
  gateway: Gateway,
  params: PathParams = {},
  type: ApiType = 'apigw-user',
): string | undefined {
  const template = endpoint.path[gateway];
  if (template === null) return undefined;
  const segments = template
    .replace(/^\//, '')
    .split('/')
    .flatMap((part) => {
      const param = /^\{(\.\.\.)?(\w+)\}$/.exec(part);
      if (param === null) return [part];
      const value = params[param[2] ?? ''];
      if (value === undefined) throw new Error(`no value for the path parameter ${part}`);
      return (typeof value === 'string' ? [value] : [...value]).map(pathSegment);
    });
  if (template.startsWith('/')) return `/${segments.join('/')}`;
  if (gateway === 'bk-ci') return `/ms/openapi/api/apigw/${segments.join('/')}`;
  const [version, ...rest] = segments;
  return `/${[version, type, ...rest].join('/')}`;
}
