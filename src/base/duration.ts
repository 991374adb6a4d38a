const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * `90` (seconds), `90s`, `500ms`, `5m`, `1h`, `1h30m`. Returns milliseconds, or undefined
 * for anything else (negative numbers, fractions with units, unknown units, empty text).
 */
export function parseDuration(text: string): number | undefined {
  const written = text.trim();
  if (/^\d+$/.test(written)) return Number(written) * 1000;
  if (written === '' || !/^(\d+(ms|s|m|h))+$/.test(written)) return undefined;
  let total = 0;
  let lastRank = -1;
  const ranks = ['h', 'm', 's', 'ms'];
  for (const [, amount, unit] of written.matchAll(/(\d+)(ms|s|m|h)/g)) {
    const rank = ranks.indexOf(unit ?? '');
    // Units must come largest first and once each: `30m1h` is more likely a typo than intent.
    if (rank <= lastRank) return undefined;
    lastRank = rank;
    total += Number(amount) * (UNIT_MS[unit ?? ''] ?? 0);
  }
  return Number.isSafeInteger(total) ? total : undefined;
}

/**
 * Every duration a person reads: exact, in the units that fit. `1h2m3s`, `1m30s`, `1m30.5s`,
 * `4.25s`, `250ms`; `0ms` for nothing. A setting shows as it works (a 90 s timeout is `1m30s`,
 * never "2m"); a measured time is rounded first (`formatElapsed`).
 */
export function formatDuration(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  if (whole < 1000) return `${whole}ms`;
  const hours = Math.floor(whole / 3_600_000);
  const minutes = Math.floor((whole % 3_600_000) / 60_000);
  const secs = (whole % 60_000) / 1000;
  return `${hours ? `${hours}h` : ''}${minutes ? `${minutes}m` : ''}${secs ? `${secs}s` : ''}`;
}

/**
 * A measured time (how long a wait took, how long ago a token expired), to the precision that
 * means something: milliseconds under 1 s, tenths under 10 s, whole seconds from there.
 */
export function formatElapsed(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  if (whole < 1000) return formatDuration(whole);
  return formatDuration(whole < 10_000 ? Math.round(whole / 100) * 100 : Math.round(whole / 1000) * 1000);
}

/** `1 poll`, `3 polls`. */
export const countOf = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Seconds for an output: whole from 10 s on, to the millisecond below, so a short wait is not "0". */
export const seconds = (ms: number): string => String(ms >= 10_000 ? Math.round(ms / 1000) : Math.max(0, Math.round(ms)) / 1000);

/** The largest instant a JavaScript Date holds, in ms (year 275760). */
export const MAX_DATE_MS = 8.64e15;

/** `2026-11-22 09:30:00 UTC`; a value no date can hold is shown as the server wrote it, never thrown at. */
export function utcTime(ms: number, written = String(ms)): string {
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_DATE_MS) return `${written} (not a valid time)`;
  return new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
}

/** Retry-After as milliseconds from `now`: delta-seconds or an HTTP date. Undefined if unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const written = value.trim();
  if (/^\d+$/.test(written)) return Number(written) * 1000;
  // Only an HTTP date: Date.parse also takes "-3" (the year -3).
  if (!/^[A-Za-z]{3}, /.test(written)) return undefined;
  const at = Date.parse(written);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
