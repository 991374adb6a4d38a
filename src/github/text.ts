// Text from bk-ci on the pull request: it can make no link, image, HTML, mention or reference,
// and it fits GitHub's limits for a check run's output.
import { cut, isControl, plain } from '../base/text.ts';

/** GitHub's limit for a check run's summary and text (its REST API, "Update a check run"). */
export const OUTPUT_LIMIT = 65_535;
/** Titles are one line on the pull request: kept short. */
export const TITLE_LIMIT = 200;
/** An annotation's message. */
export const MESSAGE_LIMIT = 2000;

const ZWSP = '\u200b';

/**
 * One line of inert Markdown: every character Markdown or HTML reads escaped, and what GitHub
 * links by itself broken by an invisible space: @mentions, #references, bare URLs and `www.`,
 * commit hashes.
 */
export function inert(text: string, max = 1000): string {
  return plain(text, max)
    .replace(/[\\`*_{}[\]()<>#+\-.!|~&"'=:]/g, '\\$&')
    .replace(/@/g, `@${ZWSP}`)
    .replace(/#/g, `#${ZWSP}`)
    .replace(/\\:\/\//g, `\\:${ZWSP}//`)
    .replace(/\bwww\\\./gi, (m) => `${m.slice(0, 3)}${ZWSP}${m.slice(3)}`)
    .replace(/\b([0-9a-f]{6})(?=[0-9a-f]{1,34}\b)/gi, `$1${ZWSP}`);
}

/** A title: plain text on GitHub, but still one line and short. */
export const titleText = (text: string): string => plain(text, TITLE_LIMIT).replace(/@/g, `@${ZWSP}`);

/**
 * Lines in a fenced code block, where GitHub reads no Markdown, HTML, mention or link: the fence
 * longer than any run of backticks inside, control characters shown as pictures, lines cut.
 */
export function codeBlock(lines: readonly string[], lineMax = 400): string {
  const shown = lines.map((l) =>
    [...cut(l, lineMax)]
      .map((c) => (isControl(c.charCodeAt(0)) && c !== '\t' ? String.fromCharCode(0x2400 + (c.charCodeAt(0) % 0x80)) : c))
      .join(''),
  );
  const longest = Math.max(0, ...shown.map((l) => Math.max(0, ...[...l.matchAll(/`+/g)].map((m) => m[0].length))));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${shown.join('\n')}\n${fence}`;
}

/**
 * Markdown parts joined while they fit under `limit`: a part is never cut (a cut could leave a
 * fence open or an escape half done); what does not fit is counted at the end.
 */
export function fitParts(parts: readonly string[], limit = OUTPUT_LIMIT): string {
  const note = (n: number): string => `\n\n_${n} more part${n === 1 ? '' : 's'} left out: GitHub takes at most ${limit} characters here._`;
  let out = '';
  for (const [i, p] of parts.entries()) {
    const next = out === '' ? p : `${out}\n\n${p}`;
    if (next.length + note(parts.length).length > limit) return out + note(parts.length - i);
    out = next;
  }
  return out;
}

/** A Markdown table of inert cells. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]): string => `| ${cells.map((c) => inert(c, 300) || ' ').join(' | ')} |`;
  return [line(headers), `|${headers.map(() => ' --- ').join('|')}|`, ...rows.map(line)].join('\n');
}
