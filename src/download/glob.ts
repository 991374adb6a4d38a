// The `download` input's patterns, matched against a file's path below the build's artifact root:
// `*` any characters within one folder's name, `**` as a whole segment any folders (none too),
// `?` one character within a name, a trailing `/` everything below that folder, `!` in front
// leaves files out. Nothing else is special (a `[` is a `[`), and case counts. docs/download.md.

/** One pattern, ready to match: its text as written, whether it leaves out, and the test. */
export interface Pattern {
  text: string;
  exclude: boolean;
  test(path: string): boolean;
}

/** What is wrong with a pattern as written, or undefined: it can be used. */
export function patternProblem(text: string): string | undefined {
  const body = text.startsWith('!') ? text.slice(1) : text;
  if (body.trim() === '') return `"${text}" leaves out nothing: write a pattern after the !`;
  if ([...body].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    return `${JSON.stringify(text).replace(/\u007f/g, '\\u007f')} holds a control character`;
  if (body.includes('\\')) return `"${text}" holds a backslash: bk-ci's paths use /, write app/*.ipa`;
  if (body.split('/').some((s) => s === '..')) return `"${text}" holds "..": patterns match paths below the artifact root`;
  return undefined;
}

/** The pattern compiled; its problem is checked first (patternProblem). */
export function compile(text: string): Pattern {
  const exclude = text.startsWith('!');
  // `./app` and `/app` mean the root's app; `reports/` means everything below reports.
  let body = (exclude ? text.slice(1) : text).replace(/^(\.\/|\/)+/, '');
  if (body.endsWith('/')) body = `${body}**`;
  const re = new RegExp(`^${toRegExp(body)}$`, 'su');
  return { text, exclude, test: (path) => re.test(path) };
}

const literal = (s: string): string => s.replace(/[.+^${}()|[\]\\*?]/g, '\\$&');

/** The pattern as a regular expression's source, segment by segment; `**` runs count as one. */
function toRegExp(body: string): string {
  const segments = body.split('/').filter((seg, i, all) => seg !== '**' || all[i - 1] !== '**');
  let out = '';
  for (const [index, seg] of segments.entries()) {
    const first = index === 0;
    const last = index === segments.length - 1;
    if (seg === '**') {
      // `**` everything, `**/x` x in any folder (the root's too), `a/**/x` x in a or below, `a/**` all below a.
      out += first ? (last ? '.*' : '(?:.*/)?') : last ? '/.+' : '/(?:.*/)?';
      continue;
    }
    if (!first && segments[index - 1] !== '**') out += '/';
    out += [...seg].map((c) => (c === '*' ? '[^/]*' : c === '?' ? '[^/]' : literal(c))).join('');
  }
  return out;
}

/**
 * The file is chosen: some pattern that takes files in matches it, and none that leaves out does.
 * Only `!` patterns: everything they do not leave out.
 */
export function chosen(patterns: readonly Pattern[], path: string): { chosen: boolean; by?: Pattern } {
  const takers = patterns.filter((p) => !p.exclude);
  const taken = takers.length === 0 || takers.some((p) => p.test(path));
  if (!taken) return { chosen: false };
  const by = patterns.find((p) => p.exclude && p.test(path));
  return by === undefined ? { chosen: true } : { chosen: false, by };
}
