import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Secrets, withoutControls } from '../../src/runner/secrets.ts';
import { asOwn, guardStream, HOLD_MS, NO_SECRETS, releaseHeld, StreamDefuser, scrubStreams } from '../../src/runner/streams.ts';
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
  // Workers are shared between files: a step run before may have left its secrets with the writer.
  beforeEach(() => scrubStreams(NO_SECRETS));
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

  it('gives a character cut between two writes whole, and a string as it was written (Node encodes it)', () => {
    const seen: string[] = [];
    const stream = { write: (chunk: string): boolean => seen.push(chunk) > 0 } as unknown as NodeJS.WriteStream;
    guardStream(stream);
    const bytes = Buffer.from('é ✓');
    for (let at = 0; at < bytes.length; at++) stream.write(bytes.subarray(at, at + 1));
    expect(seen.join('')).toBe('é ✓');
    // A lone surrogate, which no UTF-8 holds: the writer does not encode text, the stream does.
    seen.length = 0;
    stream.write('a\ud800');
    stream.write('b\ud800', 'utf8');
    stream.write('c\ud800', 'utf-8');
    expect(seen).toEqual(['a\ud800', 'b\ud800', 'c\ud800']);
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
    scrubStreams({ redact: (text) => text.replaceAll('s3cret', '***'), partialAt: (text) => text.length });
    try {
      stream.write('warning: s3cret\n');
      asOwn(() => stream.write('::add-mask::s3cret\n'));
    } finally {
      scrubStreams(NO_SECRETS);
    }
    expect(sink).toEqual(['warning: ***\n', '::add-mask::s3cret\n']);
  });
});

describe('a secret cut between writes', () => {
  const SECRET = 's3cret-Value';
  /** One whose forms differ (percent-encoded, form-encoded): each may be cut. */
  const OTHER = 'k+y/Value=9';
  const sink: string[] = [];
  const secrets = new Secrets(() => undefined);
  secrets.add(SECRET);
  secrets.add(OTHER);
  /** A fresh stream behind the writer, with the secrets above as the step's. */
  const guarded = (): NodeJS.WriteStream => {
    const stream = {
      write: (chunk: string, cb?: () => void): boolean => {
        cb?.();
        return sink.push(chunk) > 0;
      },
    } as unknown as NodeJS.WriteStream;
    guardStream(stream);
    scrubStreams(secrets);
    return stream;
  };
  afterEach(() => {
    releaseHeld();
    scrubStreams(NO_SECRETS);
    sink.length = 0;
    vi.useRealTimers();
  });

  it('is scrubbed as the runner reads it, the two writes joined', () => {
    const stream = guarded();
    stream.write('token: s3cr');
    stream.write('et-Value, and more\n');
    expect(sink.join('')).toBe('token: ***, and more\n');
    // What could not begin the secret went out at once; only its first part waited.
    expect(sink).toEqual(['token: ', '***, and more\n']);
  });

  it('in three writes, and as bytes cut inside the writes', () => {
    const stream = guarded();
    const bytes = Buffer.from(`x ${SECRET} y`);
    for (const [from, to] of [
      [0, 4],
      [4, 9],
      [9, bytes.length],
    ] as const)
      stream.write(bytes.subarray(from, to));
    expect(sink.join('')).toBe('x *** y');
  });

  it('a held part that was not a secret goes out as it was, with the next write', () => {
    const stream = guarded();
    stream.write('a s3c');
    stream.write('ond b');
    expect(sink).toEqual(['a ', 's3cond b']);
  });

  it('a held part goes out before the action’s own text, in its place', () => {
    const stream = guarded();
    stream.write('::warning::s3cr');
    asOwn(() => stream.write('::add-mask::x\n'));
    expect(sink).toEqual([':\u200b:warning::', 's3cr::add-mask::x\n']);
  });

  it(`a stream quiet for ${HOLD_MS} ms gets the held part as it is`, () => {
    vi.useFakeTimers();
    const stream = guarded();
    stream.write('a s3');
    stream.write('cr');
    vi.advanceTimersByTime(HOLD_MS - 1);
    expect(sink).toEqual(['a ']);
    vi.advanceTimersByTime(1);
    expect(sink).toEqual(['a ', 's3cr']);
    // Written out once, and nothing held any more.
    stream.write('et-Value');
    expect(sink).toEqual(['a ', 's3cr', 'et-Value']);
  });

  it(`the ${HOLD_MS} ms count from the last write, and nothing is written when nothing is held`, () => {
    vi.useFakeTimers();
    const stream = guarded();
    stream.write('a s3');
    vi.advanceTimersByTime(HOLD_MS - 10);
    stream.write('cr');
    vi.advanceTimersByTime(HOLD_MS - 10);
    expect(sink).toEqual(['a ']);
    vi.advanceTimersByTime(10);
    expect(sink).toEqual(['a ', 's3cr']);
    stream.write('done\n');
    vi.advanceTimersByTime(HOLD_MS * 2);
    releaseHeld();
    expect(sink).toEqual(['a ', 's3cr', 'done\n']);
  });

  it('once the action’s own text has taken the held part, no timer or step end writes it again', () => {
    vi.useFakeTimers();
    const stream = guarded();
    stream.write('x s3c');
    asOwn(() => stream.write('::debug::y\n'));
    vi.advanceTimersByTime(HOLD_MS * 2);
    releaseHeld();
    expect(sink).toEqual(['x ', 's3c::debug::y\n']);
  });

  it('a write held whole is taken: the writer is told to go on (true), not to wait for a drain', () => {
    const stream = guarded();
    expect(stream.write('s3c')).toBe(true);
    expect(sink).toEqual([]);
  });

  it('the step’s end writes out what every stream holds', () => {
    const stream = guarded();
    const calls: string[] = [];
    stream.write('s3c', () => calls.push('taken'));
    expect(sink).toEqual([]);
    releaseHeld();
    expect(sink).toEqual(['s3c']);
    releaseHeld();
    expect(sink).toEqual(['s3c']);
    return new Promise<void>((resolve) => process.nextTick(resolve)).then(() => expect(calls).toEqual(['taken']));
  });

  /** The text cut into writes at `cuts` through a fresh guarded stream, and what the runner reads. */
  const written = (text: string, cuts: number[]): string => {
    sink.length = 0;
    const stream = guarded();
    const at = [...new Set(cuts.map((c) => Math.min(c, text.length)))].sort((a, b) => a - b);
    for (const [i, from] of [0, ...at].entries()) stream.write(text.slice(from, at[i] ?? text.length));
    releaseHeld();
    return sink.join('').replace(ZWSP, '');
  };
  const cuts = fc.array(fc.nat(80), { maxLength: 8 });

  it('however the text is cut into writes, the runner reads it as it would be scrubbed whole', () => {
    const part = fc.oneof(
      fc.constantFrom(SECRET, SECRET.slice(0, 5), SECRET.slice(3), 's3', OTHER, encodeURIComponent(OTHER), 'k%2By%2', '\n', ' '),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 12 }), cuts, (parts, at) => {
        const text = parts.join('');
        expect(written(text, at)).toBe(secrets.redact(text).replace(ZWSP, ''));
      }),
      { numRuns: 500 },
    );
  });

  it('with colours inside the secret or cut between writes, it never shows the secret', () => {
    const part = fc.oneof(
      fc.constantFrom(
        SECRET,
        SECRET.slice(0, 5),
        SECRET.slice(3),
        's3c\u001b[1mret-Val\u001b[0mue',
        '\u001b[',
        '\u001b[0m',
        '\u001b',
        OTHER,
        'k+y\u001b[0m/Val',
      ),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 12 }), cuts, (parts, at) => {
        const out = written(parts.join(''), at);
        expect(secrets.redact(out)).toBe(out);
        for (const secret of [SECRET, OTHER]) expect(withoutControls(out)).not.toContain(secret);
      }),
      { numRuns: 500 },
    );
  });
});
