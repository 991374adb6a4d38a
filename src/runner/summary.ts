import type { Block, Cell } from '../base/outcome.ts';
import { cut, escapeMarkdown, isControl, markdownLine } from '../base/text.ts';
import { urlProblem } from '../base/url.ts';
import { withoutControls } from './secrets.ts';

export const SUMMARY_LIMIT = 1024 * 1024;
/** Rows shown of one table. */
export const SUMMARY_ROWS = 1000;

export interface SummaryInput {
  operation: string;
  host: string;
  asked: [string, string][];
  ok: boolean;
  headline: string;
  blocks: Block[];
  error?: string;
  /** Applied to every text before it is escaped: takes secrets out. */
  scrub?: (text: string) => string;
}

/** What an empty table cell shows: a blank cell reads as a layout slip, a dash as "nothing". */
const NO_VALUE = '—';

/**
 * Lines in a fenced code block, where Markdown and HTML are not read: a fence longer than any
 * run of backticks in them (so none closes it), each line one line, control characters shown
 * as `␀`-style pictures, long lines cut.
 */
function codeBlock(lines: string[]): string {
  const shown = lines.map((line) =>
    [...cut(line, 500)]
      .map((char) => {
        const code = char.charCodeAt(0);
        if (code === 0x09) return char;
        if (isControl(code)) return String.fromCharCode(code === 0x7f ? 0x2421 : 0x2400 + code);
        return '\u0085\u2028\u2029'.includes(char) ? ' ' : char;
      })
      .join(''),
  );
  const longest = Math.max(0, ...shown.map((l) => Math.max(0, ...[...l.matchAll(/`+/g)].map((m) => m[0].length))));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${shown.join('\n')}\n${fence}`;
}

/**
 * The one way a failure becomes Markdown: its lines stay lines (never `⏎`), its `- ` lines a
 * list (an input error's problems), every other line a paragraph, each escaped as summary text.
 */
function failureMarkdown(error: string): string {
  const blocks: string[] = [];
  for (const [i, line] of error.split(/\r\n|\r|\n|\u2028|\u2029/).entries()) {
    if (line.trim() === '') continue;
    const item = /^\s*- (.*)$/.exec(line);
    if (item !== null && i > 0) {
      const last = blocks.length - 1;
      const entry = `- ${markdownLine(item[1] ?? '')}`;
      if (blocks[last]?.startsWith('- ')) blocks[last] += `\n${entry}`;
      else blocks.push(entry);
    } else blocks.push(i === 0 ? `**Failed:** ${escapeMarkdown(line)}` : markdownLine(line));
  }
  return blocks.join('\n\n');
}

/**
 * A URL the action carries, as a GFM autolink when it passes the one URL check and holds no
 * secret: WHATWG's serialisation percent-encodes what could end the link (`<`, `>`, spaces) and
 * `|` is encoded so it cannot end a table cell; anything else is shown as text (code), never a link.
 */
export function linkCell(url: string, scrub: (text: string) => string): string {
  if (urlProblem(url) !== undefined || scrub(url) !== url) return escapeMarkdown(scrub(url)) || ' ';
  return `<${new URL(url).href.replace(/\|/g, '%7C')}>`;
}

/** The job summary as Markdown; every value in it is escaped, and the whole stays under 1 MiB. */
export function renderSummary(input: SummaryInput): string {
  const scrub = input.scrub ?? ((text: string) => text);
  const text = (t: string): string => escapeMarkdown(scrub(t)) || ' ';
  const cell = (c: Cell): string => (typeof c === 'string' ? text(c) : linkCell(c.url, scrub)).trim() || NO_VALUE;
  // Each cell is cut (escapeMarkdown), each table too: a server's list of any length shows its
  // first rows and says how many more there were.
  const table = (headers: string[], rows: Cell[][]): string =>
    [
      `| ${headers.map(cell).join(' | ')} |`,
      `|${headers.map(() => '---').join('|')}|`,
      ...rows.slice(0, SUMMARY_ROWS).map((row) => `| ${row.map(cell).join(' | ')} |`),
      ...(rows.length > SUMMARY_ROWS ? [`\n… ${rows.length - SUMMARY_ROWS} more rows not shown (the whole result is in data-file)`] : []),
    ].join('\n');

  const parts = [`### ${input.ok ? '✅' : '❌'} bk-ci ${text(input.operation)}: ${text(input.headline)}`, `Host: ${text(input.host)}`];
  if (!input.ok && input.error !== undefined) parts.push(failureMarkdown(scrub(input.error)));
  const given = (rows: [string, Cell][]): [string, Cell][] =>
    rows.filter(([, value]) => (typeof value === 'string' ? value : value.url).trim() !== '');
  // A two-column table of names and values is labelled by its header; every other section by a heading.
  if (given(input.asked).length > 0) parts.push(table(['Asked', 'Value'], given(input.asked)));
  // Every fact in one table, where the first stood: one "Result", never one per block, and no row without a value.
  const facts = given(input.blocks.flatMap((b) => (b.kind === 'facts' ? b.rows : [])));
  let factsShown = false;
  for (const block of input.blocks) {
    if (block.kind === 'facts') {
      if (!factsShown && facts.length > 0) parts.push(table(['Result', 'Value'], facts));
      factsShown = true;
    } else if (block.kind === 'table') parts.push(`#### ${text(block.title)}\n\n${table(block.headers, block.rows)}`);
    // A terminal's control sequences (colours) would show as `␛[32m`: taken out.
    else if (block.kind === 'lines')
      parts.push(`#### ${text(block.title)}\n\n${codeBlock(block.lines.map((l) => scrub(withoutControls(l))))}`);
    else parts.push(text(block.text));
  }
  const md = `${parts.join('\n\n')}\n`;
  if (Buffer.byteLength(md) <= SUMMARY_LIMIT) return md;
  const cut = Buffer.from(md)
    .subarray(0, SUMMARY_LIMIT - 200)
    .toString('utf8');
  return `${cut.slice(0, cut.lastIndexOf('\n'))}\n\n… (summary cut at 1 MiB; the whole result is in data-file)\n`;
}
