import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/base/duration.ts';
import { type CallKind, DEFAULT_RETRY_POLICY, type Failure, isRetryable, kindOf, retryDelay } from '../../src/http/retry.ts';

const status = (s: number, retryAfter?: string): Failure => ({ kind: 'status', status: s, retryAfter });
const NOW = Date.parse('2026-11-21T00:00:00Z');

describe('isRetryable', () => {
  it.each<[string, Failure, boolean, boolean]>([
    // failure, GET/PUT, POST
    ['network, before send', { kind: 'network', beforeSend: true }, true, true],
    ['network, after send', { kind: 'network', beforeSend: false }, true, false],
    ['timeout', { kind: 'timeout' }, true, false],
    ['certificate not verified', { kind: 'network', beforeSend: false, permanent: true }, false, false],
    ['500', status(500), true, false],
    ['503', status(503), true, false],
    ['423', status(423), true, true],
    ['429', status(429), true, true],
    ['400', status(400), false, false],
    ['401', status(401), false, false],
    ['404', status(404), false, false],
    ['409', status(409), false, false],
    ['422', status(422), false, false],
  ])('%s: GET/PUT %s, POST %s', (_, failure, idempotent, post) => {
    expect(isRetryable('GET', failure)).toBe(idempotent);
    expect(isRetryable('PUT', failure)).toBe(idempotent);
    expect(isRetryable('POST', failure)).toBe(post);
  });
});

describe('retries by what a call is, not by its verb', () => {
  it.each<[string, CallKind | undefined, CallKind]>([
    ['GET', undefined, 'read'],
    ['POST', undefined, 'write-once'],
    ['PUT', undefined, 'write'],
    ['DELETE', undefined, 'write'],
    // build_variables: its names in a POST body, nothing changed.
    ['POST', 'read', 'read'],
    ['PUT', 'write-once', 'write-once'],
  ])('%s declared %s is a %s', (method, declared, kind) => {
    expect(kindOf(method, declared)).toBe(kind);
  });

  it.each<[string, Failure]>([
    ['502', status(502)],
    ['timeout', { kind: 'timeout' }],
    ['reset after sending', { kind: 'network', beforeSend: false }],
  ])('a read published as POST is retried after a %s; a write-once POST is not', (_, failure) => {
    expect(isRetryable('read', failure)).toBe(true);
    expect(isRetryable('write', failure)).toBe(true);
    expect(isRetryable('write-once', failure)).toBe(false);
    expect(isRetryable('POST', failure)).toBe(false);
  });
});

describe('parseRetryAfter', () => {
  it.each<[string | undefined, number | undefined]>([
    ['7', 7000],
    ['0', 0],
    [' 12 ', 12_000],
    ['Sat, 21 Nov 2026 00:00:30 GMT', 30_000],
    ['Fri, 20 Nov 2026 23:59:00 GMT', 0],
    ['soon', undefined],
    ['-3', undefined],
    [undefined, undefined],
  ])('%j → %j', (value, ms) => expect(parseRetryAfter(value, NOW)).toBe(ms));
});

describe('retryDelay', () => {
  it.each<[string, number, Failure, number, number]>([
    ['1st retry, random 1', 1, status(503), 1, 1000],
    ['2nd retry, random 1', 2, status(503), 1, 2000],
    ['3rd retry, random 0.5', 3, status(503), 0.5, 2000],
    ['6th retry is capped at 30 s', 6, status(503), 1, 30_000],
    ['full jitter may be 0', 2, { kind: 'timeout' }, 0, 0],
    ['Retry-After seconds wins, no jitter', 1, status(429, '7'), 0, 7000],
    ['Retry-After date', 1, status(503, 'Sat, 21 Nov 2026 00:00:20 GMT'), 0, 20_000],
    ['Retry-After never shortened', 1, status(429, '3600'), 0, 3_600_000],
    ['unreadable Retry-After falls back to backoff', 2, status(429, 'later'), 1, 2000],
  ])('%s', (_, retry, failure, random, expected) => {
    expect(retryDelay(retry, failure, NOW, () => random, DEFAULT_RETRY_POLICY)).toBe(expected);
  });
});
