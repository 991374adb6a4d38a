// The one way an output's value is made: the step's own credentials taken out (inside JSON's
// strings when it is JSON, so it stays JSON), then bounded entry by entry. Masking is the log's
// business: a value a build handed over is output as it is, masked or not.
import { cut } from '../base/text.ts';
import { checkedUrl } from '../base/url.ts';
import type { Secrets } from './secrets.ts';

/** Bytes of one output at most (`data` has data-file behind it and its own bound, 1 MiB). */
export const OUTPUT_LIMIT = 64 * 1024;

/** Outputs that are secrets by design, output as they are: get-token's token was asked for. */
const SECRET_OUTPUTS = new Set(['access-token']);

/** Entries a warning names at most; the rest are counted. */
const NAMED = 10;

/**
 * The output's value as the step sets it; `warn` hears, in words scrubbed of every secret, of a
 * value that had to be shortened or left out.
 */
export function outputValue(name: string, value: string, secrets: Secrets, warn: (message: string) => void): string {
  const clean = SECRET_OUTPUTS.has(name) ? value : secrets.redactOwnOutput(value);
  const say = (m: string): void => warn(secrets.redact(m));
  // A URL output (build-url, download-url) carries a URL that passes the one check, or nothing.
  if (name.endsWith('-url') && clean !== '') return checkedUrl(clean, `the ${name} output`, say) ?? '';
  return bounded(name, clean, OUTPUT_LIMIT, say);
}

/**
 * At most `limit` bytes. A JSON array or object keeps every entry but the largest it has to leave
 * out to fit, each left out named in the warning: one large variable costs itself, not the small
 * ones beside it. Entries are kept as written (their text is not parsed and written again, so a
 * number stays its digits), in their order, and whole (never cut in the middle). Other text is
 * cut, saying how much more there was.
 */
export function bounded(name: string, text: string, limit: number, warn: (message: string) => void): string {
  if (Buffer.byteLength(text) <= limit) return text;
  const parsed = jsonEntries(text);
  if (parsed === undefined) {
    warn(`the ${name} output is longer than ${limit / 1024} KiB, so it is cut`);
    // Characters, then bytes: the note that says how much is cut fits in what is left.
    let out = cut(text, limit - 100);
    while (Buffer.byteLength(out) > limit) out = cut(text, Math.floor(out.length * 0.9) - 100);
    return out;
  }
  const { open, close, entries } = parsed;
  // The brackets, each entry, and a comma between two.
  let bytes = entries.reduce((sum, entry) => sum + entry.size + 1, 1);
  // Largest first; of two the same size, the later goes first.
  const out = new Set<Entry>();
  for (const entry of [...entries].reverse().sort((a, b) => b.size - a.size)) {
    if (bytes <= limit) break;
    out.add(entry);
    bytes -= entry.size + 1;
  }
  const kept = entries.filter((e) => !out.has(e));
  const value = `${open}${kept.map((e) => e.text).join(',')}${close}`;
  // Within the bound once written without the white space between entries: nothing is left out.
  if (out.size === 0) return value;
  const left = entries.filter((e) => out.has(e));
  const named = left.slice(0, NAMED).map((e) => `${e.label} (${bytesOf(e.size)})`);
  const more = left.length > NAMED ? `, and ${left.length - NAMED} more` : '';
  warn(
    `the ${name} output leaves out ${left.length} of its ${entries.length} entries, the largest, to stay within ${limit / 1024} KiB: ${named.join(', ')}${more}; ${keptWords(kept.length)}`,
  );
  return value;
}

/** How many entries the output keeps, in words. */
const keptWords = (count: number): string =>
  count === 0 ? 'none is kept' : count === 1 ? 'the other one is kept' : `the other ${count} are kept`;

/** A size in words: bytes under 1 KiB, else KiB with a decimal below 10. */
function bytesOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const kib = bytes / 1024;
  return `${kib < 10 ? Math.round(kib * 10) / 10 : Math.round(kib)} KiB`;
}

interface Entry {
  /** The entry as written: an item, or `"key": value`. */
  text: string;
  /** Its bytes. */
  size: number;
  /** What names it in a warning: the key, or the item (a string, or its path or name). */
  label: string;
}

/** The entries of the JSON array or object the text is, as written; undefined for any other text. */
function jsonEntries(text: string): { open: string; close: string; entries: Entry[] } | undefined {
  const start = /^\s*([[{])/.exec(text);
  if (start === null) return undefined;
  try {
    JSON.parse(text);
  } catch {
    return undefined;
  }
  const isArray = start[1] === '[';
  const pieces = topLevel(text, start[0].length);
  const entries = pieces.map((piece, index) => ({
    text: piece,
    size: Buffer.byteLength(piece),
    label: shortened(isArray ? itemLabel(piece, index) : keyOf(piece)),
  }));
  return { open: isArray ? '[' : '{', close: isArray ? ']' : '}', entries };
}

/** The top-level entries of a JSON array or object (valid JSON), from just past its bracket: split at its own commas. */
function topLevel(text: string, from: number): string[] {
  const pieces: string[] = [];
  let depth = 0;
  let begin = from;
  for (let i = from; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (char === '[' || char === '{') depth++;
    else if ((char === ']' || char === '}') && depth > 0) depth--;
    else if ((char === ',' && depth === 0) || char === ']' || char === '}') {
      const piece = text.slice(begin, i).trim();
      if (piece !== '') pieces.push(piece);
      if (char !== ',') break;
      begin = i + 1;
    }
  }
  return pieces;
}

/** A name of at most 100 characters: its start and its end, which tells paths apart. */
const shortened = (name: string): string => (name.length <= 100 ? name : `${name.slice(0, 40)}…${name.slice(-59)}`);

/** The key of an object's entry (`"key": value`), decoded. */
function keyOf(piece: string): string {
  let end = 1;
  while (piece[end] !== '"') end += piece[end] === '\\' ? 2 : 1;
  return String(JSON.parse(piece.slice(0, end + 1)));
}

/** An item named for a warning: a string is itself, an object its path or name, anything else its place. */
function itemLabel(piece: string, index: number): string {
  const value: unknown = JSON.parse(piece);
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key of ['path', 'name', 'id']) if (typeof record[key] === 'string') return record[key];
  }
  return `item ${index + 1}`;
}
