// bk-ci's wire dialect: its two result wrappers, its error bodies, the query parameters that
// hold secrets. Used by the client and by the token endpoint.

import { ResponseFormatError, WrapperStatusError } from '../base/errors.ts';
import { duplicateKey, parseExact, tooDeep } from '../base/json.ts';
import { type JsonItemSink, MemberItems } from '../base/json-stream.ts';
import { z } from '../base/schema.ts';
import { collapse, cut, stripBom } from '../base/text.ts';
import type { ErrorBody } from '../http/caller.ts';
import type { BodySink, WireResponse } from '../http/transport.ts';
import type { Gateway } from './routes.ts';

// The schemas here are built on first use (z.lazy): this module loads at every start, and a step
// that gets no error never reads an error body.

/**
 * Both of bk-ci's wrappers: the common `Result` ({status, message, data}) and the project
 * `Result` ({code, message, data, request_id, result}). Absent and null are the same.
 */
const envelope = z.lazy(() =>
  z.object({
    status: z.number().int().nullish(),
    code: z.number().int().nullish(),
    message: z.string().nullish(),
    data: z.unknown().optional(),
  }),
);

const errorBody = z.lazy(() =>
  z.object({
    status: z.number().optional(),
    code: z.number().optional(),
    /** Set by the BlueKing API Gateway on its own refusals. */
    code_name: z.string().optional(),
    message: z.string().nullish(),
    /** bk-ci's nginx error page: `{status, data: "", result, message}` (error.json.handler.conf). */
    result: z.boolean().optional(),
    data: z.unknown().optional(),
  }),
);

/** What to check for each of the BlueKing API Gateway's own refusals (bk-apigateway's errorx.lua). */
const GATEWAY_HINTS: Record<number, string> = {
  1640101: 'the gateway could not verify the app: check app-code and app-secret',
  1640102:
    'the gateway could not verify the user: check bk-token (a login ticket) or access-token (a gateway token), which may have expired',
  1640301:
    "the app has not been granted this resource on the gateway: ask the gateway's operators to grant it (every apigw-app resource needs a grant)",
  1640001: "the gateway refused the request's arguments",
  1640401: 'the gateway publishes no such resource: check that base-url is the stage root (…/api/devops/prod) and the path',
  1642901: "the gateway's rate limit: retried after Retry-After",
  1642902: "the gateway's rate limit: retried after Retry-After",
  1642904: "the gateway's concurrency limit: retried after Retry-After",
};

/**
 * A refusal by the BlueKing API Gateway itself, said with its code name and what to check. When
 * the step was told it talks to bk-ci's own gateway, the answer itself says otherwise: that is
 * the cause, whatever the code (the gateway refuses bk-ci's paths with API_NOT_FOUND).
 */
function gatewayRefusal(code: number, codeName: string, message: string, gateway: Gateway): string {
  const said = `${codeName} (${code})${message ? `, "${message}"` : ''}`;
  if (gateway === 'bk-ci')
    return `base-url answers as the BlueKing API Gateway (${said}), but gateway is bk-ci (the default), which is bk-ci's own front door: set gateway: bk-apigateway, with base-url the gateway's stage root (e.g. https://bkapi.example.com/api/devops/prod)`;
  const hint = GATEWAY_HINTS[code];
  return `the BlueKing API Gateway refused the call: ${said}${hint === undefined ? '' : `; ${hint}`}`;
}

/**
 * The BlueKing API Gateway's own refusal is never an answer about the project or pipeline asked
 * for (its API_NOT_FOUND is a path it does not publish: a stage root with a path appended, say),
 * so no operation may read it as one: a MisdirectedError, said once in the gateway's words. Its
 * rate limits (429) and its own 5xx stay ordinary answers, which are retried.
 */
const gatewaysOwn = (httpStatus: number, gateway: Gateway): boolean =>
  gateway === 'bk-ci' || (httpStatus >= 400 && httpStatus < 500 && httpStatus !== 429);

/**
 * bk-ci's own gateway answering a step that was told it talks to the BlueKing API Gateway: its
 * nginx knows no `/v4/apigw-…` path, and says so in bk-ci's wrapper (`status`, no `code_name`).
 */
const wrongDoorForGateway = (message: string): string =>
  `base-url answers as bk-ci's own gateway${message ? ` ("${message}")` : ''}, not as the BlueKing API Gateway that gateway: bk-apigateway expects: if base-url is bk-ci's address, leave gateway out (bk-ci, the default); if it is the gateway's, give its stage root (e.g. https://bkapi.example.com/api/devops/prod)`;

/** bk-ci's nginx knows no such path: base-url holds a path it should not, or is another server's address. */
const noSuchPath = (message: string): string =>
  `bk-ci's gateway has no such path${message ? ` ("${message}")` : ''}, so base-url is not bk-ci's address: give the address the console is served from, up to the host (e.g. https://devops.example.com)`;

/**
 * What a bk-ci error body says: its JSON wrapper's message and code, plain text (its token
 * filter), or an HTML page collapsed to text. Secrets go before the text is cut.
 */
export function readError(res: WireResponse, scrub: (text: string) => string, gateway: Gateway = 'bk-ci'): ErrorBody {
  const text = stripBom(res.body).trim();
  // The gateway's refusals say who they are in headers too, whatever the body.
  const headerCode = Number(res.headers['x-bkapi-error-code'] ?? Number.NaN);
  if (text.startsWith('{')) {
    try {
      const parsed = errorBody.safeParse(JSON.parse(text));
      if (parsed.success && parsed.data.code_name !== undefined && parsed.data.code !== undefined)
        return {
          message: cut(scrub(gatewayRefusal(parsed.data.code, parsed.data.code_name, parsed.data.message ?? '', gateway)), 600),
          serverStatus: parsed.data.code,
          misdirected: gatewaysOwn(res.status, gateway),
        };
      // Only bk-ci's nginx writes this page; bk-ci's services behind the gateway answer a missing
      // resource without `result` (a Jersey 404), which is an answer about the resource.
      const nginxPage = parsed.success && parsed.data.status !== undefined && parsed.data.result !== undefined && parsed.data.data === '';
      if (nginxPage && gateway === 'bk-apigateway' && res.status === 404)
        return { message: cut(scrub(wrongDoorForGateway(parsed.data.message ?? '')), 600), serverStatus: 404, misdirected: true };
      if (nginxPage && res.status === 404)
        return { message: cut(scrub(noSuchPath(parsed.data.message ?? '')), 600), serverStatus: 404, misdirected: true };
      if (parsed.success) {
        const serverStatus = parsed.data.code ?? parsed.data.status;
        return { message: cut(scrub(unfilled(parsed.data.message ?? '')), 500), ...(serverStatus === undefined ? {} : { serverStatus }) };
      }
    } catch {
      // not JSON after all: shown as text
    }
  }
  if (Number.isInteger(headerCode))
    return {
      message: cut(
        scrub(gatewayRefusal(headerCode, 'gateway error', res.headers['x-bkapi-error-message'] ?? collapse(text), gateway)),
        600,
      ),
      serverStatus: headerCode,
      misdirected: gatewaysOwn(res.status, gateway),
    };
  return { message: cut(scrub(collapse(text)), 300) };
}

/**
 * bk-ci's message made readable: an unfilled placeholder (`参数校验失败:{0} Invalid buildId…`)
 * never shown as `{0}`, and a missing user said as the input to set (behind the BlueKing API
 * Gateway with only a ticket, the action does not know the user; stock bk-ci needs it).
 */
const unfilled = (message: string): string => {
  const m = message.replace(/\{\d+\}\s*/g, '').trim();
  if (/request param userId cannot be empty/i.test(m)) return `${m}; set user-id, which is sent as X-DEVOPS-UID`;
  const words = IN_WORDS.find(([said]) => said.test(m))?.[1];
  return words === undefined ? m : `${m} (${words})`;
};

/**
 * bk-ci's untranslated parameter checks (ApiAspect's ParamBlankException), told in words next to
 * its own text: the first that matches.
 */
const IN_WORDS: readonly [RegExp, string][] = [
  [
    /^参数校验失败[:：]\s*PipelineId is invalid/i,
    "bk-ci's parameter check failed: the build is not one of pipeline-id's builds; check pipeline-id, or leave it out",
  ],
  [/^参数校验失败[:：]\s*request param (\w+) cannot be empty/i, "bk-ci's parameter check failed: a parameter it needs is empty"],
  [/^参数校验失败/, "bk-ci's parameter check failed"],
];

const SECRET_PARAMS = new Set(['access_token', 'secrettoken']);

/** The URL with the values of `access_token` and `secretToken` replaced; nothing else changes. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash === -1 ? undefined : hash);
  const redacted = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // a malformed name is kept as it is
      }
      return SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=***` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${redacted}`;
}

/** The body as JSON; a byte order mark before it is allowed, as curl and browsers allow it. */
export function parseJson(res: WireResponse, method: string, url: string, scrub: (text: string) => string, exact = false): unknown {
  const text = stripBom(res.body);
  const deep = tooDeep(text);
  if (deep !== undefined) throw new ResponseFormatError({ method, url, status: res.status, detail: `JSON ${deep}` });
  let value: unknown;
  try {
    value = exact ? parseExact(text) : (JSON.parse(text) as unknown);
  } catch (e) {
    throw notJson(e, text, res, method, url, scrub);
  }
  refuseDuplicateKeys(text, res, method, url, scrub);
  return value;
}

/** An answer two JSON readers would read differently (a key given twice) is refused, not resolved. */
function refuseDuplicateKeys(text: string, res: WireResponse, method: string, url: string, scrub: (text: string) => string): void {
  const key = duplicateKey(text);
  if (key !== undefined)
    throw new ResponseFormatError({
      method,
      url,
      status: res.status,
      detail: `it gives the key ${JSON.stringify(cut(scrub(key), 80))} twice in one object; JSON readers differ on which one counts, so the answer is not used`,
    });
}

function notJson(e: unknown, text: string, res: WireResponse, method: string, url: string, scrub: (text: string) => string): Error {
  const detail =
    text.trim() === ''
      ? 'an empty body'
      : `not valid JSON (${cut(scrub(e instanceof Error ? e.message : String(e)), 200)}); it begins ${JSON.stringify(cut(scrub(text), 80))}`;
  return new ResponseFormatError({ method, url, status: res.status, detail, cause: e });
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
  const data = resultData(value, res, method, url, scrub);
  if (data === undefined || data === null) return undefined;
  return checked(data, schema, res, method, url);
}

/** The `data` of a wrapper whose status says success; a failure status is thrown. */
function resultData(value: unknown, res: WireResponse, method: string, url: string, scrub: (text: string) => string): unknown {
  const env = envelope.safeParse(value);
  if (!env.success || typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ResponseFormatError({ method, url, status: res.status, detail: 'not a bk-ci result object' });
  }
  const serverStatus = env.data.code ?? env.data.status;
  if (serverStatus === undefined || serverStatus === null) {
    throw new ResponseFormatError({ method, url, status: res.status, detail: 'the result has neither "status" nor "code"' });
  }
  if (serverStatus !== 0) {
    throw new WrapperStatusError({
      method,
      url,
      status: res.status,
      serverStatus,
      serverMessage: cut(scrub(unfilled(env.data.message ?? '')), 500),
    });
  }
  return env.data.data;
}

/** A list answer as read: how many items, and the first few, checked. Every item went to the list's sink. */
export interface ListRead<T> {
  count: number;
  first: T[];
}

/**
 * A wrapped list answer read as it arrives: each item of `data` checked on its own, its JSON text
 * handed to `into`, and none kept but the first `keep`, so a list of 20,000 projects is never
 * 20,000 objects, nor its whole text, at once. Says what `unwrap` with an array of `item` says,
 * in the same words, except that a position in a JSON.parse message counts from what is left.
 */
export class ListReader<T> {
  readonly #item: z.ZodType<T>;
  readonly #keep: number;
  readonly #into: JsonItemSink;
  #split: MemberItems | undefined;
  #first: T[] = [];
  #count = 0;
  #issues: z.core.$ZodIssue[] = [];
  #notJson: unknown;
  /** The first item that gives a key twice. */
  #duplicate: string | undefined;

  constructor(item: z.ZodType<T>, keep: number, into: JsonItemSink) {
    this.#item = item;
    this.#keep = keep;
    this.#into = into;
  }

  /** A fresh start for each attempt: what a broken one gave is forgotten. */
  readonly sink = (): BodySink => this.#start();

  #start(): MemberItems {
    this.#first = [];
    this.#count = 0;
    this.#issues = [];
    this.#notJson = undefined;
    this.#duplicate = undefined;
    this.#into.restart();
    this.#split = new MemberItems('data', (text) => this.#take(text));
    return this.#split;
  }

  #take(text: string): void {
    if (this.#notJson !== undefined || this.#issues.length >= ISSUES_SHOWN) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      this.#notJson = e;
      return;
    }
    if (this.#duplicate === undefined && duplicateKey(text) !== undefined) this.#duplicate = text;
    const one = this.#item.safeParse(value);
    if (one.success) {
      if (this.#first.length < this.#keep) this.#first.push(one.data);
      this.#into.add(JSON.stringify(one.data) ?? 'null');
    } else for (const issue of one.error.issues) this.#issues.push({ ...issue, path: [this.#count, ...issue.path] });
    this.#count++;
  }

  /** The list, once the answer has been read to its end; undefined when the server sent no data. */
  read(res: WireResponse, method: string, url: string, scrub: (text: string) => string): ListRead<T> | undefined {
    // A success without a body (204) never opened the sink: it reads as an empty body.
    const split = this.#split ?? this.#start();
    const { rest, head } = split.end();
    let value: unknown;
    try {
      value = JSON.parse(stripBom(rest));
    } catch (e) {
      throw notJson(e, head, res, method, url, scrub);
    }
    const data = resultData(value, res, method, url, scrub);
    if (split.arrays > 1)
      throw new ResponseFormatError({ method, url, status: res.status, detail: 'the result holds "data" more than once' });
    refuseDuplicateKeys(rest, res, method, url, scrub);
    if (this.#duplicate !== undefined) refuseDuplicateKeys(this.#duplicate, res, method, url, scrub);
    if (split.arrays === 0) {
      if (data === undefined || data === null) return undefined;
      checked(data, z.array(this.#item), res, method, url);
      throw new Error('a list that is not an array passed the check of an array');
    }
    if (this.#notJson !== undefined) throw notJson(this.#notJson, head, res, method, url, scrub);
    if (this.#issues.length > 0) throw shapeError(new z.ZodError(this.#issues), res, method, url);
    return { count: this.#count, first: this.#first };
  }
}

const ISSUES_SHOWN = 3;

export function checked<T>(value: unknown, schema: z.ZodType<T>, res: WireResponse, method: string, url: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw shapeError(parsed.error, res, method, url);
}

function shapeError(error: z.ZodError, res: WireResponse, method: string, url: string): Error {
  const issues = error.issues.slice(0, ISSUES_SHOWN).map((i) => `${i.path.join('.') || 'data'}: ${i.message}`);
  return new ResponseFormatError({
    method,
    url,
    status: res.status,
    detail: `data does not have the expected shape (${issues.join('; ')})`,
    cause: error,
  });
}
