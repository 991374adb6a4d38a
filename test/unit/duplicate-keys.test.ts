import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { duplicateKey } from '../../src/base/json.ts';

/** A JSON value written by hand, so that an object may give a key twice; and whether one does. */
type Written = { text: string; twice: boolean };

const key = fc.constantFrom('a', 'b', 'data', 'é', 'a"b', 'a\\b', '\u2028', '');
const written: fc.Arbitrary<Written> = fc.letrec<{ value: Written }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc
      .oneof(fc.string({ maxLength: 6 }), fc.constantFrom('{"a":1,"a":2}', ',"a":', '\\"'), fc.integer())
      .map((v) => ({ text: JSON.stringify(v), twice: false })),
    fc
      .array(tie('value'), { maxLength: 4 })
      .map((items) => ({ text: `[${items.map((i) => i.text).join(',')}]`, twice: items.some((i) => i.twice) })),
    fc.array(fc.tuple(key, tie('value'), fc.boolean()), { maxLength: 4 }).map((members) => ({
      // A key written with an escape is the same key to a JSON reader.
      text: `{${members.map(([k, v, escaped]) => `${escaped ? JSON.stringify(k).replace(/a/g, '\\u0061') : JSON.stringify(k)} : ${v.text}`).join(',')}}`,
      twice: new Set(members.map(([k]) => k)).size < members.length || members.some(([, v]) => v.twice),
    })),
  ),
})).value;

describe('duplicateKey', () => {
  it('finds a key given twice in any one object, escapes undone, and nothing in strings or across objects', () => {
    fc.assert(
      fc.property(written, (w) => {
        JSON.parse(w.text);
        expect(duplicateKey(w.text) !== undefined).toBe(w.twice);
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    ['{"a":1,"b":{"a":2}}', undefined],
    ['{"a":1,"\\u0061":2}', 'a'],
    ['[{"a":1},{"a":1}]', undefined],
    ['{"s":"{\\"a\\":1,\\"a\\":2}","t":1}', undefined],
    ['{"x\\\\":1,"x\\\\":2}', 'x\\'],
  ])('%s', (text, dup) => {
    expect(duplicateKey(text)).toBe(dup);
  });
});
