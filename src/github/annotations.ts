// The failed steps' compiler messages (read over each step's whole log: src/pipeline/diagnostics.ts)
// as check annotations on the repository's files, each valid for GitHub whatever the build
// printed, and every message not annotated counted with the reason. What GitHub takes (its REST
// API, "Update a check run"): at most 50 annotations per request; `start_line` and `end_line`
// integers from 1; columns only on one line (start_line equal to end_line); a message of at most
// 64 KB; a path relative to the repository.
import type { Diagnostic, FoundDiagnostics } from '../base/outcome.ts';
import { cut, isControl } from '../base/text.ts';
import { KEPT_IN_ALL, KEPT_PER_STEP } from '../pipeline/diagnostics.ts';

/** GitHub takes at most 50 annotations per request. */
export const ANNOTATIONS_MAX = 50;
/** The largest line or column sent: GitHub documents none, and a signed 32-bit integer is the most any file has. */
export const LINE_MAX = 2 ** 31 - 1;
/** An annotation's message in UTF-8 bytes at most: GitHub takes 64 KB, a reader of the pull request far less. */
export const MESSAGE_BYTES = 4096;

export interface Annotation {
  path: string;
  start_line: number;
  end_line: number;
  start_column?: number;
  end_column?: number;
  annotation_level: 'failure' | 'warning';
  message: string;
}

/** What the check sends: the annotations, how many messages were not annotated, and a sentence saying why. */
export interface Notes {
  annotations: Annotation[];
  more: number;
  /** Plain text, undefined when the failed steps printed no compiler message. */
  said: string | undefined;
}

/**
 * Where bk-ci builds, as an absolute path starts (docs/seeing-the-build.md, "Compiler messages on
 * the pull request"): its Docker build machines' workspace (`/data/devops/workspace`, or
 * `/data/landun/workspace` in Tencent's edition), and a build agent's default workspace for the
 * pipeline (`<agent>/workspace/<pipeline id>/src`; any pipeline's when the step does not know it).
 */
export function workspaceRoots(pipelineId: string | undefined): RegExp[] {
  const id = pipelineId ? pipelineId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : 'p-[^/]+';
  return [/^\/data\/(?:devops|landun)\/workspace\//, new RegExp(`^(?:/[^/]+)*?/workspace/${id}/src/`)];
}

/** The segments of a relative path with `.` and `..` resolved; undefined when it leaves its root or names none. */
function resolved(path: string): string | undefined {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..') out.push(part);
    else if (out.pop() === undefined) return undefined;
  }
  return out.length === 0 ? undefined : out.join('/');
}

/** A path as a slash-separated one: a file:// URI decoded, backslashes made slashes, a drive letter dropped. */
function slashed(printed: string): string | undefined {
  let path = printed;
  const uri = /^file:\/\/(.*)/s.exec(path);
  if (uri !== null) {
    try {
      path = decodeURIComponent(uri[1] ?? '');
    } catch {
      return undefined;
    }
  }
  return path.replace(/\\/g, '/').replace(/^\/?[A-Za-z]:\//, '/');
}

/**
 * The repository's path of a file a build printed, or undefined. A path names a file of the
 * repository only when it is that file: relative (to the workspace the compiler ran in), or
 * absolute under one of `roots`, and what remains is a file of the checkout (`isFile`). A path
 * elsewhere (node_modules, a vendored copy, cargo's registry, /usr/include) is never matched by
 * its tail.
 */
export function repositoryPath(
  printed: string,
  isFile: (relative: string) => boolean,
  roots = workspaceRoots(undefined),
): string | undefined {
  const path = slashed(printed);
  if (path === undefined) return undefined;
  const rests = path.startsWith('/')
    ? roots
        .map((r) => r.exec(path))
        .filter((m) => m !== null)
        .map((m) => path.slice(m[0].length))
    : [path];
  // GitHub's path is the repository's own form: `/` between names, no control character.
  return rests.map(resolved).find((path) => path !== undefined && !/[\p{Cc}\p{Cs}]/u.test(path) && isFile(path));
}

/** Text as GitHub takes it: no control character but tabs, no lone surrogate, at most `bytes` in UTF-8. */
export function fitBytes(text: string, bytes: number): string {
  const clean = [...text.toWellFormed()].map((c) => (c !== '\t' && isControl(c.charCodeAt(0)) ? ' ' : c)).join('');
  if (Buffer.byteLength(clean) <= bytes) return clean;
  let out = '';
  let used = Buffer.byteLength('…');
  for (const char of clean) {
    used += Buffer.byteLength(char);
    if (used > bytes) break;
    out += char;
  }
  return `${out}…`;
}

/** A line or column GitHub takes. */
const isPosition = (n: number | undefined): n is number => Number.isSafeInteger(n) && Number(n) >= 1 && Number(n) <= LINE_MAX;

/** The annotation of a diagnostic on the repository's file `path`: valid whatever the build printed. */
function annotation(diagnostic: Diagnostic, path: string): Annotation {
  const message = fitBytes(diagnostic.message.trim(), MESSAGE_BYTES).trim();
  return {
    path,
    start_line: diagnostic.line,
    end_line: diagnostic.line,
    // One line, so columns may be given: GitHub refuses them only across lines.
    ...(isPosition(diagnostic.column) ? { start_column: diagnostic.column, end_column: diagnostic.column } : {}),
    annotation_level: diagnostic.level,
    message: message === '' ? (diagnostic.level === 'failure' ? 'error' : 'warning') : message,
  };
}

interface Tally {
  annotated: number;
  badLine: number;
  outside: number;
  outsideExample: string | undefined;
  repeated: number;
  beyond: number;
  unkept: number;
}

/**
 * The failed steps' messages as annotations: those on files of the repository, each once, errors
 * before warnings (the first 50), and a count, by reason, of every other message found.
 */
export function annotationsOf(found: FoundDiagnostics | undefined, place: (printed: string) => string | undefined): Notes {
  const all = found?.found ?? [];
  const tally: Tally = {
    annotated: 0,
    badLine: 0,
    outside: 0,
    outsideExample: undefined,
    repeated: 0,
    beyond: 0,
    unkept: found?.unkept ?? 0,
  };
  const seen = new Set<string>();
  const placed: Annotation[] = [];
  for (const diagnostic of all) {
    if (!isPosition(diagnostic.line)) {
      tally.badLine++;
      continue;
    }
    const path = place(diagnostic.path);
    if (path === undefined) {
      tally.outside++;
      tally.outsideExample ??= diagnostic.path;
      continue;
    }
    const note = annotation(diagnostic, path);
    const key = JSON.stringify([note.path, note.start_line, note.start_column, note.message]);
    if (seen.has(key)) tally.repeated++;
    else placed.push(note);
    seen.add(key);
  }
  const ordered = [...placed.filter((a) => a.annotation_level === 'failure'), ...placed.filter((a) => a.annotation_level !== 'failure')];
  const annotations = ordered.slice(0, ANNOTATIONS_MAX);
  tally.annotated = annotations.length;
  tally.beyond = ordered.length - annotations.length;
  const total = all.length + tally.unkept;
  return { annotations, more: total - tally.annotated, said: total === 0 ? undefined : sentence(total, tally) };
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** What the check's text and the job summary say of the messages: how many, how many annotated, and why not the others. */
function sentence(total: number, tally: Tally): string {
  const found = `${plural(total, 'compiler message')} in the failed steps' logs`;
  if (tally.annotated === total) return `${found}, all annotated on the check run.`;
  const why = [
    ...(tally.beyond > 0 ? [`${tally.beyond} beyond the ${ANNOTATIONS_MAX} GitHub takes in one update`] : []),
    ...(tally.outside > 0
      ? [`${tally.outside} on files outside the repository's checkout (e.g. ${cut(tally.outsideExample ?? '', 200)})`]
      : []),
    ...(tally.repeated > 0 ? [`${tally.repeated} repeated`] : []),
    ...(tally.badLine > 0 ? [`${tally.badLine} with a line number no file has (0, or beyond ${LINE_MAX})`] : []),
    ...(tally.unkept > 0 ? [`${tally.unkept} not kept (the first ${KEPT_PER_STEP} of a step are, ${KEPT_IN_ALL} in all)`] : []),
  ];
  return `${found}: ${tally.annotated} annotated on the check run; not annotated: ${why.join('; ')}.`;
}
