import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { asOwn, guardStream, StreamDefuser, scrubStreams } from '../../src/runner/streams.ts';
import { RunnerReader, runnerCommands } from '../support/runner-commands.ts';

const ZWSP = /\u200b/g;

/** The text written in the given pieces through one defuser. */
const through = (pieces: string[]): string => {
  const d = new StreamDefuser();
  return pieces.map((p) => d.defuse(p)).join('');
};

describe('the writer for both streams', () => {
  it.each([
    ['a command at a line start', ['::error::x'], ':\u200b:error::x'],
    ['after white space and a break', ['ok\r\n \t::add-mask::x'], 'ok\r\n \t:\u200b:add-mask::x'],
    ['split between writes', [' :', ':stop-commands::t'], ' :\u200b:stop-commands::t'],
    ['an old-style command anywhere', ['a ##[stop-commands]t'], 'a ##\u200b[stop-commands]t'],
    ['split after one #', ['#', '#[group]x'], '##\u200b[group]x'],
    ['split after two', ['x##', '[error]x'], 'x##\u200b[error]x'],
    ['three #', ['###[x'], '###\u200b[x'],
    ['a colon mid-line stays', ['a::b ::c'], 'a::b ::c'],
    ['a colon then another character stays', [':a ::b\n:'], ':a ::b\n:'],
    ['a colon, a space, a colon stays', [': :x'], ': :x'],
    ['after a carriage return alone', ['ok\r::error::x'], 'ok\r:\u200b:error::x'],
    ['after a line feed alone', ['ok\n::error::x'], 'ok\n:\u200b:error::x'],
    ['## before another character stays', ['a ## b ##'], 'a ## b ##'],
    ['a bracket after other characters stays', ['ab[c] x#[y]'], 'ab[c] x#[y]'],
    ['NEL is white space to .NET', ['\u0085::error::x'], '\u0085:\u200b:error::x'],
  ])('%s', (_, pieces, out) => {
    expect(through(pieces)).toBe(out);
  });

  it('the action’s own commands pass as written, and the line state moves on with them', () => {
    const d = new StreamDefuser();
    expect(d.pass('::add-mask::x\n')).toBe('::add-mask::x\n');
    expect(d.defuse(':')).toBe(':');
    expect(d.defuse(':x::y')).toBe('\u200b:x::y');
    // Mid-line after the action's own text: a `::` there starts nothing.
    const fresh = new StreamDefuser();
    fresh.pass('started ');
    expect(fresh.defuse('::x::y')).toBe('::x::y');
  });

  const piece = fc.oneof(
    fc.constantFrom(
      ':',
      '::',
      '#',
      '##',
      '[',
      ']',
      '\n',
      '\r',
      '\r\n',
      ' ',
      '\t',
      '\u0085',
      '\u2028',
      '\u3000',
      'stop-commands',
      'error',
      'add-mask',
    ),
    fc.string({ maxLength: 6 }),
  );

  it('whatever the text and however it is cut into writes, the runner finds no command, and only zero-width spaces were added', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.array(fc.nat(60), { maxLength: 8 }), (parts, cuts) => {
        const text = parts.join('');
        const at = [...new Set(cuts.map((c) => Math.min(c, text.length)))].sort((a, b) => a - b);
        const pieces = [0, ...at].map((from, i) => text.slice(from, at[i] ?? text.length));
        const out = through(pieces);
        expect(runnerCommands(out, 'stderr')).toEqual([]);
        expect(out.replace(ZWSP, '')).toBe(text.replace(ZWSP, ''));
      }),
      { numRuns: 500 },
    );
  });
});

describe('a guarded stream', () => {
  const sink: string[] = [];
  const fake = { write: (chunk: string | Uint8Array): boolean => sink.push(String(chunk)) > 0 } as unknown as NodeJS.WriteStream;
  afterEach(() => {
    sink.length = 0;
  });

  it('defuses what others write, bytes split inside a character included, and lets the action’s own commands through', () => {
    guardStream(fake);
    guardStream(fake);
    const bytes = Buffer.from('\u3000::stop-commands::tok\n');
    fake.write(bytes.subarray(0, 2));
    fake.write(bytes.subarray(2));
    asOwn(() => fake.write('::add-mask::secret\n'));
    fake.write('##[error]x\n');
    const reader = new RunnerReader().read(sink.join(''), 'stderr');
    expect(reader.commands.map((c) => c.name)).toEqual(['add-mask']);
    expect(reader.stopped).toBe(false);
  });

  it('is guarded once, however often it is asked', () => {
    const stream = { write: (): boolean => true } as unknown as NodeJS.WriteStream;
    guardStream(stream);
    const guarded = stream.write;
    guardStream(stream);
    expect(stream.write).toBe(guarded);
  });

  it('passes the write callback on, with or without an encoding, and reads a string in another encoding as text', () => {
    const seen: string[] = [];
    const stream = {
      write: (chunk: string, cb?: () => void): boolean => {
        seen.push(chunk);
        cb?.();
        return true;
      },
    } as unknown as NodeJS.WriteStream;
    guardStream(stream);
    let calls = 0;
    stream.write('a', () => calls++);
    stream.write('b\n', 'utf8', () => calls++);
    stream.write(Buffer.from('::error::x').toString('hex'), 'hex');
    expect(calls).toBe(2);
    expect(seen).toEqual(['a', 'b\n', ':\u200b:error::x']);
  });

  it('scrubs secrets out of what others write, never out of the action’s own commands', () => {
    const stream = { write: (chunk: string): boolean => sink.push(chunk) > 0 } as unknown as NodeJS.WriteStream;
    guardStream(stream);
    scrubStreams((text) => text.replaceAll('s3cret', '***'));
    try {
      stream.write('warning: s3cret\n');
      asOwn(() => stream.write('::add-mask::s3cret\n'));
    } finally {
      scrubStreams((text) => text);
    }
    expect(sink).toEqual(['warning: ***\n', '::add-mask::s3cret\n']);
  });
});
