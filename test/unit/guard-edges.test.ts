// The edges of two guards, each row one boundary: the one URL check (src/base/url.ts) and which
// build variables are masked (src/pipeline/variable-masks.ts).
import { describe, expect, it } from 'vitest';
import { checkedUrl, urlProblem } from '../../src/base/url.ts';
import { credentialShaped, maskPlan, unmaskable } from '../../src/pipeline/variable-masks.ts';

const at = (c: number): string => `https://x.example.com/a${String.fromCodePoint(c)}b`;

describe('the one URL check, character by character', () => {
  it.each([
    [0x01, false],
    [0x1f, false],
    [0x21, true],
    [0x7e, true],
    [0x7f, false],
    [0x80, false],
    [0x9f, false],
    [0xa1, true],
    [0x200d, true],
    [0x200e, false],
    [0x200f, false],
    [0x2010, true],
    [0x2029, false],
    [0x2029 + 1, false], // U+202A, a bidi embedding
    [0x202b, false],
    [0x202e, false],
    [0x2030, true],
    [0x2065, true],
    [0x2066, false],
    [0x2067, false],
    [0x2069, false],
    [0x206a, true],
  ])('U+%s in a URL: carried %s', (code, ok) => {
    expect(urlProblem(at(code)) === undefined).toBe(ok);
  });

  it.each([
    ['https://x.example.com/', undefined],
    ['xhttps://x.example.com/', 'it is not an absolute http(s) URL'],
    ['see https://x.example.com/', 'it holds white space or control characters'],
    ['https:///x', 'it is not an absolute http(s) URL'],
    ['https://[::1', 'it is not a URL'],
  ])('%j: %s', (url, problem) => {
    expect(urlProblem(url)).toBe(problem);
  });

  it('a refused URL is shown quoted, cut past 200 characters', () => {
    const said: string[] = [];
    const long = `javascript:${'a'.repeat(189)}`;
    expect(long).toHaveLength(200);
    expect(checkedUrl(long, 'the link', (m) => said.push(m))).toBeUndefined();
    expect(checkedUrl(`${long}b`, 'the link', (m) => said.push(m))).toBeUndefined();
    expect(said[0]).toContain(`"${long}")`);
    expect(said[1]).toContain(`"${long}…")`);
  });
});

describe('which build variable values may be masked', () => {
  it.each([
    ['abc', 'shorter than 4 characters'],
    ['true', 'a common word'],
    ['istrue', undefined],
    ['TRUE', 'a common word'],
    ['1.10', 'a short number'],
    ['v1.2.3', undefined],
    ['2.3.4-rc', undefined],
    ['1234567', 'a short number'],
    ['12345678', undefined],
    ['12ab34', undefined],
  ])('%j: %s', (value, why) => {
    expect(unmaskable(value)).toBe(why);
  });

  const random = 'Zq8vT3kLp9XwR2mN7bYc4HfJ6sGd1QaE'; // 32 characters, upper, lower, digits
  it.each([
    [random, true],
    [` ${random}\n`, true],
    // 16 characters twice each: exactly 4 bits a character, which is not over 4.
    ['AaBbCcDd12345678AaBbCcDd12345678', false],
    [`x.${random}`, false],
    [`${random}!`, false],
    [random.toLowerCase(), false],
    [random.toUpperCase(), false],
    [random.replace(/\d/g, 'k'), false],
    [random.slice(1), false],
    [`eyJhbGciOiJI.eyJzdWIiOiIx.${random}`, true],
    [`x eyJhbGciOiJI.eyJzdWIiOiIx.sig`, false],
    [`eyJhbGciOiJI.eyJzdWIiOiIx.sig x`, false],
    [`ghp_${'a1'.repeat(15)}`, true],
    [`ghp_${'a1'.repeat(15)} and more`, false],
    [`see ghp_${'a1'.repeat(15)}`, false],
    [`github_pat_${'a'.repeat(30)}`, true],
    [`github_pat_${'a'.repeat(29)}`, false],
    [`github_pat_${'-'.repeat(30)}`, false],
    [`glpat-${'a'.repeat(20)}`, true],
    [`glpat-${'a'.repeat(19)}`, false],
    [`glpat-${'.'.repeat(20)}`, false],
    [`npm_${'a'.repeat(30)}`, true],
    [`npm_${'a'.repeat(29)}`, false],
    [`npm_${'.'.repeat(30)}`, false],
  ])('%j is credential-shaped: %s', (value, yes) => {
    expect(credentialShaped(value)).toBe(yes);
  });

  it('a value asked to be masked that cannot be is named once; one that can is masked; an unasked plain one neither', () => {
    const plan = maskPlan({ A: 'false', B: 'long-enough-value', C: 'plain', D: '' }, { passwords: new Set(['A', 'B', 'D']), listed: [] });
    expect(plan).toEqual({ masked: ['B'], refused: [['A', 'a common word']] });
  });
});
