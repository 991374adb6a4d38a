// Where each bk-ci endpoint lives on each front door. An operation names its endpoints once;
// the client resolves them for the gateway the step uses.
import type { Method } from '../http/caller.ts';

export const GATEWAYS = ['bk-ci'] as const;
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
}

/** The OpenAPI root on each gateway, after base-url; the path's version follows it. */
const OPENAPI_ROOT: Record<Gateway, string> = { 'bk-ci': '/ms/openapi/api/apigw' };

export type PathParams = Readonly<Record<string, string | readonly string[]>>;

/** A path parameter as exactly one segment: `/`, `?`, `#` and `%` cannot change the route. */
export function pathSegment(value: string): string {
  if (value === '' || value === '.' || value === '..') throw new Error(`"${value}" cannot be a path segment`);
  return encodeURIComponent(value);
}

/** The endpoint's path on the gateway, every parameter encoded; undefined where the gateway does not publish it. */
export function resolvePath(endpoint: Endpoint, gateway: Gateway, params: PathParams = {}): string | undefined {
  const template = endpoint.path[gateway];
  if (template === null) return undefined;
  const segments = template
    .replace(/^\//, '')
    .split('/')
    .flatMap((part) => {
      const m = /^\{(\.\.\.)?(\w+)\}$/.exec(part);
      if (m === null) return [part];
      const value = params[m[2] ?? ''];
      if (value === undefined) throw new Error(`no value for the path parameter ${part}`);
      return (typeof value === 'string' ? [value] : [...value]).map(pathSegment);
    });
  return `${template.startsWith('/') ? '' : OPENAPI_ROOT[gateway]}/${segments.join('/')}`;
}

/** `GET v3/projects/{projectId}`, for docs and messages. */
export const describeEndpoint = (e: Endpoint, gateway: Gateway): string => `${e.method} ${e.path[gateway] ?? '(not published)'}`;
