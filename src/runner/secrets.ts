/**
 * The forms a secret can take in what the action writes: as given, percent-decoded and
 * percent-encoded, as the URL parser normalises it in a query, form-encoded, and JSON-escaped
 * (a secret with `"` or `\\` inside a JSON output).
 */
export function secretForms(value: string): string[] {
  const bases = new Set([value]);
  try {
    bases.add(decodeURIComponent(value));
  } catch {
    // not percent-encoded
  }
  const forms = new Set<string>();
  for (const b of bases) {
    for (const f of [b, encodeURIComponent(b), queryForm(b), new URLSearchParams({ v: b }).toString().slice(2)]) {
      forms.add(f);
      forms.add(JSON.stringify(f).slice(1, -1));
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
  add(value: string | undefined, o: { own?: boolean } = {}): void {
    if (value === undefined || value.length < 4) return;
    for (const form of secretForms(value)) {
      if (form.length < 4) continue;
      if (o.own !== false) this.#own.add(form);
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

  /** The text with the step's own secrets replaced by `***`: for the action's outputs. */
  redactOwn(text: string): string {
    return replaceAll(text, this.#ownSorted);
  }
}

function replaceAll(text: string, values: readonly string[]): string {
  let t = text;
  for (const v of values) if (t.includes(v)) t = t.split(v).join('***');
  return t;
}
