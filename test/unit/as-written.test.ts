// build-params and query: every value reaches bk-ci as it was written in the input, never
// retyped by YAML's core schema or JavaScript's numbers (issue: tag 1.10 sent as "1.1").
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { textMapping } from '../../src/inputs/fields.ts';

const params = textMapping('build-params', { lists: false, what: 'a text' });
const query = textMapping('query', { lists: true, what: 'a text or a list' });

async function sent(schema: typeof params, text: string): Promise<Record<string, string[]>> {
  const r = await schema.safeParseAsync(text);
  if (!r.success) throw new Error(r.error.issues.map((i) => i.message).join('; '));
  return r.data;
}

describe('values exactly as written', () => {
  it.each([
    ['1.10', '1.10'],
    ['2.0', '2.0'],
    ['007', '007'],
    ['7e12345', '7e12345'],
    ['0x1F', '0x1F'],
    ['0o17', '0o17'],
    ['.inf', '.inf'],
    ['-.Inf', '-.Inf'],
    ['.nan', '.nan'],
    ['yes', 'yes'],
    ['No', 'No'],
    ['true', 'true'],
    ['null', 'null'],
    ['~', '~'],
    ['1_000', '1_000'],
    ['+12', '+12'],
    ['-0', '-0'],
    ['12345678901234567890123', '12345678901234567890123'],
    ['2026-11-24', '2026-11-24'],
    ['"1.10"', '1.10'],
    ["'007'", '007'],
    ['"a \\"quoted\\" text"', 'a "quoted" text'],
    ['', ''],
    // A comment after a quoted value cannot be taken for text.
    ['"v1.2.3" # a comment', 'v1.2.3'],
    ['fix#123', 'fix#123'],
    ['|-\n  fix #123', 'fix #123'],
  ])('YAML %s is sent as %j', async (written, expected) => {
    expect(await sent(params, `APP_VERSION: ${written}`)).toEqual({ APP_VERSION: [expected] });
    expect(await sent(query, `v: ${written}`)).toEqual({ v: [expected] });
  });

  it.each([
    ['1.10', '1.10'],
    ['12345678901234567890', '12345678901234567890'],
    ['1e400', '1e400'],
    ['-0.0', '-0.0'],
    ['2.50E+3', '2.50E+3'],
    ['true', 'true'],
    ['"007"', '007'],
  ])('JSON %s is sent as %j', async (written, expected) => {
    expect(await sent(params, `{"A": ${written}}`)).toEqual({ A: [expected] });
    expect(await sent(query, `{"A": [${written}, ${written}]}`)).toEqual({ A: [expected, expected] });
  });

  it('a list item with a comment is refused as well, naming it', async () => {
    const r = await query.safeParseAsync('q:\n  - a #1\n  - b');
    expect(r.error?.issues.map((i) => i.message).join('; ')).toMatch(/an item is written "a #1".*\(- "a #1"\)/);
  });

  it('any one-line text of words, numbers, #, : and spaces is sent as written or refused with the reason, never cut', async () => {
    const word = fc.constantFrom('fix', '#123', '#', 'v1.10', '007', ':', 'a:b', 'x#y', ' ', '  ', '1.10', 'PR', '(#42)', 'yes');
    const text = fc
      .array(word, { minLength: 1, maxLength: 8 })
      .map((w) => w.join(' ').trim())
      .filter((t) => t !== '' && !/^[#:]/.test(t));
    await fc.assert(
      fc.asyncProperty(text, async (t) => {
        const r = await params.safeParseAsync(`NOTE: ${t}`);
        if (r.success) expect(r.data).toEqual({ NOTE: [t] });
        else expect(r.error.issues[0]?.message).toMatch(/^build-params is neither a JSON object nor a YAML mapping: /);
      }),
      { numRuns: 300 },
    );
  });

  it('a JSON null is an empty parameter, and no query parameter at all', async () => {
    expect(await sent(params, '{"A": null}')).toEqual({ A: [''] });
    expect(await sent(query, '{"A": null, "B": [null, 1.0]}')).toEqual({ A: [], B: ['1.0'] });
  });

  it('a key named __proto__ is a parameter like any other, not a prototype', async () => {
    for (const text of ['{"__proto__": "1.10"}', '__proto__: 1.10']) {
      const r = await sent(params, text);
      expect(Object.keys(r)).toEqual(['__proto__']);
      expect(Object.getOwnPropertyDescriptor(r, '__proto__')?.value).toEqual(['1.10']);
    }
  });

  it('toJSON(github.ref_name), as the README writes it, sends any ref as written', async () => {
    for (const ref of ['@acme/lib@1.2.0', '&release', '!v1', '%v', "'v1'", 'v1: x', '1.10'])
      expect(await sent(params, `APP_VERSION: ${JSON.stringify(ref)}`)).toEqual({ APP_VERSION: [ref] });
  });

  it('a block scalar keeps its lines; a YAML list repeats a query parameter with each item as written', async () => {
    expect(await sent(params, 'NOTES: |\n  line 1\n  line 2.0\n')).toEqual({ NOTES: ['line 1\nline 2.0\n'] });
    expect(await sent(query, 'status: [SUCCEED, 1.10]')).toEqual({ status: ['SUCCEED', '1.10'] });
  });

  it.each([
    [
      'A: !!int 5',
      /build-params is neither a JSON object nor a YAML mapping: a YAML tag \(such as !!int\) cannot apply to a value sent as text: remove it \(line 1\)/,
    ],
    ['A: !<x> ##[stop-commands]tok', /a YAML tag/],
    ['A: 1\nA: 2', /Map keys must be unique/],
    // JSON.parse would keep the second silently: a key given twice is refused in JSON as in YAML.
    ['{"A": "1.10", "A": "2"}', /gives the key "A" twice in one object/],
    ['{"A": "x", "\\u0041": "y"}', /gives the key "A" twice/],
    ['A: {b: 1}', /build-params\.A must be a text/],
    ['A: [1, 2]', /build-params\.A must be a text/],
    ['- 1', /must be a JSON object or a YAML mapping/],
    ['A: 1.10\n---\nB: 2', /holds more than one YAML document \("---" starts another\): give one mapping/],
    ['A: &release', /"&release" is a YAML anchor or alias, not text: quote the value/],
    ['A: &x 1\nB: *x', /"&x" is a YAML anchor or alias/],
    ['A: @acme/lib@1.2.0', /reserved/],
    // YAML reads " #" as a comment: the value's tail would be lost, so the input is refused with how to quote it.
    [
      'NOTE: fix #123',
      /NOTE is written "fix #123", but YAML reads " #" as the start of a comment, so only "fix" would be sent: quote the value to send it whole \(NOTE: "fix #123"\)/,
    ],
    ['A: 1\nTITLE: Release v2 #42 (hotfix)\nB: 2', /TITLE is written "Release v2 #42 \(hotfix\)".*only "Release v2" would be sent/],
    ['V: v1.2.3 # the version', /V is written "v1.2.3 # the version"/],
  ])('%j is refused before any request', async (text, message) => {
    const r = await params.safeParseAsync(text);
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message).join('; ')).toMatch(message);
  });

  it('the YAML core schema would have retyped these', () => {
    expect(String(parse('v: 1.10').v)).toBe('1.1');
    expect(String(parse('v: 7e12345').v)).toBe('Infinity');
  });
});

describe('properties of values as written', () => {
  // A plain YAML scalar: no indicator first, no ": " or " #" inside, no space at either end.
  const plain = fc.stringMatching(/^[0-9A-Za-z._+~^$=/()][0-9A-Za-z._+~^$=/()-]{0,24}$/).filter((s) => !/^(\.\.\.|---)/.test(s));

  it('a plain YAML scalar is sent as its own text, whatever YAML 1.2 core would make of it', async () => {
    await fc.assert(
      fc.asyncProperty(plain, async (s) => {
        expect(await sent(params, `K: ${s}`)).toEqual({ K: [s] });
      }),
    );
  });

  it('a double-quoted YAML scalar is sent as the text it quotes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 30 }), async (s) => {
        expect(await sent(params, `K: ${JSON.stringify(s)}`)).toEqual({ K: [s] });
      }),
    );
  });

  it('a JSON number is sent as its digits', async () => {
    const digits = fc.stringMatching(/^(0|[1-9][0-9]{0,30})$/);
    const literal = fc
      .tuple(
        fc.boolean(),
        digits,
        fc.option(fc.stringMatching(/^[0-9]{1,12}$/)),
        fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.stringMatching(/^[0-9]{1,4}$/))),
      )
      .map(([neg, int, frac, exp]) => `${neg ? '-' : ''}${int}${frac === null ? '' : `.${frac}`}${exp === null ? '' : exp.join('')}`);
    await fc.assert(
      fc.asyncProperty(literal, async (n) => {
        expect(await sent(params, `{"K": ${n}}`)).toEqual({ K: [n] });
      }),
    );
  });
});
