// The one check every URL the action outputs or shows passes: absolute http(s), one line, nothing
// invisible in it. A URL from a server that fails it is left out, never shown as a link.

/** Characters that break a line or hide text: C0 and C1 controls, line and paragraph separators, bidi controls. */
function hidden(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || /\s/.test(char)) return true;
    if (code === 0x200e || code === 0x200f || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return true;
  }
  return false;
}

/** Why the text is not a URL the action may carry, or undefined when it is one. */
export function urlProblem(text: string): string | undefined {
  if (text === '') return 'it is empty';
  if (hidden(text)) return 'it holds white space or control characters';
  // `new URL` reads `http:host` and `http:\\host` as absolute too: the scheme's `//` is asked for as written.
  if (!/^https?:\/\/[^/\\]/i.test(text)) return 'it is not an absolute http(s) URL';
  try {
    const url = new URL(text);
    if (url.hostname === '') return 'it names no host';
  } catch {
    return 'it is not a URL';
  }
  return undefined;
}

/** Whether the text is an absolute http(s) URL on one line. */
export const isHttpUrl = (text: string): boolean => urlProblem(text) === undefined;

/** The URL when it passes the check, else undefined, with `warn` told what and why (the text shown quoted and cut). */
export function checkedUrl(text: string, what: string, warn: (message: string) => void): string | undefined {
  const problem = urlProblem(text);
  if (problem === undefined) return text;
  const shown = JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
  warn(`${what} is left out: ${problem} (${shown})`);
  return undefined;
}
