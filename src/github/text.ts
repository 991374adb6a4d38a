// Text on its way to GitHub. Every piece is raw text until it is rendered here, and rendering
// takes the step's secrets out of it first (before any escaping, which would change a secret's
// characters and hide it from the scrub, and before any cut, which could leave part of one): no
// Markdown for GitHub is made anywhere else. Rendered, it makes no link, image, HTML, mention or
// reference; a word GitHub would link (an id, a code, a hash, a URL, @name, #12) is shown as code,
// every character as written; and it fits GitHub's limits for a check run's output.
import { cut, isControl } from '../base/text.ts';

/** GitHub's limit for a check run's summary and text (its REST API, "Update a check run"). */
export const OUTPUT_LIMIT = 65_535;
/** Titles are one line on the pull request: kept short. */
export const TITLE_LIMIT = 200;
/** An annotation's message. */
export const MESSAGE_LIMIT = 2000;

/** The step's secret scrubbing (the same that scrubs its log). */
export type Scrub = (text: string) => string;

/** A piece of a line: text, text in bold, or text shown as code (an id, a code: copied as it is). */
type Span = string | { strong: string } | { code: string };

/** A table cell: text, or pieces. */
export type Cell = string | readonly Span[];

/** A part of a summary or text, kept whole when the output is fitted to GitHub's limit. */
export type Part =
  | { kind: 'line'; spans: readonly Span[] }
  /** The action's own words about what is shown, in italics. */
  | { kind: 'note'; text: string }
  | { kind: 'table'; title: string; headers: readonly string[]; rows: readonly (readonly Cell[])[] }
  /** Lines as they are (a log's last lines), in a code block under a heading. */
  | { kind: 'lines'; title: string; lines: readonly string[] };

/** What GitHub makes a link, mention, reference or emoji of, in text outside code. */
const LINKED = [
  /@[\w-]/, // @mentions, e-mail addresses, user@sha
  /#\w/, // #12, owner/repo#12
  /\bGH-\d/i, // GH-12
  /:\/\//, // URLs
  /\bwww\./i, // www. addresses
  /[\da-f]{7,}/i, // commit hashes (and every id or code of 7 hex digits or more)
  /:[\w+-]+:/, // emoji shortcodes
];

/** Every character Markdown or HTML reads, for a backslash (CommonMark: any ASCII punctuation may be escaped). */
const ACTIVE = /[\\`*_{}[\]()<>#+\-.!|~&"'=:$@^]/g;

/** One line: breaks shown as ⏎, other control characters as their pictures, cut to `max` (after the scrub). */
function oneLine(text: string, max: number): string {
  return [...cut(text, max).replace(/\r\n|\r|\n|\u2028|\u2029|\u0085/g, ' ⏎ ')]
    .map((c) => (c === '\t' ? ' ' : isControl(c.charCodeAt(0)) ? String.fromCharCode(0x2400 + (c.charCodeAt(0) % 0x80)) : c))
    .join('');
}

/** A code span holding `text` exactly: a fence longer than any run of backticks inside, spaced when it starts or ends with one. */
function codeSpan(text: string): string {
  const fence = '`'.repeat(1 + Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length)));
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * Inert Markdown for one line of text already scrubbed: each word GitHub would link is a code
 * span, every other character Markdown reads escaped; `|` is escaped everywhere (a table cell
 * ends at one, even inside a code span), so no code span holds one.
 */
export function inert(text: string, max = 1000): string {
  return oneLine(text, max)
    .replace(/[^\s|]+/g, (w) => (LINKED.some((r) => r.test(w)) ? codeSpan(w) : w.replace(ACTIVE, '\\$&')))
    .replace(/\|/g, '\\|');
}

/** Lines in a fenced code block, where GitHub reads no Markdown, HTML, mention or link: the fence longer than any run of backticks inside. */
function codeBlock(lines: readonly string[], lineMax: number): string {
  const shown = lines.map((l) => oneLine(l, lineMax));
  const longest = Math.max(0, ...shown.map((l) => Math.max(0, ...[...l.matchAll(/`+/g)].map((m) => m[0].length))));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${shown.join('\n')}\n${fence}`;
}

function spans(parts: readonly Span[], scrub: Scrub): string {
  return parts
    .map((s) =>
      typeof s === 'string' ? inert(scrub(s)) : 'strong' in s ? `**${inert(scrub(s.strong), 300)}**` : codeOf(oneLine(scrub(s.code), 300)),
    )
    .join('');
}

/** Text as code, exactly: a `|` between code spans, escaped (a code span in a table cell cannot hold one). */
const codeOf = (text: string): string =>
  text
    .split('|')
    .map((t) => (t === '' ? '' : codeSpan(t)))
    .join('\\|');

function table(block: Extract<Part, { kind: 'table' }>, scrub: Scrub): string {
  const cell = (c: Cell): string => (typeof c === 'string' ? inert(scrub(c), 300) : spans(c, scrub)) || ' ';
  const line = (cells: readonly Cell[]): string => `| ${cells.map(cell).join(' | ')} |`;
  return [
    `### ${inert(scrub(block.title), 300)}`,
    '',
    line(block.headers),
    `|${block.headers.map(() => ' --- ').join('|')}|`,
    ...block.rows.map(line),
  ].join('\n');
}

/** One part as Markdown, every text in it scrubbed first. */
function render(part: Part, scrub: Scrub): string {
  switch (part.kind) {
    case 'line':
      // A line starting with spaces would be a code block, its escapes shown.
      return spans(part.spans, scrub).trimStart();
    case 'note':
      return `_${inert(scrub(part.text)).trim()}_`;
    case 'table':
      return table(part, scrub);
    case 'lines':
      return `### ${inert(scrub(part.title), 300)}\n\n${codeBlock(
        part.lines.map((l) => scrub(l)),
        400,
      )}`;
  }
}

/**
 * Markdown parts joined while they fit under `limit`: a part is never cut (a cut could leave a
 * fence open or an escape half done); what does not fit is counted at the end.
 */
export function fitParts(parts: readonly string[], limit = OUTPUT_LIMIT): string {
  const note = (n: number): string => `\n\n_${n} more part${n === 1 ? '' : 's'} left out: GitHub takes at most ${limit} characters here._`;
  let out = '';
  for (const [index, part] of parts.entries()) {
    const next = out === '' ? part : `${out}\n\n${part}`;
    if (next.length + note(parts.length).length > limit) return out + note(parts.length - index);
    out = next;
  }
  return out;
}

/** A summary or text for GitHub: each part rendered (secrets out first), then as many as fit. */
export const markdown = (parts: readonly Part[], scrub: Scrub, limit = OUTPUT_LIMIT): string =>
  fitParts(
    parts.map((p) => render(p, scrub)),
    limit,
  );

/** A title, or any other one-line plain text for GitHub (a name, an annotation's message): secrets out, one line, cut. */
export const plainLine = (text: string, scrub: Scrub, max = TITLE_LIMIT): string => oneLine(scrub(text), max);
