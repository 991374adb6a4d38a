// Input fields as zod schemas: the rules every operation shares for a kind of value, each with a
// message that names the input and says what is valid.

import { formatDuration, parseDuration } from '../base/duration.ts';
import { bigintsToExact, duplicateKey, parseExact, tooDeep } from '../base/json.ts';
import { z } from '../base/schema.ts';
import { isControl } from '../base/text.ts';
import { isHttpUrl } from '../base/url.ts';

export const bool = (name: string) =>
  z.string().transform((v, ctx) => {
    if (/^(true|True|TRUE)$/.test(v)) return true;
    if (/^(false|False|FALSE)$/.test(v)) return false;
    ctx.addIssue({ code: 'custom', message: `${name} must be true or false, not "${v}"` });
    return z.NEVER;
  });

export const duration = (name: string, minMs: number, maxMs: number) =>
  z.string().transform((v, ctx) => {
    const ms = parseDuration(v);
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: `${name} "${v}" is not a duration; use 90 (seconds), 90s, 500ms, 5m, 1h or 1h30m` });
      return z.NEVER;
    }
    if (ms < minMs || ms > maxMs) {
      ctx.addIssue({ code: 'custom', message: `${name} must be between ${formatDuration(minMs)} and ${formatDuration(maxMs)}, not ${v}` });
      return z.NEVER;
    }
    return ms;
  });

/** One path segment: no empty value, no dot segment, no control characters. */
export const segment = (name: string) =>
  z
    .string()
    .refine(
      (v) => v !== '.' && v !== '..' && ![...v].some((c) => isControl(c.charCodeAt(0))),
      `${name} cannot be "." or ".." or hold control characters`,
    );

/**
 * A value that goes into a request header (or the bk_token cookie, or verbatim into the query)
 * as it is: no control characters (a line break would end the header) and nothing beyond
 * Latin-1, which is all a header can carry. Refused before any request, with the input named;
 * a secret's characters are not shown.
 */
export const headerValue = (name: string, o: { secret?: boolean; cookie?: boolean } = {}) =>
  z.string().superRefine((v, ctx) => {
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i);
      const shown = o.secret ? 'a character' : JSON.stringify(v[i]);
      let why: string | undefined;
      if (isControl(c)) why = `a control character (such as a line break) at position ${i + 1}`;
      else if (c > 0xff) why = `${shown} at position ${i + 1}, which is not Latin-1`;
      else if (o.cookie && c === 0x3b) why = `";" at position ${i + 1}, which would end the cookie`;
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

/**
 * An absolute http(s) URL, exactly as written: the URL parser drops tabs and line breaks, so a
 * URL holding any (or a space) is not the one checked. For inputs and for a server's URLs alike.
 */
export { isHttpUrl };

const hasCredentials = (text: string): boolean => {
  try {
    const u = new URL(text);
    return u.username !== '' || u.password !== '';
  } catch {
    return false;
  }
};

/** An absolute http(s) URL that bk-ci will store and show: no user name or password in it. */
export const publicHttpUrl = (name: string) =>
  z.string().superRefine((v, ctx) => {
    if (!isHttpUrl(v)) ctx.addIssue({ code: 'custom', message: `${name} "${withoutCredentials(v)}" must be an absolute http(s) URL` });
    else if (hasCredentials(v))
      ctx.addIssue({
        code: 'custom',
        message: `${name} must not hold a user name or password: bk-ci stores the URL and shows it to every project member (here without them: ${withoutCredentials(v)}). Use secret-token to authenticate the calls`,
      });
  });

export function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const here = row[j] ?? 0;
      row[j] = Math.min(here + 1, (row[j - 1] ?? 0) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = here;
    }
  }
  return row[b.length] ?? 0;
}

/** A name as people mistype it: case, and `-`, `_` or a space between words, do not count. */
export const looseName = (name: string): string => name.toUpperCase().replace(/[\s_-]/g, '');

/**
 * The closest known name, if it is close enough to be what was meant: `build-end` → `BUILD_END`,
 * `descripton` → `description`. For every "did you mean" the action says.
 */
export function suggest(value: string, known: readonly string[]): string | undefined {
  const loose = looseName(value);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const name = looseName(k);
    const d = distance(loose, name);
    // Up to a third of the longer name may differ: `logoAddr` is `logoAddress`, cut short.
    if (d < bestDistance && d <= Math.max(2, Math.floor(Math.max(loose.length, name.length) / 3))) [best, bestDistance] = [k, d];
  }
  return best;
}

/** Names separated by commas and/or new lines, trimmed, empty ones and repeats dropped. */
export function splitList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,\n]/)
        .map((e) => e.trim())
        .filter((e) => e !== ''),
    ),
  ];
}

/** One of a few words, with a suggestion for a near miss. */
export const oneOf = <const T extends readonly string[]>(name: string, values: T) =>
  z.string().transform((v, ctx): T[number] => {
    const found = values.find((r) => r === v);
    if (found !== undefined) return found;
    const hint = suggest(v, values);
    ctx.addIssue({ code: 'custom', message: `${name} "${v}" is not one of ${values.join(', ')}${hint ? ` (did you mean ${hint}?)` : ''}` });
    return z.NEVER;
  });

/**
 * The value of JSON text read by `parse`, or undefined when the text is not JSON (a YAML flow
 * mapping also starts with '{'). Every input read as JSON passes here: a key given twice is
 * refused, since JSON.parse keeps the last and bk-ci's reader may keep the first, so what was
 * meant is not clear.
 */
function readJson(t: string, parse: (text: string) => unknown): { value: unknown } | undefined {
  if (!t.startsWith('{') && !t.startsWith('[')) return undefined;
  const deep = tooDeep(t);
  if (deep !== undefined) throw new Error(deep);
  let value: unknown;
  try {
    value = parse(t);
  } catch {
    return undefined;
  }
  const twice = duplicateKey(t);
  if (twice !== undefined) throw new Error(`it gives the key ${JSON.stringify(twice)} twice in one object`);
  return { value };
}

/** JSON or YAML text. YAML's parser loads only when needed; whole numbers beyond 2^53 stay exact. */
export async function parseJsonOrYaml(text: string): Promise<unknown> {
  const t = text.trim();
  const json = readJson(t, parseExact);
  if (json !== undefined) return json.value;
  const { parseDocument } = await import('yaml');
  // Silent: the library would report on stderr, quoting the input. What it would warn about (an
  // unknown tag, which it drops with its value) means the text is not read as it was written.
  const doc = parseDocument(t, { schema: 'core', intAsBigInt: true, logLevel: 'silent' });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem !== undefined) throw new Error(problem.message);
  return bigintsToExact(doc.toJS());
}

/** The JSON object or YAML mapping `read` gives, or z.NEVER with the issue that says why the input is not one. */
async function recordOf(name: string, ctx: z.RefinementCtx, read: () => Promise<unknown>): Promise<Record<string, unknown>> {
  let v: unknown;
  try {
    v = await read();
  } catch (e) {
    ctx.addIssue({
      code: 'custom',
      message: `${name} is neither a JSON object nor a YAML mapping: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
    });
    return z.NEVER;
  }
  if (!isRecord(v)) {
    ctx.addIssue({ code: 'custom', message: `${name} must be a JSON object or a YAML mapping${slipExample(v)}` });
    return z.NEVER;
  }
  return v;
}

/**
 * `APP_VERSION:1.10` and `APP_VERSION=1.10` are one word to YAML, not a mapping: the example the
 * writer meant, `NAME: value` with a space after the colon.
 */
function slipExample(v: unknown): string {
  const m = typeof v === 'string' ? /^([A-Za-z_][\w.-]*)\s*[:=]\s*(\S+)/.exec(v) : null;
  const [key, value] = m === null ? ['APP_VERSION', '1.10'] : [m[1], m[2]];
  return `, one NAME: value per line with a space after the colon${m === null ? '' : ` ("${m[0]}" reads as a single word)`}, e.g.\n  ${key}: ${value}`;
}

/** A JSON object or YAML mapping, as a plain record. */
export const mapping = (name: string) => z.string().transform((text, ctx) => recordOf(name, ctx, () => parseJsonOrYaml(text)));

/**
 * JSON or YAML text whose every scalar stays text, exactly as written: YAML's failsafe schema (a
 * plain `1.10`, `007`, `7e12345`, `0x1F`, `.inf`, `yes` or `null` is that text; a quoted one loses
 * only its quotes; an empty value is ""), JSON's numbers as their digits and its booleans as
 * words, its null as null. A YAML tag cannot apply to text, so one is refused, not resolved.
 */
export async function parseAsWritten(text: string): Promise<unknown> {
  const t = text.trim();
  const json = readJson(t, (source) =>
    JSON.parse(source, (_key, value: unknown, context?: { source?: string }) =>
      typeof value === 'number' ? (context?.source ?? String(value)) : typeof value === 'boolean' ? String(value) : value,
    ),
  );
  if (json !== undefined) return json.value;
  const { parseAllDocuments, visit, isScalar } = await import('yaml');
  // Silent: the library's warnings would go to stderr, where the runner reads commands; each is refused here instead.
  const docs = parseAllDocuments(t, { schema: 'failsafe', logLevel: 'silent' });
  const [doc, ...more] = Array.isArray(docs) ? docs : [];
  if (doc === undefined) return null;
  if (more.length > 0) throw new Error('holds more than one YAML document ("---" starts another): give one mapping');
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem !== undefined) {
    const line = problem.linePos?.[0]?.line;
    throw new Error(
      `${/Unresolved tag/.test(problem.message) ? 'a YAML tag (such as !!int) cannot apply to a value sent as text: remove it' : (problem.message.split('\n')[0] ?? '')}${line === undefined ? '' : ` (line ${line})`}`,
    );
  }
  let cut: string | undefined;
  visit(doc, {
    Pair(_, pair) {
      cut ??= isScalar(pair.value) ? commentCut(String(pair.key), pair.value, t) : undefined;
    },
    Seq(_, seq) {
      for (const item of seq.items) cut ??= isScalar(item) ? commentCut(undefined, item, t) : undefined;
    },
  });
  if (cut !== undefined) throw new Error(cut);
  // An anchor (&x) or alias (*x) would send another value than the text written there: quote it.
  let marked: string | undefined;
  visit(doc, {
    Alias(_, node) {
      marked ??= `*${node.source}`;
    },
    Node(_, node) {
      if (node.anchor !== undefined) marked ??= `&${node.anchor}`;
    },
  });
  if (marked !== undefined)
    throw new Error(`"${marked}" is a YAML anchor or alias, not text: quote the value ("${marked}") to send it as written`);
  return doc.toJS();
}

/**
 * Why a plain value would lose its tail, if one would: YAML reads ` #` as the start of a comment,
 * so `NOTE: fix #123` gives `fix`. A pasted commit message or PR title is not meant to be cut,
 * and a comment after a value cannot be told from text, so the input is refused with how to
 * quote it (a quoted value with a comment after it, or a comment on a line of its own, is clear).
 */
function commentCut(
  name: string | undefined,
  node: {
    type?: string | undefined;
    comment?: string | null | undefined;
    range?: [number, number, number] | null | undefined;
    value: unknown;
  },
  source: string,
): string | undefined {
  if (node.type !== 'PLAIN' || !node.comment || node.range == null) return undefined;
  const written = (source.slice(node.range[0]).split(/\r?\n/)[0] ?? '').trim();
  const example = `${name === undefined ? '- ' : `${name}: `}${JSON.stringify(written)}`;
  return `${name === undefined ? 'an item' : name} is written ${JSON.stringify(written)}, but YAML reads " #" as the start of a comment, so only ${JSON.stringify(String(node.value))} would be sent: quote the value to send it whole (${example})`;
}

/**
 * A mapping of names to text, as written (see parseAsWritten): what bk-ci takes as strings. Each
 * name maps to its values: one, or with `lists` the items of a list (a JSON null: none). Anything
 * else (a nested mapping, a list where none is taken) is refused, naming the key and `what` it must be.
 */
export const textMapping = (name: string, o: { lists: boolean; what: string }) =>
  z.string().transform(async (text, ctx): Promise<Record<string, string[]>> => {
    const value = await recordOf(name, ctx, () => parseAsWritten(text));
    if (value === z.NEVER) return z.NEVER;
    const out: [string, string[]][] = [];
    for (const [key, v] of Object.entries(value)) {
      const items: unknown[] = o.lists && Array.isArray(v) ? v : [v];
      const texts = items.flatMap((item) => (typeof item === 'string' ? [item] : item === null ? [o.lists ? undefined : ''] : [item]));
      if (texts.every((t) => typeof t === 'string' || t === undefined))
        out.push([key, texts.filter((t): t is string => typeof t === 'string')]);
      else ctx.addIssue({ code: 'custom', message: `${name}.${key} must be ${o.what}` });
    }
    // fromEntries defines each key, `__proto__` too, instead of assigning it.
    return Object.fromEntries(out);
  });

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !JSON.isRawJSON(v);
