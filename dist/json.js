const WHOLE = /^-?(0|[1-9]\d*)$/;
/** A whole number in canonical digits, as a number when JavaScript holds it exactly, else as its digits. */
function exactInteger(digits) {
    if (!WHOLE.test(digits))
        return undefined;
    const n = Number(digits);
    return Number.isSafeInteger(n) ? n : JSON.rawJSON(digits);
}
/**
 * JSON.parse, except that a whole number beyond 2^53 keeps its digits (as raw JSON, which
 * JSON.stringify writes back unchanged) instead of becoming the nearest double.
 */
function parseExact(text) {
    return JSON.parse(text, (_key, value, context) => typeof value === 'number' && !Number.isSafeInteger(value) && context?.source !== undefined
        ? (exactInteger(context.source) ?? value)
        : value);
}
/** Every bigint in a parsed YAML tree as an exact integer: JSON has no bigint. */
function bigintsToExact(value) {
    if (typeof value === 'bigint')
        return exactInteger(value.toString());
    if (Array.isArray(value))
        return value.map(bigintsToExact);
    if (typeof value === 'object' && value !== null && !JSON.isRawJSON(value))
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bigintsToExact(v)]));
    return value;
}

export { bigintsToExact, exactInteger, parseExact };
