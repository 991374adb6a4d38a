const SECRET_PARAMS = new Set(['access_token', 'secrettoken']);

/** The URL with the values of `access_token` and `secretToken` replaced; nothing else changes. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash === -1 ? undefined : hash);
  const redacted = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // a malformed name is kept as it is
      }
      return SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=***` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${redacted}`;
}

/** Every secret the action has seen, for masking and for scrubbing text before it is shown. */
export class Secrets {
  readonly #values = new Set<string>();
  readonly #mask: (value: string) => void;

  constructor(mask: (value: string) => void) {
    this.#mask = mask;
  }

  /** Registers the value and the forms it may take on the wire; masks them at once. */
  add(value: string | undefined): void {
    if (value === undefined || value.length < 4) return;
    // The runner masks the URI-escaped form itself; the decoded one it does not.
    const forms = new Set([value]);
    try {
      forms.add(decodeURIComponent(value));
    } catch {
      // not percent-encoded
    }
    for (const form of forms) {
      if (this.#values.has(form)) continue;
      this.#values.add(form);
      this.#mask(form);
    }
  }

  redact(text: string): string {
    let t = text;
    // Longest first, so a secret that contains another is replaced whole.
    for (const v of [...this.#values].sort((a, b) => b.length - a.length)) t = t.split(v).join('***');
    return t;
  }
}
