import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cut } from '../../src/base/text.ts';
import { readError } from '../../src/bkci/error-body.ts';
import { redactUrl } from '../../src/bkci/redact-url.ts';
import { unwrap } from '../../src/bkci/result.ts';
import { Secrets } from '../../src/runner/secrets.ts';

describe('redactUrl', () => {
  it.each([
    ['https://h/p?access_token=abc%2B%3D', 'https://h/p?access_token=***'],
    ['https://h/p?a=1&access_token=abc&b=2', 'https://h/p?a=1&access_token=***&b=2'],
    ['https://h/p?url=x&secretToken=s3cr3t&event=E', 'https://h/p?url=x&secretToken=***&event=E'],
    ['https://h/p?ACCESS_TOKEN=abc', 'https://h/p?ACCESS_TOKEN=***'],
    ['https://h/p?access%5Ftoken=abc', 'https://h/p?access%5Ftoken=***'],
    ['https://h/p?access_token', 'https://h/p?access_token=***'],
    ['https://h/p?token=keep', 'https://h/p?token=keep'],
    ['https://h/p', 'https://h/p'],
    ['https://h/p?access_token=abc#frag', 'https://h/p?access_token=***'],
  ])('%s → %s', (url, expected) => expect(redactUrl(url)).toBe(expected));
});

describe('Secrets', () => {
  it('takes no value shorter than 4 characters (it would mask every such word), and takes one of 4', () => {
    const masked: string[] = [];
    const s = new Secrets((v) => masked.push(v));
    expect(s.redact('Stryker was here')).toBe('Stryker was here');
    s.add('abc');
    s.add(undefined);
    expect(masked).toEqual([]);
    expect(s.redact('abc abcd')).toBe('abc abcd');
    s.add('a%20b');
    // Its decoded form, "a b", is too short to be masked on its own.
    expect(masked).not.toContain('a b');
    s.add('abcd');
    expect(s.redact('abc abcd')).toBe('abc ***');
  });

  it.each([
    ['the shorter given first', ['tok-1234', 'tok-1234-refresh']],
    ['the longer given first', ['tok-1234-refresh', 'tok-1234']],
  ])('a secret that holds another is replaced whole (%s), not left with its tail showing', (_, values) => {
    const s = new Secrets(() => undefined);
    for (const v of values) s.add(v);
    expect(s.redact('a tok-1234-refresh b tok-1234 c')).toBe('a *** b *** c');
  });

  it('masks each form of a secret once and scrubs them all from text', () => {
    const masked: string[] = [];
    const s = new Secrets((v) => masked.push(v));
    s.add('abc%2Bdef%3D');
    const once = masked.length;
    s.add('abc%2Bdef%3D');
    expect(masked).toHaveLength(once);
    expect(new Set(masked).size).toBe(masked.length);
    expect(masked).toEqual(expect.arrayContaining(['abc%2Bdef%3D', 'abc+def=', 'abc%252Bdef%253D']));
    expect(s.redact('a abc%2Bdef%3D b abc+def= c')).toBe('a *** b *** c');
  });

  it.each([
    ['as given', 'p"a\\ss wörd<1>', (v: string) => v],
    ['percent-encoded', 'p"a\\ss wörd<1>', encodeURIComponent],
    ['JSON-escaped', 'p"a\\ss wörd<1>', (v: string) => JSON.stringify(v).slice(1, -1)],
    ['JSON-escaped in a whole JSON document', 'p"a\\ss', (v: string) => JSON.stringify({ echo: v })],
    ['as the URL parser leaves it in a query', 'p"a\\ss wörd<1>', (v: string) => new URL(`http://h/?t=${v}`).search.slice(3)],
    ['form-encoded', 'p"a ss+wörd', (v: string) => new URLSearchParams({ t: v }).toString().slice(2)],
    ['percent-decoded, for a token issued encoded', 'tok%2Ben%3D', decodeURIComponent],
  ])('scrubs a secret %s', (_, secret, form) => {
    const s = new Secrets(() => undefined);
    s.add(secret);
    const text = `before ${form(secret)} after`;
    expect(s.redact(text)).not.toContain(secret);
    expect(s.redact(text)).toMatch(/\*\*\*/);
    for (const part of [form(secret).slice(0, -1), secret]) expect(s.redact(text)).not.toContain(part);
  });

  it.each([
    ['its start, cut by a bound', 'url "https://h/?t=tok-S3cret… (9 more characters)"', 'url "https://h/?t=***… (9 more characters)"'],
    ['its end, after a cut in the middle', 'path a/b…S3cret-9x/c', 'path a/b…***/c'],
    ['its start at a cut, its JSON-escaped form', '"t=tok-S3\\"cr…"', '"t=***…"'],
    ['a start of 4 characters', 'see tok-… here', 'see ***… here'],
    ['not a start of 3 characters', 'see tok… here', 'see tok… here'],
    ['not a start that no cut ends', 'see tok-S3 here…', 'see tok-S3 here…'],
    ['not an end that no cut begins', '…there S3cret-9x', '…there S3cret-9x'],
    ['an end of 4 characters', 'path a…t-9x/c', 'path a…***/c'],
    ['not an end of 3 characters', 'path a…-9x/c', 'path a…-9x/c'],
    ['not a start after the last cut', 'cut… then tok-S3', 'cut… then tok-S3'],
    ['not an end before the first cut', 'cret-9x then…', 'cret-9x then…'],
  ])('takes out what a cut left of a secret: %s', (_, text, expected) => {
    const s = new Secrets(() => undefined);
    s.add('tok-S3cret-9x');
    s.add('tok-S3"cret-9x');
    expect(s.redact(text)).toBe(expected);
    expect(s.redactOwn(text)).toBe(expected);
  });

  it('leaves a cut text as it is when no secret is known', () => {
    expect(new Secrets(() => undefined).redact('a cut… text')).toBe('a cut… text');
  });

  it('ignores empty and very short values, which would mask half the log', () => {
    const masked: string[] = [];
    const s = new Secrets((v) => masked.push(v));
    s.add('');
    s.add(undefined);
    s.add('ab');
    expect(masked).toEqual([]);
  });
});

describe('where a text ends in the first part of a secret (a writer holds it back)', () => {
  const ESC = '\u001b';
  it.each([
    ['no secret known', [], 'abc', 3],
    ['an empty text', ['abcdefgh'], '', 0],
    ['none begun', ['abcdefgh'], 'hello', 5],
    ['a part after other text', ['abcdefgh'], 'x abc', 2],
    ['all but its last character, the whole text', ['abcdefgh'], 'abcdefg', 0],
    ['all but its last character, after one more', ['abcdefgh'], 'xabcdefg', 1],
    ['none: the whole of it ends the text (redact takes it)', ['abcdefgh'], 'x abcdefgh', 10],
    ['none: the text is the whole of it', ['abcdefgh'], 'abcdefgh', 8],
    ['its first character', ['abcdefgh'], 'x a', 2],
    ['the longest end that begins it', ['abcdefgh'], 'abab', 2],
    ['the part that begins any of them', ['abcdefgh', 'wxyz1234'], 'a wxy', 2],
    ['a form of it: percent-encoded', ['tok+en/12'], 'url tok%2Ben', 4],
    ['colours inside the part', ['abcdefgh'], `x ab${ESC}[1mcd`, 2],
    ['colours before the part stay out of it', ['abcdefgh'], `x ${ESC}[0mabc`, 6],
    ['colours after the part', ['abcdefgh'], `abc${ESC}[0m`, 0],
    ['a control sequence begun at the end: CSI', ['abcdefgh'], `x abc${ESC}[1`, 2],
    ['a control sequence begun at the end: ESC alone', ['abcdefgh'], `x abc${ESC}`, 2],
    ['a control sequence begun at the end: OSC', ['abcdefgh'], `x abc${ESC}]8;;https://h/`, 2],
    ['a control sequence begun at the end with no part before it', ['abcdefgh'], `x ${ESC}[`, 4],
    ['colours quoted as JSON writes them', ['abcdefgh'], 'x ab\\u001b[1mcd', 2],
    ['as the text holds it, where a control sequence would take its first letter', ['sabcdefg'], `x${ESC}[sab`, 3],
    ['a CSI in its one-byte form', ['abcdefgh'], 'x ab\u009b1mc', 2],
  ])('%s', (_, values, text, at) => {
    const s = new Secrets(() => undefined);
    for (const v of values) s.add(v);
    expect(s.partialAt(text)).toBe(at);
  });
});

describe("bk-ci's unfilled placeholders never show as {0}", () => {
  it('in an error body', () => {
    const said = readError({ status: 400, headers: {}, body: '{"status":400,"message":"参数校验失败:{0} Invalid buildId"}' }, (t) => t);
    expect(said.message).toBe("参数校验失败:Invalid buildId (bk-ci's parameter check failed)");
  });

  it.each([
    [
      '参数校验失败:{0} PipelineId is invalid ',
      "参数校验失败:PipelineId is invalid (bk-ci's parameter check failed: the build is not one of pipeline-id's builds; check pipeline-id, or leave it out)",
    ],
    [
      '参数校验失败:request param path cannot be empty',
      "参数校验失败:request param path cannot be empty (bk-ci's parameter check failed: a parameter it needs is empty)",
    ],
    ['项目不存在', '项目不存在'],
  ])("bk-ci's untranslated check %s is told in words next to its text", (message, shown) => {
    const said = readError({ status: 400, headers: {}, body: JSON.stringify({ status: 400, message }) }, (t) => t);
    expect(said.message).toBe(shown);
  });

  it('a missing user says which input to set', () => {
    const said = readError(
      { status: 400, headers: {}, body: '{"status":400,"message":"参数校验失败:request param userId cannot be empty"}' },
      (t) => t,
    );
    expect(said.message).toBe('参数校验失败:request param userId cannot be empty; set user-id, which is sent as X-DEVOPS-UID');
  });

  it('in a 200 whose wrapper says failure', () => {
    const res = { status: 200, headers: {}, body: '{"status":2101999,"message":"用户({0})无权限"}' };
    expect(() => unwrap(JSON.parse(res.body), z.unknown(), res, 'GET', 'u', (t) => t)).toThrow(/error status 2101999: 用户\(\)无权限$/);
  });
});

describe('a secret cut by a bound before the scrub', () => {
  const lower = fc.string({ unit: fc.constantFrom(...'abcdefgh .:/'), maxLength: 60 });
  const secret = fc.string({ unit: fc.constantFrom(...'ABCDEFGH0123456789-'), minLength: 8, maxLength: 40 });
  /** Every run of MIN_SECRET characters of the secret. */
  const runs = (v: string): string[] => Array.from({ length: v.length - 3 }, (_, i) => v.slice(i, i + 4));

  it('leaves no 4 characters of it, wherever cut() cuts the text', () => {
    fc.assert(
      fc.property(lower, secret, lower, fc.nat(140), (before, value, after, at) => {
        const s = new Secrets(() => undefined);
        s.add(value);
        const shown = s.redact(cut(`${before}${value}${after}`, at));
        for (const run of runs(value)) expect(shown).not.toContain(run);
      }),
    );
  });

  it('leaves no 4 characters of it where a text is shortened in the middle (its start … its end)', () => {
    fc.assert(
      fc.property(lower, secret, lower, fc.nat(140), fc.nat(140), (before, value, after, head, tail) => {
        const s = new Secrets(() => undefined);
        s.add(value);
        const text = `${before}${value}${after}`;
        const shown = s.redact(`${text.slice(0, head)}…${text.slice(text.length - Math.min(tail, text.length - head))}`);
        for (const run of runs(value)) expect(shown).not.toContain(run);
      }),
    );
  });
});
