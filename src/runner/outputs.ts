// The one way an output's value is made: the step's own credentials taken out (inside JSON's
// strings when it is JSON, so it stays JSON), then bounded. Masking is the log's business: a
// value a build handed over is output as it is, masked or not.
import { cut } from '../base/text.ts';
import { checkedUrl } from '../base/url.ts';
import type { Secrets } from './secrets.ts';

/** Bytes of one output at most (`data` has data-file behind it and its own bound, 1 MiB). */
export const OUTPUT_LIMIT = 64 * 1024;

/** Outputs that are secrets by design, output as they are: get-token's token was asked for. */
const SECRET_OUTPUTS = new Set(['access-token']);

/** The output's value as the step sets it; `warn` hears of a value that had to be shortened. */
export function outputValue(name: string, value: string, secrets: Secrets, warn: (m: string) => void): string {
  const clean = SECRET_OUTPUTS.has(name) ? value : secrets.redactOwnOutput(value);
  // A URL output (build-url, download-url) carries a URL that passes the one check, or nothing.
  if (name.endsWith('-url') && clean !== '') return checkedUrl(clean, `the ${name} output`, warn) ?? '';
  return bounded(name, clean, OUTPUT_LIMIT, warn);
}

/**
 * At most `limit` bytes. A JSON array or object keeps its first whole entries that fit (still
 * JSON, never an entry cut in the middle); other text is cut, saying how much more there was.
 */
export function bounded(name: string, text: string, limit: number, warn: (m: string) => void): string {
  if (Buffer.byteLength(text) <= limit) return text;
  const entries = jsonEntries(text);
  if (entries === undefined) {
    warn(`the ${name} output is longer than ${limit / 1024} KiB, so it is cut`);
    // Characters, then bytes: the note that says how much is cut fits in what is left.
    let out = cut(text, limit - 100);
    while (Buffer.byteLength(out) > limit) out = cut(text, Math.floor(out.length * 0.9) - 100);
    return out;
  }
  const [open, close] = Array.isArray(entries) ? ['[', ']'] : ['{', '}'];
  const parts: string[] = [];
  let bytes = 2;
  const all = Array.isArray(entries)
    ? entries.map((e) => JSON.stringify(e))
    : Object.entries(entries).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  for (const one of all) {
    bytes += Buffer.byteLength(one) + 1;
    if (bytes > limit) break;
    parts.push(one);
  }
  warn(`the ${name} output holds the first ${parts.length} of ${all.length} entries (${limit / 1024} KiB at most)`);
  return `${open}${parts.join(',')}${close}`;
}

/** The array or object the text is, or undefined for any other text. */
function jsonEntries(text: string): unknown[] | Record<string, unknown> | undefined {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    if (Array.isArray(v)) return v;
    return typeof v === 'object' && v !== null ? Object.fromEntries(Object.entries(v)) : undefined;
  } catch {
    return undefined;
  }
}
