/** A JSON value written out as its source text (`JSON.rawJSON`, V8 11.4+, so Node 21+). */
export interface RawJson {
  readonly rawJSON: string;
}

declare global {
  interface JSON {
    rawJSON(text: string): RawJson;
    isRawJSON(value: unknown): value is RawJson;
  }
}

const WHOLE = /^-?(0|[1-9]\d*)$/;

/** A whole number in canonical digits, as a number when JavaScript holds it exactly, else as its digits. */
export function exactInteger(digits: string): number | RawJson | undefined {
  if (!WHOLE.test(digits)) return undefined;
  const value = Number(digits);
  return Number.isSafeInteger(value) ? value : JSON.rawJSON(digits);
}

/**
 * JSON.parse, except that a whole number beyond 2^53 keeps its digits (as raw JSON, which
 * JSON.stringify writes back unchanged) instead of becoming the nearest double.
 */
export function parseExact(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && !Number.isSafeInteger(value) && context?.source !== undefined
      ? (exactInteger(context.source) ?? value)
      : value,
  );
}

/** Every bigint in a parsed YAML tree as an exact integer: JSON has no bigint. */
export function bigintsToExact(value: unknown): unknown {
  if (typeof value === 'bigint') return exactInteger(value.toString());
  if (Array.isArray(value)) return value.map(bigintsToExact);
  if (typeof value === 'object' && value !== null && !JSON.isRawJSON(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bigintsToExact(v)]));
  return value;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Nesting the action reads: deeper JSON is refused as too deep (readers and writers recurse). */
const MAX_JSON_DEPTH = 512;

/** How deep the JSON text nests its arrays and objects (strings skipped), counted up to just past the limit. */
function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length && deepest <= MAX_JSON_DEPTH; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      for (i++; i < text.length && text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
    } else if (code === 0x7b || code === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (code === 0x7d || code === 0x5d) depth--;
  }
  return deepest;
}

/** The words for JSON nested deeper than the action reads, or undefined. */
export function tooDeep(text: string): string | undefined {
  return jsonDepth(text) > MAX_JSON_DEPTH
    ? `too deep: its arrays and objects nest more than ${MAX_JSON_DEPTH} levels, the most the action reads`
    : undefined;
}

/**
 * The first key given twice in one object of a JSON text, if any. JSON.parse keeps the last,
 * other readers the first or both: a text they would read differently is refused, not resolved.
 * The text must be JSON already (JSON.parse took it); only its structure is walked here.
 */
export function duplicateKey(text: string): string | undefined {
  // One entry per open object (its keys so far) or array (null).
  const open: (Set<string> | null)[] = [];
  let keyNext = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      let end = text.indexOf('"', i + 1);
      for (; end !== -1; end = text.indexOf('"', end + 1)) {
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
        if (slashes % 2 === 0) break;
      }
      if (end === -1) return undefined;
      const keys = open.at(-1);
      if (keyNext && keys) {
        const raw = text.slice(i, end + 1);
        const key = raw.includes('\\') ? String(JSON.parse(raw)) : raw.slice(1, -1);
        if (keys.has(key)) return key;
        keys.add(key);
        keyNext = false;
      }
      i = end;
    } else if (code === 0x7b) {
      open.push(new Set());
      keyNext = true;
    } else if (code === 0x5b) {
      open.push(null);
      keyNext = false;
    } else if (code === 0x7d || code === 0x5d) {
      open.pop();
      keyNext = false;
    } else if (code === 0x2c) keyNext = open.at(-1) != null;
  }
  return undefined;
}
