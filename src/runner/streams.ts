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
    for (const c of text) {
      if ((c === '[' && this.#hashes >= 2) || (c === ':' && this.#line === 'colon')) {
        out += ZWSP;
        this.#hashes = 0;
        this.#line = 'other';
      }
      out += c;
      this.#see(c);
    }
    return out;
  }

  /** Text written as it is (the action's own command): the state moves on as the runner's would. */
  pass(text: string): string {
    for (const c of text) this.#see(c);
    return text;
  }

  #see(c: string): void {
    this.#hashes = c === '#' ? this.#hashes + 1 : 0;
    if (isBreak(c)) this.#line = 'blank';
    else if (this.#line === 'blank' && c === ':') this.#line = 'colon';
    else if (this.#line !== 'blank' || !isBlank(c)) this.#line = 'other';
  }
}

type Write = typeof process.stdout.write;
const GUARDED = Symbol('bkci-guarded');

let ours = 0;
let scrub: (text: string) => string = (text) => text;

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
export function scrubStreams(fn: (text: string) => string): void {
  scrub = fn;
}

/**
 * Puts the writer in front of `stream.write`, once per write function (a test's capture, or the
 * process's own). Text written by `asOwn` passes; every other text is scrubbed and defused.
 */
export function guardStream(stream: NodeJS.WriteStream): void {
  const current = stream.write as Write & { [GUARDED]?: boolean };
  if (current[GUARDED]) return;
  const original = current.bind(stream) as (chunk: string, cb?: (e?: Error | null) => void) => boolean;
  const defuser = new StreamDefuser();
  // TextDecoder (a global) rather than node:string_decoder, a module more to load at every start.
  const decoder = new TextDecoder('utf-8');
  const guarded = ((chunk: string | Uint8Array, encoding?: unknown, cb?: unknown): boolean => {
    const done = typeof encoding === 'function' ? encoding : typeof cb === 'function' ? cb : undefined;
    const text =
      typeof chunk === 'string'
        ? typeof encoding === 'string' && encoding !== 'utf8' && encoding !== 'utf-8'
          ? Buffer.from(chunk, encoding as BufferEncoding).toString('utf8')
          : chunk
        : decoder.decode(chunk, { stream: true });
    const safe = ours > 0 ? defuser.pass(text) : defuser.defuse(scrub(text));
    return original(safe, done as ((e?: Error | null) => void) | undefined);
  }) as Write & { [GUARDED]?: boolean };
  guarded[GUARDED] = true;
  stream.write = guarded;
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
  const fatal = (kind: string, e: unknown): void => {
    const text = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    process.stderr.write(`bk-ci action: ${kind}: ${text}\n`);
    // Past an error nobody caught, nothing the step holds can be trusted: it ends here, failed.
    process.exit(1);
  };
  process.on('uncaughtException', (e) => fatal('an unexpected error', e));
  process.on('unhandledRejection', (e) => fatal('an unexpected error in a promise', e));
}
