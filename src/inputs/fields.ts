// Input fields as zod schemas: the rules every operation shares for a kind of value, each with a
// message that names the input and says what is valid. JSON and YAML text is read in
// json-yaml.ts; a near miss is named in suggest.ts.

import { formatDuration, parseDuration } from '../base/duration.ts';
import { z } from '../base/schema.ts';
import { isControl } from '../base/text.ts';
import { isHttpUrl } from '../base/url.ts';
import { parseAsWritten, parseJsonOrYaml } from './json-yaml.ts';
import { suggest } from './suggest.ts';

/** true or false, as YAML 1.2's core schema writes them (and @actions/core's getBooleanInput reads them). */
export const bool = (name: string) =>
  z.string().transform((text, ctx) => {
    if (/^(true|True|TRUE)$/.test(text)) return true;
    if (/^(false|False|FALSE)$/.test(text)) return false;
    ctx.addIssue({ code: 'custom', message: `${name} must be true or false, not "${text}"` });
    return z.NEVER;
  });

/** A duration as people write one (90, 90s, 5m, 1h30m), in milliseconds, within its bounds. */
export const duration = (name: string, minMs: number, maxMs: number) =>
  z.string().transform((text, ctx) => {
    const ms = parseDuration(text);
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: `${name} "${text}" is not a duration; use 90 (seconds), 90s, 500ms, 5m, 1h or 1h30m` });
      return z.NEVER;
    }
    if (ms < minMs || ms > maxMs) {
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be between ${formatDuration(minMs)} and ${formatDuration(maxMs)}, not ${text}`,
      });
      return z.NEVER;
    }
    return ms;
  });

/** One path segment: no empty value, no dot segment, no control characters. */
export const segment = (name: string) =>
  z
    .string()
    .refine(
      (text) => text !== '.' && text !== '..' && ![...text].some((c) => isControl(c.charCodeAt(0))),
      `${name} cannot be "." or ".." or hold control characters`,
    );

/**
 * A value that goes into a request header (or the bk_token cookie, or verbatim into the query)
 * as it is: no control characters (a line break would end the header) and nothing beyond
 * Latin-1, which is all a header can carry. Refused before any request, with the input named;
 * a secret's characters are not shown.
 */
export const headerValue = (name: string, { secret = false, cookie = false }: { secret?: boolean; cookie?: boolean } = {}) =>
  z.string().superRefine((text, ctx) => {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      const shown = secret ? 'a character' : JSON.stringify(text[i]);
      let why: string | undefined;
      if (isControl(code)) why = `a control character (such as a line break) at position ${i + 1}`;
      else if (code > 0xff) why = `${shown} at position ${i + 1}, which is not Latin-1`;
      else if (cookie && code === 0x3b) why = `";" at position ${i + 1}, which would end the cookie`;
      if (why !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} holds ${why}; it cannot be sent in an HTTP header. Check the value (or the secret behind it)`,
        });
        return;
      }
    }
  });

/** A URL for a message, with whatever stands between `//` and `@` replaced. */
export const withoutCredentials = (text: string): string => text.replace(/^([^/?#]*\/\/)[^/?#]*@/, '$1***@');

const hasCredentials = (text: string): boolean => {
  try {
    const url = new URL(text);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
};

/** An absolute http(s) URL that bk-ci will store and show: no user name or password in it. */
export const publicHttpUrl = (name: string) =>
  z.string().superRefine((text, ctx) => {
    if (!isHttpUrl(text))
      ctx.addIssue({ code: 'custom', message: `${name} "${withoutCredentials(text)}" must be an absolute http(s) URL` });
    else if (hasCredentials(text))
      ctx.addIssue({
        code: 'custom',
        message: `${name} must not hold a user name or password: bk-ci stores the URL and shows it to every project member (here without them: ${withoutCredentials(text)}). Use secret-token to authenticate the calls`,
      });
  });

/** Names separated by commas and/or new lines, trimmed, empty ones and repeats dropped. */
export function splitList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,\n]/)
        .map((name) => name.trim())
        .filter((name) => name !== ''),
    ),
  ];
}

/** One of a few words, with a suggestion for a near miss. */
export const oneOf = <const T extends readonly string[]>(name: string, values: T) =>
  z.string().transform((text, ctx): T[number] => {
    const found = values.find((value) => value === text);
    if (found !== undefined) return found;
    const hint = suggest(text, values);
    ctx.addIssue({
      code: 'custom',
      message: `${name} "${text}" is not one of ${values.join(', ')}${hint ? ` (did you mean ${hint}?)` : ''}`,
    });
    return z.NEVER;
  });

/** The JSON object or YAML mapping `read` gives, or z.NEVER with the issue that says why the input is not one. */
async function recordOf(name: string, ctx: z.RefinementCtx, read: () => Promise<unknown>): Promise<Record<string, unknown>> {
  let value: unknown;
  try {
    value = await read();
  } catch (error) {
    ctx.addIssue({
      code: 'custom',
      message: `${name} is neither a JSON object nor a YAML mapping: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    });
    return z.NEVER;
  }
  if (!isRecord(value)) {
    ctx.addIssue({ code: 'custom', message: `${name} must be a JSON object or a YAML mapping${slipExample(value)}` });
    return z.NEVER;
  }
  return value;
}

/**
 * `APP_VERSION:1.10` and `APP_VERSION=1.10` are one word to YAML, not a mapping: the example the
 * writer meant, `NAME: value` with a space after the colon.
 */
function slipExample(read: unknown): string {
  const slip = typeof read === 'string' ? /^([A-Za-z_][\w.-]*)\s*[:=]\s*(\S+)/.exec(read) : null;
  const [key, value] = slip === null ? ['APP_VERSION', '1.10'] : [slip[1], slip[2]];
  return `, one NAME: value per line with a space after the colon${slip === null ? '' : ` ("${slip[0]}" reads as a single word)`}, e.g.\n  ${key}: ${value}`;
}

/** A JSON object or YAML mapping, as a plain record. */
export const mapping = (name: string) => z.string().transform((text, ctx) => recordOf(name, ctx, () => parseJsonOrYaml(text)));

/**
 * A mapping of names to text, as written (see parseAsWritten): what bk-ci takes as strings. Each
 * name maps to its values: one, or with `lists` the items of a list (a JSON null: none). Anything
 * else (a nested mapping, a list where none is taken) is refused, naming the key and `what` it must be.
 */
export const textMapping = (name: string, { lists, what }: { lists: boolean; what: string }) =>
  z.string().transform(async (text, ctx): Promise<Record<string, string[]>> => {
    const record = await recordOf(name, ctx, () => parseAsWritten(text));
    if (record === z.NEVER) return z.NEVER;
    const out: [string, string[]][] = [];
    for (const [key, value] of Object.entries(record)) {
      const items: unknown[] = lists && Array.isArray(value) ? value : [value];
      const texts = items.flatMap((item) => (typeof item === 'string' ? [item] : item === null ? [lists ? undefined : ''] : [item]));
      if (texts.every((t) => typeof t === 'string' || t === undefined))
        out.push([key, texts.filter((t): t is string => typeof t === 'string')]);
      else ctx.addIssue({ code: 'custom', message: `${name}.${key} must be ${what}` });
    }
    // fromEntries defines each key, `__proto__` too, instead of assigning it.
    return Object.fromEntries(out);
  });

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !JSON.isRawJSON(value);
