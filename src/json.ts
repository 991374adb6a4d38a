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
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : JSON.rawJSON(digits);
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
