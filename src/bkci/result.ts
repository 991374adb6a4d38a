// bk-ci's result wrappers: an answer's body read as JSON (a key given twice refused), the wrapper's
// status checked (a failure thrown in bk-ci's words), its `data` checked against the call's schema.

import { ResponseFormatError, WrapperStatusError } from '../base/errors.ts';
import { duplicateKey, parseExact, tooDeep } from '../base/json.ts';
import { z } from '../base/schema.ts';
import { cut, stripBom } from '../base/text.ts';
import type { WireResponse } from '../http/transport.ts';
import { readableMessage } from './error-body.ts';

/**
 * Both of bk-ci's wrappers: the common `Result` ({status, message, data}) and the project
 * `Result` ({code, message, data, request_id, result}). Absent and null are the same. Built on
 * first use (z.lazy): this module loads at every start.
 */
const envelope = z.lazy(() =>
  z.object({
    status: z.number().int().nullish(),
    code: z.number().int().nullish(),
    message: z.string().nullish(),
    data: z.unknown().optional(),
  }),
);

/**
 * The body as JSON; a byte order mark before it is allowed, as curl and browsers allow it.
 * `quoted: false` for an answer that carries a credential no scrub knows until it is read (the
 * token endpoint's): a body that cannot be read is then not quoted, nor the parser's words on it.
 */
export function parseJson(
  res: WireResponse,
  method: string,
  url: string,
  scrub: (text: string) => string,
  exact = false,
  quoted = true,
): unknown {
  const text = stripBom(res.body);
  const deep = tooDeep(text);
  if (deep !== undefined) throw new ResponseFormatError({ method, url, status: res.status, detail: `JSON ${deep}` });
  let value: unknown;
  try {
    value = exact ? parseExact(text) : (JSON.parse(text) as unknown);
  } catch (error) {
    if (!quoted)
      throw new ResponseFormatError({
        method,
        url,
        status: res.status,
        detail: 'not valid JSON (not quoted: it may hold the credential it carries)',
      });
    throw notJson(error, text, res, method, url, scrub);
  }
  refuseDuplicateKeys(text, res, method, url, scrub);
  return value;
}

/** An answer two JSON readers would read differently (a key given twice) is refused, not resolved. */
export function refuseDuplicateKeys(text: string, res: WireResponse, method: string, url: string, scrub: (text: string) => string): void {
  const key = duplicateKey(text);
  if (key !== undefined)
    throw new ResponseFormatError({
      method,
      url,
      status: res.status,
      detail: `it gives the key ${JSON.stringify(cut(scrub(key), 80))} twice in one object; JSON readers differ on which one counts, so the answer is not used`,
    });
}

export function notJson(
  error: unknown,
  text: string,
  res: WireResponse,
  method: string,
  url: string,
  scrub: (text: string) => string,
): Error {
  const detail =
    text.trim() === ''
      ? 'an empty body'
      : `not valid JSON (${cut(scrub(error instanceof Error ? error.message : String(error)), 200)}); it begins ${JSON.stringify(cut(scrub(text), 80))}`;
  return new ResponseFormatError({ method, url, status: res.status, detail, cause: error });
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
export function resultData(value: unknown, res: WireResponse, method: string, url: string, scrub: (text: string) => string): unknown {
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
      serverMessage: cut(scrub(readableMessage(env.data.message ?? '')), 500),
    });
  }
  return env.data.data;
}

/** How many of a shape check's issues a message names. */
export const ISSUES_SHOWN = 3;

export function checked<T>(value: unknown, schema: z.ZodType<T>, res: WireResponse, method: string, url: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw shapeError(parsed.error, res, method, url);
}

export function shapeError(error: z.ZodError, res: WireResponse, method: string, url: string): Error {
  const issues = error.issues.slice(0, ISSUES_SHOWN).map((i) => `${i.path.join('.') || 'data'}: ${i.message}`);
  return new ResponseFormatError({
    method,
    url,
    status: res.status,
    detail: `data does not have the expected shape (${issues.join('; ')})`,
    cause: error,
  });
}
