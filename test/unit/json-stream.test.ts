import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemberItems } from '../../src/base/json-stream.ts';

/** The text given in chunks cut at `cuts` (byte offsets): what comes out of the split. */
function split(text: string | Buffer, cuts: number[] = []): { rest: string; head: string; items: string[]; arrays: number } {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const items: string[] = [];
  const m = new MemberItems('data', (t) => items.push(t));
  let at = 0;
  for (const cut of [...new Set(cuts)].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b)) {
    m.write(bytes.subarray(at, cut));
    at = cut;
  }
  m.write(bytes.subarray(at));
  return { ...m.end(), items, arrays: m.arrays };
}

/** What JSON.parse makes of the split: the rest with the items put back, or the first error. */
function reassembled(s: ReturnType<typeof split>): unknown {
  const value: unknown = JSON.parse(s.rest.replace(/^\uFEFF/, ''));
  const items = s.items.map((t) => JSON.parse(t) as unknown);
  if (s.arrays === 0) return value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('items out of something that is no object');
  return { ...value, data: items };
}

const parses = (f: () => unknown): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: f() };
  } catch {
    return { ok: false };
  }
};

describe('MemberItems: the data array of an answer, an item at a time', () => {
  it.each([
    [
      'a wrapped list',
      '{"code":0,"data":[{"a":1},{"b":[2,3]}],"request_id":"r"}',
      ['{"a":1}', '{"b":[2,3]}'],
      '{"code":0,"data":[],"request_id":"r"}',
    ],
    ['spaces everywhere', ' { "data" : [ 1 , "x,]" , [ ] ] } ', [' 1 ', ' "x,]" ', ' [ ] '], ' { "data" : [] } '],
    ['an empty list', '{"data":[]}', [], '{"data":[]}'],
    ['strings with quotes, brackets and escapes', '{"data":["a\\"]","\\\\",{"k":"}"}]}', ['"a\\"]"', '"\\\\"', '{"k":"}"}'], '{"data":[]}'],
    ['the member nested deeper is not split', '{"x":{"data":[1,2]}}', [], '{"x":{"data":[1,2]}}'],
    ['an escaped key is the same key', '{"d\\u0061ta":[7]}', ['7'], '{"d\\u0061ta":[]}'],
    ['a key that only contains the name is not it', '{"database":[1],"data":null}', [], '{"database":[1],"data":null}'],
    ['data as an object is kept whole', '{"data":{"a":[1]}}', [], '{"data":{"a":[1]}}'],
    ['a top-level array is kept whole', '[{"data":[1]}]', [], '[{"data":[1]}]'],
    ['an HTML page is kept whole', '<html>{"data":[1]}</html>', [], '<html>{"data":[1]}</html>'],
    ['multi-byte characters', '{"data":["蓝盾","✓"],"message":"成功"}', ['"蓝盾"', '"✓"'], '{"data":[],"message":"成功"}'],
  ])('%s', (_, text, items, rest) => {
    const bytes = Buffer.from(text);
    // Every way of cutting the text in two gives the same.
    for (let cut = 0; cut <= bytes.length; cut++) {
      const s = split(bytes, [cut]);
      expect(s.items).toEqual(items);
      expect(s.rest).toBe(rest);
      expect(s.head).toBe(text);
    }
    // And byte by byte.
    const one = split(bytes, [...bytes.keys()]);
    expect(one.items).toEqual(items);
    expect(one.rest).toBe(rest);
  });

  it.each([
    ['an empty first item', '{"data":[,1]}'],
    ['an empty middle item', '{"data":[1,,2]}'],
    ['a trailing comma', '{"data":[1,]}'],
    ['two values in one item', '{"data":[1 2]}'],
    ['a wrong closing bracket', '{"data":[1}'],
    ['cut off inside the list', '{"data":[{"a":1},{"b"'],
    ['cut off after an item', '{"data":[1,2'],
    ['cut off inside a string', '{"data":["abc'],
  ])('what is not JSON still fails: %s', (_, text) => {
    expect(() => JSON.parse(text)).toThrow();
    for (let cut = 0; cut <= text.length; cut++) expect(() => reassembled(split(text, [cut]))).toThrow();
  });

  it('an empty chunk changes nothing, even just after a backslash', () => {
    const text = Buffer.from('{"data":["a\\"b",{"k\\\\":"]"}]}');
    const items: string[] = [];
    const m = new MemberItems('data', (t) => items.push(t));
    for (const byte of text) {
      m.write(Buffer.from([byte]));
      m.write(new Uint8Array(0));
    }
    expect(items).toEqual(['"a\\"b"', '{"k\\\\":"]"}']);
    expect(m.end().rest).toBe('{"data":[]}');
  });

  it('a byte order mark before the object is passed over', () => {
    const s = split(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"data":[1]}')]), [1, 2]);
    expect(s.items).toEqual(['1']);
    expect(s.rest).toBe('\uFEFF{"data":[]}');
  });

  it('counts each array the member holds, since JSON.parse keeps only the last', () => {
    expect(split('{"data":[1],"data":[2]}').arrays).toBe(2);
  });

  it('property: any JSON, cut anywhere, reassembles to what JSON.parse makes of it', () => {
    const answer = fc.record(
      { code: fc.integer(), data: fc.oneof(fc.array(fc.jsonValue()), fc.jsonValue()), message: fc.string() },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(answer, fc.jsonValue()), fc.constantFrom(undefined, 1, 2), fc.array(fc.nat(400)), (value, indent, cuts) => {
        const text = JSON.stringify(value, null, indent);
        const s = split(text, cuts);
        expect(reassembled(s)).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it('property: a text JSON.parse refuses is refused, and one it takes gives the same', () => {
    // JSON-like text with mistakes in it: any of these pieces in any order.
    const piece = fc.constantFrom('{', '}', '[', ']', ',', ':', '"data"', '"a"', '"x\\"', '1', ' ', 'null', '"]"', '"data":[');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.array(fc.nat(60)), (pieces, cuts) => {
        const text = pieces.join('');
        const whole = parses(() => JSON.parse(text));
        const s = split(text, cuts);
        const streamed = parses(() => reassembled(s));
        if (s.arrays > 1) return;
        expect(streamed.ok).toBe(whole.ok);
        if (whole.ok && streamed.ok) expect(streamed.value).toEqual(whole.value);
      }),
      { numRuns: 3000 },
    );
  });
});
