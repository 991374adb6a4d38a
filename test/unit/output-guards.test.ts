// The guards every output passes: the step's own credentials out (inside JSON's strings, never
// across its syntax), build values masked for the log but never out of an output, one URL check,
// one bound, and which build values are masked at all.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isHttpUrl, urlProblem } from '../../src/base/url.ts';
import { credentialShaped, maskPlan, refusedWarning, unmaskable } from '../../src/pipeline/variable-masks.ts';
import { bounded, OUTPUT_LIMIT, outputValue } from '../../src/runner/outputs.ts';
import { mapJsonStrings, Secrets, withoutControls } from '../../src/runner/secrets.ts';

const OWN = 'own-Cr3d+/=x"y\\z';

function secrets(): { s: Secrets; masked: string[] } {
  const masked: string[] = [];
  const s = new Secrets((v) => masked.push(v));
  s.add(OWN);
  s.add('shop-web', { own: false });
  return { s, masked };
}

describe("the step's own credentials, and only they, leave the outputs", () => {
  it.each([
    ['plain text', `token ${OWN} here`, 'token *** here'],
    ['a build value in text stays', 'shop-web v2', 'shop-web v2'],
    ['JSON: inside a string, escaped as JSON writes it', JSON.stringify({ a: `x${OWN}y`, b: 'shop-web' }), '{"a":"x***y","b":"shop-web"}'],
    ['JSON: a key too', JSON.stringify({ [OWN]: 1 }), '{"***":1}'],
    [
      'JSON: numbers as written, strings untouched when clean',
      '{"v":1.10,"n":12345678901234567890,"s":"a\\u0041"}',
      '{"v":1.10,"n":12345678901234567890,"s":"a\\u0041"}',
    ],
    ['JSON: an array of strings', JSON.stringify([OWN, encodeURIComponent(OWN)]), '["***","***"]'],
    ['text that only starts like JSON is text', `[not json ${OWN}`, '[not json ***'],
  ])('%s', (_, value, expected) => {
    expect(outputValue('x', value, secrets().s, () => undefined)).toBe(expected);
  });

  it('redact takes build values out of shown text, redactOwn does not', () => {
    const { s } = secrets();
    expect(s.redact(`shop-web ${OWN}`)).toBe('*** ***');
    expect(s.redactOwn(`shop-web ${OWN}`)).toBe('shop-web ***');
    expect(s.redactOwnJson('["shop-web"]')).toBe('["shop-web"]');
  });

  it('a build value given again as the step’s own becomes own', () => {
    const s = new Secrets(() => undefined);
    s.add('shared-value', { own: false });
    expect(s.redactOwn('shared-value')).toBe('shared-value');
    s.add('shared-value');
    expect(s.redactOwn('shared-value')).toBe('***');
  });

  it('access-token is output as it is: it was asked for', () => {
    expect(outputValue('access-token', OWN, secrets().s, () => undefined)).toBe(OWN);
  });

  it('with no credential, JSON is handed back untouched', () => {
    const s = new Secrets(() => undefined);
    expect(s.redactOwnJson('{"a":"b"')).toBe('{"a":"b"');
  });

  it('a piece of a list (items and commas) keeps its syntax', () => {
    const { s } = secrets();
    expect(s.redactOwnJson(`,{"t":"${OWN.replace(/["\\]/g, '\\$&')}"},"x"`)).toBe(',{"t":"***"},"x"');
    expect(s.redactOwnJson('[')).toBe('[');
  });

  it('any JSON with the credential anywhere in its strings stays JSON, the same but for those strings', () => {
    const { s } = secrets();
    const str = fc.oneof(
      fc.string(),
      fc.constant(OWN),
      fc.string().map((t) => `${t}${OWN}${t}`),
    );
    const json = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        str,
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('v')),
        fc.dictionary(str, tie('v')),
      ),
    })).v;
    fc.assert(
      fc.property(json, (v) => {
        const text = JSON.stringify(v);
        const out = s.redactOwnJson(text);
        expect(out).not.toContain(`${OWN.slice(0, 6)}Cr3d`);
        const back: unknown = JSON.parse(out);
        const expected: unknown = JSON.parse(text, (_k, x: unknown) => (typeof x === 'string' ? x.split(OWN).join('***') : x));
        const keys = (x: unknown): unknown =>
          Array.isArray(x)
            ? x.map(keys)
            : x !== null && typeof x === 'object'
              ? Object.fromEntries(Object.entries(x).map(([k, y]) => [k.split(OWN).join('***'), keys(y)]))
              : x;
        expect(back).toEqual(keys(expected));
      }),
      { numRuns: 300 },
    );
  });

  it('mapJsonStrings leaves a string left open as it is, and scrubs a literal JSON cannot read as text', () => {
    expect(mapJsonStrings('"abc', (v) => v.toUpperCase())).toBe('"abc');
    expect(mapJsonStrings('"a\\qb" "c"', (v) => v.toUpperCase())).toBe('"A\\QB" "C"');
    expect(mapJsonStrings('x"a\\"b"y', (v) => v.toUpperCase())).toBe('x"A\\"B"y');
  });
});

describe('the scrubbing of outputs, where a textual scrub would differ', () => {
  it('a credential that is also JSON syntax or a number is never replaced across the JSON: data stays JSON', () => {
    const s = new Secrets(() => undefined);
    s.add('1234');
    s.add('{"a"');
    for (const text of ['{"retry":1234,"id":"x1234"}', '  {"a":"1234"}', '[{"a":1234}]', '"a1234"'])
      expect(() => JSON.parse(s.redactOwnOutput(text))).not.toThrow();
    expect(s.redactOwnOutput('{"retry":1234,"id":"x1234"}')).toBe('{"retry":1234,"id":"x***"}');
    expect(s.redactOwnOutput('  {"a":"1234"}')).toBe('  {"a":"***"}');
    expect(s.redactOwnOutput('"a1234"')).toBe('"a***"');
    // Not JSON: scrubbed as text.
    expect(s.redactOwnOutput('retry 1234 {"a"')).toBe('retry *** ***');
    expect(s.redactOwnOutput('{"a" is no JSON 1234')).toBe('*** is no JSON ***');
    expect(s.redactOwnOutput('x{"a":1234}')).toBe('x***:***}');
  });

  it("the step's own secrets are replaced longest first, whichever came first", () => {
    for (const order of [
      ['tok-1234', 'tok-1234-refresh'],
      ['tok-1234-refresh', 'tok-1234'],
    ]) {
      const s = new Secrets(() => undefined);
      for (const v of order) s.add(v);
      expect(s.redactOwn('a tok-1234-refresh b tok-1234')).toBe('a *** b ***');
      expect(s.redactOwnJson('["tok-1234-refresh","tok-1234"]')).toBe('["***","***"]');
    }
  });

  it('an own secret that is all digits, output as a bare number, is scrubbed as text', () => {
    const s = new Secrets(() => undefined);
    s.add('98765432');
    expect(s.redactOwnOutput('98765432')).toBe('***');
    expect(s.redactOwnOutput('[98765432]')).toBe('[98765432]');
  });

  it('before any secret is known, nothing is replaced', () => {
    const s = new Secrets(() => undefined);
    expect(s.redactOwn('Stryker was here')).toBe('Stryker was here');
    expect(s.redactOwnJson('["Stryker was here"]')).toBe('["Stryker was here"]');
    expect(s.redactOwnOutput('Stryker was here')).toBe('Stryker was here');
  });

  it('each string is handed over decoded, between strings the text is kept', () => {
    const seen: string[] = [];
    const out = mapJsonStrings(String.raw`ab"a\u0041" , "\"q\"":"c"`, (v) => {
      seen.push(v);
      return v === 'aA' ? 'ok' : v;
    });
    expect(seen).toEqual(['aA', '"q"', 'c']);
    expect(out).toBe(String.raw`ab"ok" , "\"q\"":"c"`);
  });
});

describe('URL outputs pass the one check', () => {
  it.each([
    ['build-url', 'https://devops.example.com/console/pipeline/p/b', 'https://devops.example.com/console/pipeline/p/b', []],
    ['build-url', '', '', []],
    [
      'download-url',
      'javascript:alert(1)',
      '',
      ['the download-url output is left out: it is not an absolute http(s) URL ("javascript:alert(1)")'],
    ],
    [
      'build-url',
      'https://h.example/a\nb',
      '',
      ['the build-url output is left out: it holds white space or control characters ("https://h.example/a\\nb")'],
    ],
    ['build-status', 'javascript:x', 'javascript:x', []],
  ])('%s %j → %j', (name, value, expected, warnings) => {
    const warned: string[] = [];
    expect(outputValue(name, value, secrets().s, (m) => warned.push(m))).toBe(expected);
    expect(warned).toEqual(warnings);
  });
});

describe('every output is bounded', () => {
  it('text is cut, with a warning', () => {
    const warned: string[] = [];
    const out = outputValue('build-status', 'é'.repeat(OUTPUT_LIMIT), secrets().s, (m) => warned.push(m));
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(OUTPUT_LIMIT);
    expect(out).toMatch(/… \(\d+ more characters\)$/);
    expect(warned).toEqual(['the build-status output is longer than 64 KiB, so it is cut']);
  });

  it.each([
    ['an object keeps whole entries', Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`V${i}`, 'x'.repeat(100)]))],
    ['an array keeps whole items', Array.from({ length: 100 }, (_, i) => ({ i, v: 'y'.repeat(100) }))],
  ])('%s, still JSON: of entries the same size, the first ones', (_, value) => {
    const warned: string[] = [];
    const text = JSON.stringify(value);
    const out = bounded('variables', text, 1000, (m) => warned.push(m));
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(1000);
    const back: unknown = JSON.parse(out);
    const n = Array.isArray(back) ? back.length : Object.keys(back as object).length;
    expect(n).toBeGreaterThan(5);
    expect(text.startsWith(out.slice(0, -1))).toBe(true);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(
      new RegExp(`^the variables output leaves out ${100 - n} of its 100 entries, the largest, to stay within ${1000 / 1024} KiB: `),
    );
    expect(warned[0]).toMatch(new RegExp(`, and ${100 - n - 10} more; the other ${n} are kept$`));
  });

  it('whole entries up to the byte: one that would pass the bound by a byte is left out', () => {
    const text = JSON.stringify(['aaaa', 'aaaa', 'aaaa']);
    expect(text).toHaveLength(22);
    expect(bounded('x', text, 22, () => undefined)).toBe(text);
    expect(bounded('x', text, 21, () => undefined)).toBe('["aaaa","aaaa"]');
    expect(bounded('x', text, 15, () => undefined)).toBe('["aaaa","aaaa"]');
    expect(bounded('x', text, 14, () => undefined)).toBe('["aaaa"]');
    expect(bounded('x', text, 8, () => undefined)).toBe('["aaaa"]');
    expect(bounded('x', text, 7, () => undefined)).toBe('[]');
    expect(bounded('x', '{"a":"bbbb","c":"dddd"}', 20, () => undefined)).toBe('{"a":"bbbb"}');
  });

  it('one large entry is left out by name, wherever it stands; every small one beside it is kept', () => {
    const big = 'x'.repeat(OUTPUT_LIMIT);
    for (const value of [
      { BIG: big, VERSION: '2.3.4', TAG: 'v2.3.4' },
      { VERSION: '2.3.4', BIG: big, TAG: 'v2.3.4' },
      { VERSION: '2.3.4', TAG: 'v2.3.4', BIG: big },
    ]) {
      const warned: string[] = [];
      const out = outputValue('variables', JSON.stringify(value), secrets().s, (m) => warned.push(m));
      expect(JSON.parse(out)).toEqual({ VERSION: '2.3.4', TAG: 'v2.3.4' });
      expect(warned).toEqual([
        'the variables output leaves out 1 of its 3 entries, the largest, to stay within 64 KiB: BIG (64 KiB); the other 2 are kept',
      ]);
    }
  });

  it('the largest go first, named by key, by an item itself, its path, its name or id, or its place', () => {
    const warned: string[] = [];
    const list = [
      'r'.repeat(300),
      { path: `/a/${'p'.repeat(300)}`, name: 'n' },
      { name: 'm'.repeat(300) },
      { id: 'i'.repeat(300) },
      { size: 'z'.repeat(300) },
      [1, 2, 'q'.repeat(300)],
      'small',
    ];
    const out = bounded('artifacts', JSON.stringify(list), 100, (m) => warned.push(m));
    expect(JSON.parse(out)).toEqual(['small']);
    const names = warned[0] ?? '';
    expect(names).toContain(`${'r'.repeat(40)}…${'r'.repeat(59)} (302 B)`);
    expect(names).toContain(`/a/${'p'.repeat(37)}…${'p'.repeat(59)} (325 B)`);
    expect(names).toContain(`${'m'.repeat(40)}…${'m'.repeat(59)} (`);
    expect(names).toContain(`${'i'.repeat(40)}…${'i'.repeat(59)} (`);
    expect(names).toContain(`${'x'.repeat(0)}item 5 (311 B)`);
    expect(names).toContain('item 5 (');
    expect(names).toContain('item 6 (');
    expect(names).toMatch(/; the other one is kept$/);
  });

  it('entries keep their text as written: numbers their digits, strings their escapes; an odd key is named decoded', () => {
    const text = String.raw`{ "n" : 12345678901234567890.10 , "s":"a\u0041\"" ,"k\"ey":"${'x'.repeat(200)}", "d":[1.10,{"a":"]}"}] }`;
    const warned: string[] = [];
    const out = bounded('x', text, 100, (m) => warned.push(m));
    expect(out).toBe(String.raw`{"n" : 12345678901234567890.10,"s":"a\u0041\"","d":[1.10,{"a":"]}"}]}`);
    expect(warned[0]).toMatch(/: k"ey \(\d+ B\); the other 3 are kept$/);
  });

  it('more than ten left out: ten named, the rest counted; sizes in KiB from 1 KiB, a decimal below 10', () => {
    const list = [...Array.from({ length: 12 }, (_, i) => `${i}`.padEnd(2000, 'x')), 'y'.repeat(12 * 1024)];
    const warned: string[] = [];
    expect(bounded('x', JSON.stringify(list), 1024, (m) => warned.push(m))).toBe('[]');
    expect(warned[0]).toMatch(
      /^the x output leaves out 13 of its 13 entries, the largest, to stay within 1 KiB: 0x{39}…x{59} \(2 KiB\), 1x+/,
    );
    expect(warned[0]).toMatch(/, 9x{39}…x{59} \(2 KiB\), and 3 more; none is kept$/);
    const one: string[] = [];
    bounded('x', JSON.stringify(['y'.repeat(12 * 1024), 'z'.repeat(1100)]), 1200, (m) => one.push(m));
    expect(one[0]).toMatch(/: y{40}…y{59} \(12 KiB\); the other one is kept$/);
    const small: string[] = [];
    bounded('x', JSON.stringify(['y'.repeat(1100), 'z']), 1000, (m) => small.push(m));
    expect(small[0]).toMatch(/: y{40}…y{59} \(1\.1 KiB\); the other one is kept$/);
  });

  it('ten left out are all named, with no count after them; 1024 bytes are 1 KiB, 12.6 KiB round to 13', () => {
    const warned: string[] = [];
    bounded('x', JSON.stringify([...Array.from({ length: 10 }, (_, i) => `${i}`.repeat(200)), 'k']), 50, (m) => warned.push(m));
    expect(warned[0]).toMatch(/, 9{40}…9{59} \(202 B\); the other one is kept$/);
    const sizes: string[] = [];
    bounded('x', JSON.stringify(['a'.repeat(1022), 'b'.repeat(12 * 1024 + 600)]), 10, (m) => sizes.push(m));
    expect(sizes[0]).toMatch(/: a{40}…a{59} \(1 KiB\), b{40}…b{59} \(13 KiB\); none is kept$/);
  });

  it('JSON that is no array or object, or text that only starts like one, is cut as text', () => {
    for (const text of [JSON.stringify(`[${'a'.repeat(2000)}]`), `[not json ${'x'.repeat(2000)}]`, '1'.repeat(2000)]) {
      const warned: string[] = [];
      expect(bounded('x', text, 1000, (m) => warned.push(m))).toMatch(/… \(\d+ more characters\)$/);
      expect(warned).toEqual(['the x output is longer than 0.9765625 KiB, so it is cut']);
    }
  });

  it('white space around and between entries is not an entry; a value that fits once written without it is kept whole, without a word', () => {
    const warned: string[] = [];
    const pretty = JSON.stringify({ A: 'a'.repeat(30), B: 'b'.repeat(30) }, null, 8);
    expect(bounded('x', `   ${pretty}`, 80, (m) => warned.push(m))).toBe(`{"A": "${'a'.repeat(30)}","B": "${'b'.repeat(30)}"}`);
    expect(warned).toEqual([]);
    expect(bounded('x', `  [ 1 , [2, 3] , {"a": [4]} ,"x${'y'.repeat(50)}" ]`, 40, (m) => warned.push(m))).toBe('[1,[2, 3],{"a": [4]}]');
    expect(warned[0]).toMatch(/: xy+ \(53 B\); the other 3 are kept$/);
    expect(bounded('x', `[${' '.repeat(20)}]`, 10, (m) => warned.push(m))).toBe('[]');
  });

  it('a name of 100 characters is named whole; one longer, by its start and its end', () => {
    const warned: string[] = [];
    bounded('x', JSON.stringify({ [`${'k'.repeat(99)}z`]: 'v'.repeat(100), [`${'m'.repeat(100)}z`]: 'v'.repeat(100) }), 10, (m) =>
      warned.push(m),
    );
    expect(warned[0]).toContain(`${'k'.repeat(99)}z (`);
    expect(warned[0]).toContain(`${'m'.repeat(40)}…${'m'.repeat(58)}z (`);
  });

  it('an item with no name of its own (null, a number, a list) is named by its place', () => {
    const warned: string[] = [];
    bounded('x', JSON.stringify([null, 12345, [{ path: 'p' }], 'a']), 6, (m) => warned.push(m));
    expect(warned[0]).toMatch(/: item 1 \(4 B\), item 2 \(5 B\), item 3 \(14 B\); the other one is kept$/);
  });

  it('a warning names no secret: an entry named by a secret is named with it scrubbed', () => {
    const warned: string[] = [];
    const { s } = secrets();
    outputValue('variables', JSON.stringify({ 'shop-web': 'x'.repeat(OUTPUT_LIMIT), A: 'b' }), s, (m) => warned.push(m));
    expect(warned[0]).toMatch(/: \*\*\* \(64 KiB\)/);
  });

  it('text is cut to 100 characters under the bound, then the note', () => {
    const out = bounded('x', 'a'.repeat(2000), 1000, () => undefined);
    expect(out).toBe(`${'a'.repeat(900)}… (1100 more characters)`);
  });

  it('a value within the bound is untouched, without a word', () => {
    const warned: string[] = [];
    expect(bounded('x', 'abc', 3, (m) => warned.push(m))).toBe('abc');
    expect(warned).toEqual([]);
  });
});

/** The characters a URL's path, query and fragment hold, escapes and sub-delimiters included. */
const urlPart = fc.string({
  unit: fc.constantFrom(
    'a',
    'Z',
    '9',
    '-',
    '.',
    '_',
    '~',
    '%20',
    '%2F',
    '%E2%80%AE',
    '!',
    '$',
    '&',
    "'",
    '(',
    ')',
    '*',
    '+',
    ',',
    ';',
    '=',
    ':',
    '@',
    '/',
  ),
  maxLength: 12,
});
/**
 * Web URLs: scheme, host, port, path, query and fragment. fc.webUrl draws its path characters
 * through a map of all of Unicode that takes over a second of CPU to build; these parts are drawn
 * from the characters URLs hold.
 */
const webUrl = fc
  .tuple(fc.constantFrom('http', 'https'), fc.domain(), fc.option(fc.nat(65535)), urlPart, urlPart, urlPart)
  .map(
    ([scheme, host, port, path, query, fragment]) => `${scheme}://${host}${port === null ? '' : `:${port}`}/${path}?${query}#${fragment}`,
  );

describe('one URL check', () => {
  it.each([
    ['https://h.example/a?b=1#c', undefined],
    ['HTTP://H.EXAMPLE', undefined],
    ['', 'it is empty'],
    ['javascript:alert(1)', 'it is not an absolute http(s) URL'],
    ['file:///etc/passwd', 'it is not an absolute http(s) URL'],
    ['/relative/path', 'it is not an absolute http(s) URL'],
    ['http:evil.example', 'it is not an absolute http(s) URL'],
    ['http:\\\\evil.example', 'it is not an absolute http(s) URL'],
    ['https://h.example/a\nb', 'it holds white space or control characters'],
    ['https://h.example/a b', 'it holds white space or control characters'],
    ['https://h.example/\u202egnp.exe', 'it holds white space or control characters'],
    ['https://h.example/\u0085', 'it holds white space or control characters'],
    ['https://h.example/\u2028', 'it holds white space or control characters'],
    ['https://[::1', 'it is not a URL'],
  ])('%j: %s', (url, problem) => {
    expect(urlProblem(url)).toBe(problem);
  });

  it('what passes is one line, absolute, http(s), and the URL parser reads it as given', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          webUrl,
          fc.string(),
          fc.string().map((s) => `https://h.example/${s}`),
        ),
        (text) => {
          if (!isHttpUrl(text)) return;
          expect(text).not.toMatch(/\s/);
          expect(
            [...text].some((c) => (c.codePointAt(0) ?? 0) < 0x20 || ((c.codePointAt(0) ?? 0) >= 0x7f && (c.codePointAt(0) ?? 0) <= 0x9f)),
          ).toBe(false);
          const u = new URL(text);
          expect(['http:', 'https:']).toContain(u.protocol);
          expect(u.hostname).not.toBe('');
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('which build values are masked', () => {
  it.each([
    ['abc', 'shorter than 4 characters'],
    ['  ab  ', 'shorter than 4 characters'],
    ['true', 'a common word'],
    ['FALSE', 'a common word'],
    ['null', 'a common word'],
    ['1.10', 'a short number'],
    ['2.3.4', 'a short number'],
    ['12:30', 'a short number'],
    ['1234567', 'a short number'],
    ['12345678', undefined],
    ['shop-web', undefined],
    ['truest', undefined],
  ])('unmaskable(%j) is %s', (value, why) => {
    expect(unmaskable(value)).toBe(why);
  });

  it.each([
    ['-----BEGIN OPENSSH PRIVATE KEY-----\nabc', true],
    ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2ln', true],
    ['ghp_abcdefghijklmnopqrstuvwxyz0123456789', true],
    ['github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv', true],
    ['AKIAIOSFODNN7EXAMPLE', true],
    ['xoxb-123456789012-abcdef', true],
    ['Zq8Kp2LmN4vX7rT1wY9bC3dF6gH0jS5a', true],
    ['3f786850e387550fdab836ed7e6dc881de23001b', false],
    ['123e4567-e89b-12d3-a456-426614174000', false],
    ['https://h.example/notes/2.3.4', false],
    ['release notes for version two', false],
    ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaA1', false],
    ['ghp_short', false],
  ])('credentialShaped(%j) is %s', (value, shaped) => {
    expect(credentialShaped(value)).toBe(shaped);
  });

  it('asked for (a password, a listed name, or *) and maskable: masked; not asked: only a credential shape; asked but too common: refused, an empty value silently', () => {
    const values = {
      PW: 'pa55-w0rd',
      LISTED: 'shop-web',
      OTHER: 'shop-api',
      TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      FLAG: 'false',
      EMPTY: '',
    };
    expect(maskPlan(values, { passwords: new Set(['PW', 'EMPTY']), listed: ['LISTED', 'FLAG'] })).toEqual({
      masked: ['PW', 'LISTED', 'TOKEN'],
      refused: [['FLAG', 'a common word']],
    });
    expect(maskPlan(values, { passwords: new Set(), listed: ['*'] })).toEqual({
      masked: ['PW', 'LISTED', 'OTHER', 'TOKEN'],
      refused: [['FLAG', 'a common word']],
    });
    expect(maskPlan({ TOKEN: values.TOKEN, FLAG: 'false' }, { passwords: new Set(), listed: [] })).toEqual({
      masked: ['TOKEN'],
      refused: [],
    });
  });

  it('the warning names the variables and why, never their values', () => {
    expect(
      refusedWarning([
        ['A', 'a common word'],
        ['B', 'a short number'],
      ]),
    ).toBe(
      "the value of A (a common word), B (a short number) is not masked: masking so short or common a value would blank every occurrence of it in the whole job's log; keep such values out of secrets, or make them longer",
    );
  });
});

describe("a secret split by a terminal's control sequences is still a secret", () => {
  const E = '\u001b';
  const scrubber = (): Secrets => {
    const s = new Secrets(() => undefined);
    s.add('token-value');
    return s;
  };
  it.each([
    ['a colour reset inside', `x to${E}[0mken-value y`, `x ***${E}[0m y`],
    [
      'colours around and inside: the codes inside kept after ***, those around where they were',
      `${E}[31mtok${E}[1;32men-val${E}[0mue${E}[0m`,
      `${E}[31m***${E}[1;32m${E}[0m${E}[0m`,
    ],
    ['the one-byte CSI', `tok\u009b31men-value`, `***\u009b31m`],
    ['an OSC title ended by BEL', `token${E}]0;title\u0007-value`, `***${E}]0;title\u0007`],
    ['an OSC link ended by ST', `token${E}]8;;https://h.example${E}\\-value`, `***${E}]8;;https://h.example${E}\\`],
    ['a two-byte ESC sequence', `token-${E}(Bvalue`, `***${E}(B`],
    ['twice, and whole once', `to${E}[0mken-value and token-value and token-${E}[mvalue`, `***${E}[0m and *** and ***${E}[m`],
    [
      'a secret inside an OSC link itself',
      `${E}]8;;https://h.example/?t=token-value${E}\\link`,
      `${E}]8;;https://h.example/?t=***${E}\\link`,
    ],
    ['codes that split nothing stay', `${E}[32mok${E}[0m token`, `${E}[32mok${E}[0m token`],
    ['an ESC at the end, alone', `token-value${E}`, `***${E}`],
    ['a code right before and after, not inside', `${E}[1mtoken-value${E}[0m`, `${E}[1m***${E}[0m`],
    ['a code as JSON quotes it (\\u001b)', String.raw`"tok\u001b[0men-value"`, String.raw`"***\u001b[0m"`],
    ['a code as a shell writes it (\\x1b, \\033), upper case too', String.raw`tok\x1B[31men-val\033[0mue`, String.raw`***\x1B[31m\033[0m`],
    ['the one-byte CSI as JSON quotes it', String.raw`token-\u009b2Kvalue`, String.raw`***\u009b2K`],
    ['an OSC as JSON quotes it, ended by BEL as JSON quotes it', String.raw`tok\u001b]0;t\u0007en-value`, String.raw`***\u001b]0;t\u0007`],
    ['a backslash that escapes nothing of the kind stays', String.raw`tok\nen-value`, String.raw`tok\nen-value`],
  ])('%s', (_, text, expected) => {
    const s = scrubber();
    expect(s.redact(text)).toBe(expected);
    expect(s.redactOwn(text)).toBe(expected);
  });

  it('in a JSON output, inside a string escaped as \\u001b, the secret is taken out and the JSON stays JSON', () => {
    const s = scrubber();
    const out = s.redactOwnOutput(JSON.stringify({ line: `to${E}[0mken-value` }));
    expect(JSON.parse(out)).toEqual({ line: `***${E}[0m` });
  });

  it('whatever control sequences split it, the secret never reads whole once they are out', () => {
    const code = fc.constantFrom(`${E}[0m`, `${E}[1;31m`, `${E}[38;5;208m`, '\u009b2K', `${E}]0;t\u0007`, `${E}(B`, `${E}[?25l`);
    fc.assert(
      fc.property(
        fc.array(fc.option(code, { nil: '' }), { minLength: 11, maxLength: 11 }),
        fc.string(),
        fc.string(),
        (codes, before, after) => {
          const split = [...'token-value'].map((c, i) => `${codes[i] ?? ''}${c}`).join('');
          const out = scrubber().redact(`${before}${split}${after}`);
          expect(withoutControls(out)).not.toContain('token-value');
        },
      ),
      { numRuns: 300 },
    );
  });
});
