/**
 * Text on its way to stdout, kept from being taken for a runner command. The runner obeys
 * `::name::` at the start of a line and the older `##[name]` anywhere in one (actions/runner,
 * ActionCommand.TryParseV2 and TryParse). A zero-width space, invisible to people and not white
 * space to the runner, breaks up a leading `::` on every line and every `##[`.
 */
export const defuse = (text: string): string => text.replace(/^(\s*):(?=:)/gm, '$1:\u200b').replace(/#(?=#\[)/g, '#\u200b');

/** One line of plain log output: line breaks become a visible `⏎`, then defused. */
export const neutralise = (text: string): string => defuse(text.replace(/\r\n|\r|\n|\u2028|\u2029|\u0085/g, ' ⏎ '));

/** At most `max` characters, saying how many more there were. Scrub secrets first: a cut can split one. */
export const cut = (text: string, max: number): string =>
  text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;

/**
 * The longest start of `text` that is at most `max` UTF-16 code units long, never ending inside a
 * surrogate pair. Java and Kotlin count a String in these units, so bk-ci's limits (the build
 * message's 255, docs/bkci/builds.md) do too: an emoji is two of them.
 */
export function headUnits(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = Math.max(0, max);
  const last = text.charCodeAt(end - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? end - 1 : end);
}

/** Neutralised, and cut to `max` characters. */
export const plain = (text: string, max = 2000): string => neutralise(cut(text, max));

/** Text without the UTF-8 byte order mark some servers put before JSON. */
export const stripBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** What GFM would make a link of (its autolinks, extended ones included): a scheme's URL or a `www.` address. */
const URL_IN_TEXT = /(?:(?:https?|ftp):\/\/|www\.)[^\s<>"`]+/gi;

/** The URL without what usually follows one in a sentence: a full stop, a comma, an unbalanced bracket. */
function urlPart(match: string): string {
  let url = match;
  for (;;) {
    const last = url.at(-1) ?? '';
    const unbalanced = (open: string, close: string): boolean => last === close && url.split(open).length < url.split(close).length;
    if (/[.,;:!?']/.test(last) || unbalanced('(', ')') || unbalanced('[', ']')) url = url.slice(0, -1);
    else return url;
  }
}

/**
 * Only what would render differently is escaped, so that a person reading the Markdown itself
 * (`npm start` prints it) sees `{"status":400}` and `BUILD_END`, not `\{"status":400\}`: `{}`,
 * `()` and `!` mean nothing once `[` and `]` are escaped, `#` and `+` only at a line's start
 * (see markdownLine), and `_` only at a word's edge (GFM ignores it inside a word).
 */
const escapeText = (text: string): string =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*[\]|~@])/g, '\\$1')
    .replace(/_/g, (underscore, at: number, all: string) =>
      /[\p{L}\p{N}]/u.test(all[at - 1] ?? '') && /[\p{L}\p{N}]/u.test(all[at + 1] ?? '') ? underscore : '\\_',
    );

/**
 * A URL in text, as code: the summary shows what the server wrote, never a link made of it (in a
 * code span GFM makes no autolink, of any kind). What a code span in a GFM table cell cannot hold
 * is percent-encoded.
 */
const asCode = (url: string): string =>
  `\`${[...url].map((c) => (isControl(c.charCodeAt(0)) || c === '|' ? encodeURIComponent(c) : c)).join('')}\``;

/** C0 controls and DEL: line breaks, tabs, NUL and the like. */
export const isControl = (code: number): boolean => code < 0x20 || code === 0x7f;

/** Whether the text holds white space or a control character anywhere. */
export const hasSpaceOrControl = (text: string): boolean => /\s/.test(text) || [...text].some((c) => isControl(c.charCodeAt(0)));

/** Markdown and HTML neutralised, for text put into the job summary; a URL in it is shown as code, never a link. */
export function escapeMarkdown(text: string): string {
  const shown = plain(text, 4000);
  let out = '';
  let at = 0;
  for (const match of shown.matchAll(URL_IN_TEXT)) {
    const url = urlPart(match[0]);
    out += escapeText(shown.slice(at, match.index)) + asCode(url);
    at = match.index + url.length;
  }
  return out + escapeText(shown.slice(at));
}

/** One line of Markdown from text: escaped, and a start that would open a heading, list or quote made plain. */
export const markdownLine = (text: string): string => escapeMarkdown(text).replace(/^(\s*)([#+=-]|\d+(?=[.)]))/, '$1\\$2');

/** A readable account of an HTML or text error page, collapsed to one paragraph (not cut). */
export function collapse(body: string): string {
  return body
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
