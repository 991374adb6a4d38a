import { z } from 'zod';
import type { Credentials, IssuedToken, TokenSource } from '../auth.ts';
import { AuthError, describeTokenProblem, tokenProblem } from '../auth.ts';
import { parseExact, type RawJson } from '../json.ts';
import { cut, stripBom } from '../text.ts';
import type { HttpCaller } from './caller.ts';
import { HttpError, ResponseFormatError, WrapperStatusError } from './errors.ts';
import type { WireResponse } from './transport.ts';

export const OPENAPI_PREFIX = '/ms/openapi/api/apigw/v3';
export const TOKEN_PATH = '/ms/auth/api/user/token/get';

/**
 * Both of bk-ci's wrappers: the common `Result` ({status, message, data}) and the project
 * `Result` ({code, message, data, request_id, result}). Absent and null are the same.
 */
const envelope = z.object({
  status: z.number().int().nullish(),
  code: z.number().int().nullish(),
  message: z.string().nullish(),
  data: z.unknown().optional(),
});

/** A path parameter as exactly one segment: `/`, `?`, `#` and `%` cannot change the route. */
export function pathSegment(value: string): string {
  if (value === '' || value === '.' || value === '..') throw new Error(`"${value}" cannot be a path segment`);
  return encodeURIComponent(value);
}

/** The body as JSON; a byte order mark before it is allowed, as curl and browsers allow it. */
export function parseJson(res: WireResponse, method: string, url: string, scrub: (text: string) => string, exact = false): unknown {
  const text = stripBom(res.body);
  try {
    return exact ? parseExact(text) : (JSON.parse(text) as unknown);
  } catch (e) {
    const detail =
      text.trim() === ''
        ? 'an empty body'
        : `not valid JSON (${cut(scrub(e instanceof Error ? e.message : String(e)), 200)}); it begins ${JSON.stringify(cut(scrub(text), 80))}`;
    throw new ResponseFormatError({ method, url, status: res.status, detail, cause: e });
  }
}

/** The `data` of a wrapped answer, checked: undefined when the server sent none. */
export function unwrap<T>(
  value: unknown,
  schema: z.ZodType<T>,
  res: WireResponse,
  method: string,
  url: string,
  scrub: (text: string) => string,
): T | undefined {
  const env = envelope.safeParse(value);
  if (!env.success || typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ResponseFormatError({ method, url, status: res.status, detail: 'not a bk-ci result object' });
  }
  const serverStatus = env.data.code ?? env.data.status;
  if (serverStatus === undefined || serverStatus === null) {
    throw new ResponseFormatError({ method, url, status: res.status, detail: 'the result has neither "status" nor "code"' });
  }
  if (serverStatus !== 0) {
    throw new WrapperStatusError({ method, url, status: res.status, serverStatus, serverMessage: cut(scrub(env.data.message ?? ''), 500) });
  }
  if (env.data.data === undefined || env.data.data === null) return undefined;
  return checked(env.data.data, schema, res, method, url);
}

export function checked<T>(value: unknown, schema: z.ZodType<T>, res: WireResponse, method: string, url: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'data'}: ${i.message}`);
  throw new ResponseFormatError({
    method,
    url,
    status: res.status,
    detail: `data does not have the expected shape (${issues.join('; ')})`,
    cause: parsed.error,
  });
}

export interface OpenapiRequest<T> {
  method: 'GET' | 'POST' | 'PUT';
  /** Path after the v3 prefix, one element per segment, each encoded on its own. */
  path: string[];
  query?: Record<string, string | undefined>;
  /** Sent as JSON; POST and PUT send `{}` when there is none. */
  body?: unknown;
  data: z.ZodType<T>;
  /** Whole numbers beyond 2^53 kept to the digit (as raw JSON), for data that is sent back. */
  exact?: boolean;
}

export interface ApiOptions {
  baseUrl: string;
  appCode?: string;
  tokens: TokenSource;
  /** Retries stop here; set to the step's deadline. */
  deadline?: number;
}

/** The bk-ci openapi: prefix, headers, the token in the query, both wrappers, renewal on expiry. */
export class BkciApi {
  readonly #http: HttpCaller;
  readonly #o: ApiOptions;
  /** HTTP status of the last openapi answer. */
  lastStatus: number | undefined;

  constructor(http: HttpCaller, options: ApiOptions) {
    this.#http = http;
    this.#o = options;
  }

  /** The result's `data`, or undefined when the server answered success without one. */
  async call<T>(req: OpenapiRequest<T>): Promise<T | undefined> {
    const creds = await this.#o.tokens.current();
    try {
      return await this.#once(req, creds);
    } catch (e) {
      const problem = tokenProblem(e);
      if (problem === undefined) throw e;
      if (problem.kind === 'expired' && (await this.#o.tokens.renewAfterExpiry())) {
        try {
          return await this.#once(req, await this.#o.tokens.current());
        } catch (again) {
          const second = tokenProblem(again);
          if (second === undefined) throw again;
          throw describeTokenProblem(second, this.#o.tokens, again, true);
        }
      }
      throw describeTokenProblem(problem, this.#o.tokens, e, false);
    }
  }

  async #once<T>(req: OpenapiRequest<T>, creds: Credentials): Promise<T | undefined> {
    const query = Object.entries(req.query ?? {})
      .filter((kv): kv is [string, string] => kv[1] !== undefined)
      .map(([k, v]) => `&${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
      .join('');
    const shown = `${this.#o.baseUrl}${OPENAPI_PREFIX}/${req.path.map(pathSegment).join('/')}`;
    // The token is already percent-encoded by bk-ci: sent exactly as issued, never re-encoded.
    const url = `${shown}?access_token=${creds.token}${query}`;
    const headers: Record<string, string> = {
      accept: 'application/json',
      'content-type': 'application/json',
      'x-devops-uid': creds.userId,
    };
    if (this.#o.appCode !== undefined) headers['x-devops-app-code'] = this.#o.appCode;
    const body = req.method === 'GET' ? undefined : JSON.stringify(req.body ?? {});
    let res: WireResponse;
    try {
      res = await this.#http.call({
        method: req.method,
        url,
        headers,
        ...(body === undefined ? {} : { body }),
        ...(this.#o.deadline === undefined ? {} : { deadline: this.#o.deadline }),
      });
    } finally {
      this.lastStatus = this.#http.lastStatus ?? this.lastStatus;
    }
    const scrub = (t: string): string => this.#http.scrub(t);
    return unwrap(parseJson(res, req.method, shown, scrub, req.exact), req.data, res, req.method, shown, scrub);
  }
}

/** `expirationTime` kept as written too: 2^63-1 and friends are not exact as doubles. */
const tokenInfo = z
  .object({
    userId: z.string(),
    expirationTime: z.union([z.number(), z.custom<RawJson>((v) => JSON.isRawJSON(v))]),
    accessToken: z.string().min(1),
  })
  .transform(({ expirationTime: e, ...rest }) => ({
    ...rest,
    expirationTime: typeof e === 'number' ? e : Number(e.rawJSON),
    expirationText: typeof e === 'number' ? String(e) : e.rawJSON,
  }));

/**
 * GET the token endpoint with the `bk_token` login cookie (or none). bk-ci's code wraps the
 * answer in the common Result; its docs show the bare object. Both are accepted.
 */
export async function issueToken(http: HttpCaller, baseUrl: string, bkToken: string | undefined, deadline?: number): Promise<IssuedToken> {
  const url = `${baseUrl}${TOKEN_PATH}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (bkToken !== undefined) headers.cookie = `bk_token=${bkToken}`;
  let res: WireResponse;
  try {
    res = await http.call({ method: 'GET', url, headers, ...(deadline === undefined ? {} : { deadline }) });
  } catch (e) {
    if (e instanceof HttpError && e.status === 401) {
      const problem = { kind: 'refused' } as const;
      throw new AuthError(
        bkToken === undefined
          ? `the token endpoint refused a request without a login ticket (HTTP 401: ${e.serverMessage}). Set access-token (with user-id) or bk-token.`
          : `the token endpoint refused bk-token (HTTP 401: ${e.serverMessage}): the BlueKing login ticket has expired or belongs to another installation. Log in again and store the new bk_token cookie as the secret.`,
        problem,
        { cause: e, status: 401 },
      );
    }
    throw e;
  }
  const scrub = (t: string): string => http.scrub(t);
  const value = parseJson(res, 'GET', url, scrub, true);
  const bare = typeof value === 'object' && value !== null && 'accessToken' in value;
  const info = bare ? checked(value, tokenInfo, res, 'GET', url) : unwrap(value, tokenInfo, res, 'GET', url, scrub);
  if (info === undefined) throw new ResponseFormatError({ method: 'GET', url, status: res.status, detail: 'the token result has no data' });
  return info;
}
