// bk-ci's wire dialect: its two result wrappers, its error bodies, the query parameters that
// hold secrets. Used by the client and by the token endpoint.
import { z } from 'zod';
import { ResponseFormatError, WrapperStatusError } from '../errors.ts';
import type { ErrorBody } from '../http/caller.ts';
import type { WireResponse } from '../http/transport.ts';
import { parseExact } from '../json.ts';
import { collapse, cut, stripBom } from '../text.ts';

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

const errorBody = z.object({ status: z.number().optional(), code: z.number().optional(), message: z.string().nullish() });

/**
 * What a bk-ci error body says: its JSON wrapper's message and code, plain text (its token
 * filter), or an HTML page collapsed to text. Secrets go before the text is cut.
 */
export function readError(res: WireResponse, scrub: (text: string) => string): ErrorBody {
  const text = stripBom(res.body).trim();
  if (text.startsWith('{')) {
    try {
      const parsed = errorBody.safeParse(JSON.parse(text));
      if (parsed.success) {
        const serverStatus = parsed.data.code ?? parsed.data.status;
        return { message: cut(scrub(unfilled(parsed.data.message ?? '')), 500), ...(serverStatus === undefined ? {} : { serverStatus }) };
      }
    } catch {
      // not JSON after all: shown as text
    }
  }
  return { message: cut(scrub(collapse(text)), 300) };
}

/** bk-ci sometimes leaves a message placeholder unfilled (`参数校验失败:{0} Invalid buildId…`): never shown as `{0}`. */
const unfilled = (message: string): string => message.replace(/\{\d+\}\s*/g, '');

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
