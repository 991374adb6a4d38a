import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../src/duration.ts';

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

describe('formatDuration', () => {
  it.each([
    [0, '0ms'],
    [250, '250ms'],
    [4500, '4.5s'],
    [10_000, '10s'],
    [72_000, '1m12s'],
    [3_600_000, '1h'],
    [3_723_000, '1h2m3s'],
  ])('%i ms is %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});
