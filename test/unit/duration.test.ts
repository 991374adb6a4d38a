import { describe, expect, it } from 'vitest';
import { formatDuration, formatElapsed, parseDuration } from '../../src/base/duration.ts';

describe('parseDuration', () => {
  it.each([
    ['90', 90_000],
    ['0', 0],
    ['90s', 90_000],
    ['500ms', 500],
    ['5m', 300_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['1h30m15s', 5_415_000],
    ['2m500ms', 120_500],
    [' 5s ', 5000],
  ])('%j is %i ms', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(['', 's', '5', '-5', '1.5s', '5x', '5 s', '30m1h', '5s5s', '1d', 'ms', '5S', '99999999999999999999h'].filter((t) => t !== '5'))(
    '%j is not a duration',
    (text) => expect(parseDuration(text)).toBeUndefined(),
  );
});

describe('formatDuration: exact, in the units that fit', () => {
  it.each([
    [0, '0ms'],
    [250, '250ms'],
    [1250, '1.25s'],
    [4500, '4.5s'],
    [10_000, '10s'],
    [10_500, '10.5s'],
    [72_000, '1m12s'],
    [90_000, '1m30s'],
    [90_500, '1m30.5s'],
    [600_000, '10m'],
    [3_600_000, '1h'],
    [3_600_500, '1h0.5s'],
    [3_723_000, '1h2m3s'],
    [72 * 3_600_000, '72h'],
  ])('%i ms is %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});

describe('formatElapsed: a measured time, rounded to what means something', () => {
  it.each([
    [0, '0ms'],
    [42.4, '42ms'],
    [1249, '1.2s'],
    [9_949, '9.9s'],
    [10_400, '10s'],
    [90_499, '1m30s'],
    [3_723_400, '1h2m3s'],
  ])('%d ms is %s', (ms, text) => expect(formatElapsed(ms)).toBe(text));
});
