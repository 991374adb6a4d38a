// The one writer for everything the runner reads. The runner parses both streams of a node action
// (actions/runner wires stderr to the same ActionCommandManager as stdout), so every byte written
// to stdout or stderr from this process passes through here: the action's own workflow commands
// as they are, anything else (a library's warning, Node's warnings and deprecations, an uncaught
// error, a stray console.log) defused on its way, however it is split into writes.
const ZWSP = '\u200b';

/** What .NET's String.Trim takes off a line before the runner looks for `::` (JS's \s lacks U+0085). */
const isBlank = (c: string): boolean => /[\s\u0085]/.test(c);

/** Where the runner's reader ends a line (\r, \n); the other breaks are taken as ends too, to be safe. */
const isBreak = (c: string): boolean => c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029' || c === '\u0085';

/**
 * A stream as the runner reads it, a character at a time across writes: a zero-width space goes
 * before the second `:` of a `::` that would start a line (after white space) and before the `[`
 * of every `##[`. A zero-width space is not white space to the runner, and invisible to people.
 */
export class StreamDefuser {
  /** blank: only white space since the line began; colon: that and one `:`; other: anything else. */
  #line: 'blank' | 'colon' | 'other' = 'blank';
  #hashes = 0;

  /** The text with every command start broken. */
  defuse(text: string): string {
    let out = '';
    for (const char of text) {
      if ((char === '[' && this.#hashes >= 2) || (char === ':' && this.#line === 'colon')) {
        out += ZWSP;
        this.#hashes = 0;
        this.#line = 'other';
      }
      out += char;
      this.#see(char);
    }
    return out;
  }

  /** Text written as it is (the action's own command): the state moves on as the runner's would. */
  pass(text: string): string {
    for (const char of text) this.#see(char);
    return text;
  }

  #see(char: string): void {
    this.#hashes = char === '#' ? this.#hashes + 1 : 0;
    if (isBreak(char)) this.#line = 'blank';
    else if (this.#line === 'blank' && char === ':') this.#line = 'colon';
    else if (this.#line !== 'blank' || !isBlank(char)) this.#line = 'other';
  }
}

type Write = typeof process.stdout.write;
const GUARDED = Symbol('bkci-guarded');

/** What the writer takes out of the text others write: the step's secrets (runner/secrets.ts). */
export interface StreamScrub {
  /** The text with every secret replaced. */
  redact(text: string): string;
  /** Where the text ends in the first part of a secret: that part's index, else the text's length. */
  partialAt(text: string): number;
}

/** Until the step's secrets are known: nothing to take out, nothing to hold. */
export const NO_SECRETS: StreamScrub = { redact: (text) => text, partialAt: (text) => text.length };

/**
 * How long a held part of a secret waits for the write that may complete it: a library writes
 * one line in pieces within a moment. A stream quiet this long gets the part as it is.
 */
export const HOLD_MS = 50;

let ours = 0;
let scrub: StreamScrub = NO_SECRETS;
/** The streams that hold a part of a secret back, each with what writes it out. */
const holding = new Set<() => void>();

/** Runs `write` as the action's own output: its workflow commands reach the runner as written. */
export function asOwn<T>(write: () => T): T {
  ours++;
  try {
    return write();
  } finally {
    ours--;
  }
}

/** Secrets out of every text that does not come from the action's own writer. */
export function scrubStreams(secrets: StreamScrub): void {
  scrub = secrets;
}

/** Writes out what every stream holds back: the step ends, or the process exits. */
export function releaseHeld(): void {
  for (const release of [...holding]) release();
}

/**
 * Puts the writer in front of `stream.write`, once per write function (a test's capture, or the
 * process's own). Text written by `asOwn` passes; every other text is scrubbed and defused.
 */
export function guardStream(stream: NodeJS.WriteStream): void {
  const current = stream.write as Write & { [GUARDED]?: boolean };
  if (current[GUARDED]) return;
  const writer = new GuardedWriter(current.bind(stream) as WriteText);
  const guarded = ((chunk: string | Uint8Array, encoding?: unknown, cb?: unknown): boolean => {
    const done = typeof encoding === 'function' ? encoding : typeof cb === 'function' ? cb : undefined;
    return writer.write(chunk, typeof encoding === 'string' ? encoding : undefined, done as WriteDone | undefined);
  }) as Write & { [GUARDED]?: boolean };
  guarded[GUARDED] = true;
  stream.write = guarded;
}

type WriteDone = (error?: Error | null) => void;
type WriteText = (chunk: string, cb?: WriteDone) => boolean;

/**
 * One stream's writer. A secret can be cut between two writes, which the runner joins again: so
 * the end of another's text that may begin a secret is held back, and goes out with the next
 * write, scrubbed with it, or alone once the stream has been quiet for HOLD_MS.
 */
class GuardedWriter {
  readonly #original: WriteText;
  readonly #defuser = new StreamDefuser();
  // TextDecoder (a global) rather than node:string_decoder, a module more to load at every start.
  readonly #decoder = new TextDecoder('utf-8');
  /** The end of another's text held back (scrubbed, not yet defused): it may begin a secret. */
  #held = '';
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(original: WriteText) {
    this.#original = original;
  }

  write(chunk: string | Uint8Array, encoding: string | undefined, done: WriteDone | undefined): boolean {
    const text =
      typeof chunk === 'string'
        ? encoding !== undefined && encoding !== 'utf8' && encoding !== 'utf-8'
          ? Buffer.from(chunk, encoding as BufferEncoding).toString('utf8')
          : chunk
        : this.#decoder.decode(chunk, { stream: true });
    const safe = ours > 0 ? this.#takeHeld() + this.#defuser.pass(text) : this.#settle(text);
    if (safe !== '') return this.#original(safe, done);
    // All of it held: the writer is told it was taken, as the stream would.
    if (done !== undefined) process.nextTick(done);
    return true;
  }

  /** Writes out what is held, as it is. */
  readonly release = (): void => {
    this.#original(this.#takeHeld());
  };

  /** Another's text, after what was held: scrubbed whole, and its end held back if it may begin a secret. */
  #settle(text: string): string {
    this.#stopHolding();
    const whole = scrub.redact(this.#held + text);
    const at = scrub.partialAt(whole);
    this.#held = whole.slice(at);
    if (this.#held !== '') {
      holding.add(this.release);
      this.#timer = setTimeout(this.release, HOLD_MS);
    }
    return this.#defuser.defuse(whole.slice(0, at));
  }

  /** What was held, defused; nothing is held any more. */
  #takeHeld(): string {
    this.#stopHolding();
    const text = this.#defuser.defuse(this.#held);
    this.#held = '';
    return text;
  }

  #stopHolding(): void {
    clearTimeout(this.#timer);
    holding.delete(this.release);
  }
}

let handlersInstalled = false;

/**
 * stdout and stderr behind the writer, and the errors nobody caught said through it: Node would
 * print them itself, from native code, past any writer. The step fails with exit code 1.
 */
export function guardProcessOutput(ownsProcess: boolean): void {
  guardStream(process.stdout);
  guardStream(process.stderr);
  if (handlersInstalled || !ownsProcess) return;
  handlersInstalled = true;
  // process.exit() runs no timer: what a stream held goes out before the process ends.
  process.on('exit', releaseHeld);
  const fatal = (kind: string, error: unknown): void => {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    process.stderr.write(`bk-ci action: ${kind}: ${text}\n`);
    // Past an error nobody caught, nothing the step holds can be trusted: it ends here, failed.
    process.exit(1);
  };
  process.on('uncaughtException', (e) => fatal('an unexpected error', e));
  process.on('unhandledRejection', (e) => fatal('an unexpected error in a promise', e));
}
