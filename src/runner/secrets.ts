/**
 * The forms a secret can take in what the action writes: as given, percent-decoded and
 * percent-encoded, as the URL parser normalises it in a query, form-encoded, and JSON-escaped
 * (a secret with `"` or `\\` inside a JSON output).
 */
function secretForms(value: string): string[] {
  const bases = new Set([value]);
  try {
    bases.add(decodeURIComponent(value));
  } catch {
    // not percent-encoded
  }
  const forms = new Set<string>();
  for (const base of bases) {
    for (const form of [base, encodeURIComponent(base), queryForm(base), new URLSearchParams({ v: base }).toString().slice(2)]) {
      forms.add(form);
      forms.add(JSON.stringify(form).slice(1, -1));
    }
  }
  return [...forms];
}

/** The value as WHATWG's URL parser leaves it in a query string. */
function queryForm(value: string): string {
  const url = new URL('http://h/');
  url.search = `a=${value}`;
  return url.search.slice(3);
}

/** Every secret the action has seen, for masking and for scrubbing text before it is shown. */
export class Secrets {
  readonly #values = new Set<string>();
  readonly #mask: (value: string) => void;
  #sorted: string[] = [];

  constructor(mask: (value: string) => void) {
    this.#mask = mask;
  }

  /** The step's own secrets (credentials), apart from values masked for the build (its variables). */
  readonly #own = new Set<string>();
  #ownSorted: string[] = [];

  /**
   * Registers the value and every form it may take; masks them at once. `own: false` is a value
   * the build handed over (a variable): masked and scrubbed from what is shown, but not from the
   * action's own outputs, where a word such as `success` is the output's meaning.
   */
  add(value: string | undefined, options: { own?: boolean } = {}): void {
    if (value === undefined || value.length < MIN_SECRET) return;
    for (const form of secretForms(value)) {
      if (form.length < MIN_SECRET) continue;
      if (options.own !== false) this.#own.add(form);
      if (this.#values.has(form)) continue;
      this.#values.add(form);
      this.#mask(form);
    }
    // Longest first, so a secret that contains another is replaced whole.
    this.#sorted = [...this.#values].sort((a, b) => b.length - a.length);
    this.#ownSorted = [...this.#own].sort((a, b) => b.length - a.length);
  }

  /** The text with every form of every secret replaced by `***`. */
  redact(text: string): string {
    return replaceAll(text, this.#sorted);
  }

  /**
   * Where the text ends in the first part of a secret (one of its forms, cut short): the index
   * that part starts at, the text's length when it ends in none. A writer given text in pieces
   * holds that part back until the next piece says whether the secret follows. Read as the text
   * holds it and as a terminal shows it (see replaceAll): there, control sequences inside the part,
   * and one begun at its very end, belong to it.
   */
  partialAt(text: string): number {
    const held = partialStart(text, this.#sorted);
    if (!MAY_HOLD_CONTROLS.test(text)) return held;
    const open = OPEN_CONTROL.exec(text)?.index ?? text.length;
    const { shown, at } = shownOf(text.slice(0, open));
    return Math.min(held, at[partialStart(shown, this.#sorted)] ?? text.length);
  }

  /** The text with the step's own secrets replaced by `***`: for the action's outputs. */
  redactOwn(text: string): string {
    return replaceAll(text, this.#ownSorted);
  }

  /**
   * An output: JSON has the step's own secrets taken out of each of its strings (keys and values,
   * decoded, then written back as JSON), never across its syntax, so it stays the same JSON with
   * the same numbers as written; any other text is scrubbed as text.
   */
  redactOwnOutput(text: string): string {
    return isJson(text) ? this.redactOwnJson(text) : this.redactOwn(text);
  }

  /**
   * JSON text, or a run of whole JSON tokens (a piece of a list: items and commas), with the step's
   * own secrets out of every string in it; what lies between strings is kept as it is.
   */
  redactOwnJson(text: string): string {
    if (this.#ownSorted.length === 0) return text;
    return mapJsonStrings(text, (value) => replaceAll(value, this.#ownSorted));
  }
}

/**
 * Where the text's longest end that begins one of the values (longest first) and is shorter than
 * it starts; the text's length when none does. A value whole at the end is no part: it was replaced.
 */
function partialStart(text: string, values: readonly string[]): number {
  const longest = values[0]?.length ?? 0;
  for (let size = Math.min(longest - 1, text.length); size >= 1; size--) {
    const end = text.slice(-size);
    if (values.some((value) => value.startsWith(end))) return text.length - size;
  }
  return text.length;
}

/** Shorter values are not masked: the runner would blank every such run of characters job-wide. */
export const MIN_SECRET = 4;

function isJson(text: string): boolean {
  if (!/^\s*[[{"]/.test(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Each JSON string literal of the text (outside strings JSON has no `"`) replaced by `fn` of its
 * value, written back as a JSON string when `fn` changed it. A string left open (never in the
 * whole JSON this is given) is taken as it is.
 */
export function mapJsonStrings(text: string, fn: (value: string) => string): string {
  let out = '';
  let at = 0;
  for (let open = text.indexOf('"'); open !== -1; open = text.indexOf('"', at)) {
    let close = open + 1;
    while (close < text.length && text[close] !== '"') close += text[close] === '\\' ? 2 : 1;
    if (close >= text.length) break;
    const literal = text.slice(open, close + 1);
    const value = stringOf(literal);
    // A literal JSON cannot read (a piece of text that only looks like JSON) is scrubbed as text.
    const changed = value === undefined ? fn(literal) : fn(value);
    out += text.slice(at, open) + (changed === (value ?? literal) ? literal : value === undefined ? changed : JSON.stringify(changed));
    at = close + 1;
  }
  return out + text.slice(at);
}

function stringOf(literal: string): string | undefined {
  try {
    const value: unknown = JSON.parse(literal);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** ESC, and how text that quotes it writes it (JSON's `\u001b`, a shell's `\x1b` or `\033`): a person reads through either. */
const ESC = String.raw`(?:\u001b|\\u001[bB]|\\x1[bB]|\\033)`;
/** CSI's one-byte form, and JSON's writing of it. */
const CSI8 = String.raw`(?:\u009b|\\u009[bB])`;

/**
 * A terminal's control sequences, which a build log carries and the runner's log page renders: CSI
 * (ESC [ … final byte: colours, cursor moves; or its one-byte form U+009B), OSC (ESC ] … BEL or
 * ESC \\: titles, links) and the other ESC sequences (ESC, intermediates, a final byte); each also
 * as text that quotes it writes it (a message that quotes a value as JSON writes ESC as `\u001b`).
 */
const CONTROLS = new RegExp(
  [
    String.raw`${ESC}\[[0-?]*[ -/]*[@-~]`,
    `${CSI8}[0-?]*[ -/]*[@-~]`,
    String.raw`${ESC}\][^\u0007\u001b]*?(?:\u0007|${ESC}\\|\\u0007)`,
    `${ESC}[ -/]*[0-~]`,
  ].join('|'),
  'g',
);

/** Whether a text may hold a control sequence: ESC or CSI, or a backslash that may quote one. */
const MAY_HOLD_CONTROLS = new RegExp(`[${String.fromCharCode(0x1b, 0x9b)}]|${String.raw`\\(?:u00[19]|x1|033)`}`, 'i');

/**
 * Every occurrence of every value replaced by `***`: first as the text holds it, then as it reads
 * once the terminal's control sequences are taken out (`to\x1b[0mken` renders as `token`). In a
 * match across control sequences the sequences it spanned stay, after the `***`, so that the
 * colours around it render as they would have.
 */
function replaceAll(text: string, values: readonly string[]): string {
  let scrubbed = text;
  for (const value of values) if (scrubbed.includes(value)) scrubbed = scrubbed.split(value).join('***');
  if (scrubbed.includes(CUT_MARK)) scrubbed = replaceCutParts(scrubbed, values);
  if (!MAY_HOLD_CONTROLS.test(scrubbed)) return scrubbed;
  for (const value of values) scrubbed = replaceAcross(scrubbed, value);
  return scrubbed;
}

/** What every bound of the action leaves where it cut a text (base/text.ts `cut`, a URL quoted in part). */
const CUT_MARK = '…';

/**
 * A secret cut by a bound before the text reached the scrub: the start of one (of MIN_SECRET
 * characters or more) just before a `…`, and the end of one just after it, replaced by `***`.
 * Whole, the scrub would have found it; cut, only this finds what is left of it.
 */
function replaceCutParts(text: string, values: readonly string[]): string {
  const pieces = text.split(CUT_MARK);
  return pieces
    .map((piece, i) => {
      let out = piece;
      if (i < pieces.length - 1) {
        const at = partialStart(out, values);
        if (out.length - at >= MIN_SECRET) out = `${out.slice(0, at)}***`;
      }
      if (i > 0) {
        const size = partialEndSize(out, values);
        if (size > 0) out = `***${out.slice(size)}`;
      }
      return out;
    })
    .join(CUT_MARK);
}

/** The length of the text's longest start (MIN_SECRET characters or more) that ends one of the values and is shorter than it; 0 when none does. */
function partialEndSize(text: string, values: readonly string[]): number {
  const longest = values[0]?.length ?? 0;
  for (let size = Math.min(longest - 1, text.length); size >= MIN_SECRET; size--) {
    const start = text.slice(0, size);
    if (values.some((value) => value.endsWith(start))) return size;
  }
  return 0;
}

/** The text as a terminal shows it: without its control sequences. */
export const withoutControls = (text: string): string => text.replace(CONTROLS, '');

/** A control sequence begun at the text's end and not yet ended: ESC alone, or a CSI or OSC still open. */
const OPEN_CONTROL = new RegExp(
  `(?:${String.fromCharCode(0x1b)}(?:\\[[0-?]*[ -/]*|\\][^${String.fromCharCode(0x07, 0x1b)}]*|[ -/]*)|${String.fromCharCode(0x9b)}[0-?]*[ -/]*)$`,
);

/** The text as a terminal shows it, and where each character shown is in the text. */
function shownOf(text: string): { shown: string; at: readonly number[] } {
  let shown = '';
  const at: number[] = [];
  let from = 0;
  const keep = (to: number): void => {
    for (let i = from; i < to; i++) at.push(i);
    shown += text.slice(from, to);
  };
  for (const match of text.matchAll(CONTROLS)) {
    keep(match.index);
    from = match.index + match[0].length;
  }
  keep(text.length);
  return { shown, at };
}

/** The value replaced where it reads whole only once the control sequences are out. */
function replaceAcross(text: string, value: string): string {
  const { shown, at } = shownOf(text);
  let out = '';
  let kept = 0;
  for (let i = shown.indexOf(value); i !== -1; i = shown.indexOf(value, i + value.length)) {
    const start = at[i] ?? 0;
    const end = (at[i + value.length - 1] ?? 0) + 1;
    const inside = [...text.slice(start, end).matchAll(CONTROLS)].map((m) => m[0]);
    out += `${text.slice(kept, start)}***${inside.join('')}`;
    kept = end;
  }
  return out + text.slice(kept);
}
