// Compiler errors in a failed step's log, as check annotations on the repository's files. The
// forms read (README, "The build on the pull request"):
//   path:line[:col]: error|warning: message       gcc, clang, go vet, javac, kotlinc, tsc --pretty false with colons
//   path(line,col): error|warning CODE: message   tsc (TS…), msbuild/csc (CS…, MSB…)
//   error[CODE]: message  /  --> path:line:col    rustc (the location on the line after the message)
// A path names a file of the repository when, its workspace prefix dropped (bk-ci builds in a
// folder of its own), the rest is a file of the checkout: anything else stays text.
import { MESSAGE_LIMIT } from './text.ts';

export interface Diagnostic {
  path: string;
  line: number;
  column: number | undefined;
  level: 'failure' | 'warning';
  message: string;
}

const PATH = String.raw`((?:[A-Za-z]:)?[^\s:()"'<>|*?]+\.[\w]+)`;
const COLONS = new RegExp(String.raw`(?:^|\s)${PATH}:(\d+)(?::(\d+))?:\s*(?:fatal\s+)?(error|warning)(?:\s*\[[\w-]+\])?:\s*(.+)$`, 'i');
const PARENS = new RegExp(
  String.raw`(?:^|\s)${PATH}\((\d+)(?:,(\d+))?(?:,\d+,\d+)?\):\s*(error|warning)\s+([A-Z]+\d+):\s*(.+?)(?:\s+\[[^\]]*\])?$`,
  'i',
);
const RUST_HEAD = /^\s*(error|warning)(\[\w+\])?:\s*(.+)$/i;
const RUST_AT = new RegExp(String.raw`^\s*-->\s*${PATH}:(\d+):(\d+)\s*$`);

/** Terminal colours (ESC [ … m), which compilers print when they think a person reads them. */
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

const level = (word: string): 'failure' | 'warning' => (word.toLowerCase() === 'warning' ? 'warning' : 'failure');
const num = (s: string | undefined): number | undefined => (s === undefined ? undefined : Number(s));

/** Every diagnostic in the lines, in their order. */
export function parseDiagnostics(lines: readonly string[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  let rust: { level: 'failure' | 'warning'; message: string } | undefined;
  for (const raw of lines) {
    const line = raw.replace(COLOUR, '');
    const at = RUST_AT.exec(line);
    if (at !== null && rust !== undefined) {
      out.push({ path: at[1] ?? '', line: Number(at[2]), column: num(at[3]), ...rust });
      rust = undefined;
      continue;
    }
    const head = RUST_HEAD.exec(line);
    if (head !== null && !COLONS.test(line)) {
      rust = { level: level(head[1] ?? ''), message: `${head[2] ? `${head[2]} ` : ''}${head[3] ?? ''}`.trim() };
      continue;
    }
    const p = PARENS.exec(line);
    if (p !== null) {
      out.push({ path: p[1] ?? '', line: Number(p[2]), column: num(p[3]), level: level(p[4] ?? ''), message: `${p[5]}: ${p[6]}` });
      continue;
    }
    const c = COLONS.exec(line);
    if (c !== null) out.push({ path: c[1] ?? '', line: Number(c[2]), column: num(c[3]), level: level(c[4] ?? ''), message: c[5] ?? '' });
  }
  return out.filter((d) => d.line > 0);
}

/**
 * The repository's path for a path a build printed: the longest tail of it that `isFile` knows
 * (a workspace prefix such as /data/landun/workspace/ dropped), or undefined.
 */
export function repositoryPath(printed: string, isFile: (relative: string) => boolean): string | undefined {
  const parts = printed
    .replace(/\\/g, '/')
    .replace(/^[A-Za-z]:/, '')
    .split('/')
    .filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return undefined;
  for (let i = 0; i < parts.length; i++) {
    const candidate = parts.slice(i).join('/');
    if (isFile(candidate)) return candidate;
  }
  return undefined;
}

export interface Annotation {
  path: string;
  start_line: number;
  end_line: number;
  start_column?: number;
  end_column?: number;
  annotation_level: 'failure' | 'warning';
  message: string;
}

/** GitHub takes at most 50 annotations per request. */
export const ANNOTATIONS_MAX = 50;

/** The diagnostics on files of the repository as annotations (each once, at most 50), and how many more there were. */
export function annotationsOf(
  diags: readonly Diagnostic[],
  isFile: (relative: string) => boolean,
): { annotations: Annotation[]; more: number } {
  const seen = new Set<string>();
  const all: Annotation[] = [];
  for (const d of diags) {
    const path = repositoryPath(d.path, isFile);
    if (path === undefined) continue;
    const key = `${path}:${d.line}:${d.column ?? ''}:${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    all.push({
      path,
      start_line: d.line,
      end_line: d.line,
      ...(d.column === undefined ? {} : { start_column: d.column, end_column: d.column }),
      annotation_level: d.level,
      message: d.message.slice(0, MESSAGE_LIMIT),
    });
  }
  return { annotations: all.slice(0, ANNOTATIONS_MAX), more: Math.max(0, all.length - ANNOTATIONS_MAX) };
}
