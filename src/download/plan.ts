// Which of the build's files come into the runner, and where each lands: its path below the
// build's artifact root, checked so that nothing from bk-ci can lead outside download-path. Pure:
// a table of bk-ci's records in, the plan out (test/unit/download-plan.test.ts). docs/download.md.

import type { FileInfo } from '../bkci/artifacts.ts';
import type { BuildRef } from '../bkci/builds.ts';
import { chosen, type Pattern } from './glob.ts';

/** One file to bring in. */
export interface PlannedFile {
  /** bk-ci's name and full path (what user_download_url takes), its type and listed size. */
  name: string;
  path: string;
  type: string;
  size: number | undefined;
  /** Where it lands below download-path: `/`-separated, checked (localProblem). */
  local: string;
}

/** A file not brought in, and why, in words. */
export interface LeftOut {
  path: string;
  why: string;
}

export interface Plan {
  files: PlannedFile[];
  /** Folders bk-ci lists (`folder: true`, or a path ending in `/`): never downloaded. */
  folders: string[];
  /** Chosen, but their path would not stay inside download-path: none of them is written. */
  refused: LeftOut[];
  /** Left out by a `!` pattern. */
  excluded: LeftOut[];
  /** How many files no pattern chose. */
  unchosen: number;
  /** Patterns that take files in but matched none of the build's files. */
  empty: string[];
  /** Every file's path below the artifact root, for a message that names what the build has. */
  all: string[];
}

/**
 * A file's path below the build's artifact root, as bk-ci's full path gives it: what follows the
 * build's own folder (`{pipelineId}/{buildId}/`, `/p-1/b-2/app/a.ipa` in realm bkrepo,
 * `bk-archive/demo/p-1/b-2/app/a.ipa` in realm local), else (the custom repository) the path
 * below the repository's root. Not checked here: see localProblem.
 */
export function belowRoot(fullPath: string, build: BuildRef): string {
  const segments = fullPath.split('/');
  const at = segments.findIndex(
    (s, i) => i > 0 && s === build.id && (build.pipelineId === undefined || segments[i - 1] === build.pipelineId),
  );
  if (at !== -1) return segments.slice(at + 1).join('/');
  const custom = `bk-custom/${build.projectId}/`;
  const trimmed = fullPath.replace(/^\/+/, '');
  return trimmed.startsWith(custom) ? trimmed.slice(custom.length) : trimmed;
}

const isControl = (char: string): boolean => {
  const code = char.codePointAt(0) ?? 0;
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
};

/**
 * Why the path would not stay a file inside download-path on any runner (Linux, macOS, Windows),
 * or undefined when it does. Checked as text, before any file system sees it.
 */
export function localProblem(local: string): string | undefined {
  if (local === '') return 'it names no file below the artifact root';
  if ([...local].some(isControl)) return 'it holds a control character';
  if (local.includes('\\')) return 'it holds a backslash, a folder separator on Windows';
  if (local.startsWith('/')) return 'it is an absolute path';
  const segments = local.split('/');
  // Windows reads `C:` at the start of any name as a drive, whatever comes before it.
  if (segments.some((s) => /^[A-Za-z]:/.test(s))) return 'it holds a drive letter (C:), a drive on Windows';
  if (segments.includes('..')) return 'it holds "..", which leads out of its folder';
  if (segments.includes('.')) return 'it holds ".", a folder that is no folder';
  if (segments.includes('')) return 'it holds an empty folder name (//)';
  // Windows drops a name's trailing dots and spaces (`.. ` is `..` there) and reads what follows a
  // colon as a stream of the name before it (`..:` is a stream of `..`).
  if (segments.some((s) => /^[. ]+$|^[. ]*:/.test(s))) return 'it holds a name of only dots and spaces, which Windows reads as another';
  return undefined;
}

/** Two paths one runner's file system may take for the same: Windows and macOS ignore case, macOS normalises Unicode. */
const sameOnDisk = (local: string): string => local.normalize('NFC').toLowerCase();

/** The plan: the files the patterns choose, each with its checked local path; what is left out and why. */
export function planDownload(records: readonly FileInfo[], build: BuildRef, patterns: readonly Pattern[]): Plan {
  const matched = new Set<Pattern>();
  const plan: Omit<Plan, 'empty'> = { files: [], folders: [], refused: [], excluded: [], unchosen: 0, all: [] };
  const candidates: PlannedFile[] = [];
  for (const file of records) {
    if (file.folder === true || file.fullPath.endsWith('/')) {
      plan.folders.push(file.fullPath);
      continue;
    }
    const local = belowRoot(file.fullPath, build);
    plan.all.push(local);
    for (const pattern of patterns) if (!pattern.exclude && pattern.test(local)) matched.add(pattern);
    const choice = chosen(patterns, local);
    if (!choice.chosen) {
      if (choice.by === undefined) plan.unchosen++;
      else plan.excluded.push({ path: file.fullPath, why: `left out by ${choice.by.text}` });
      continue;
    }
    const problem = localProblem(local);
    if (problem !== undefined) plan.refused.push({ path: file.fullPath, why: `refused: ${problem}` });
    else candidates.push({ name: file.name, path: file.fullPath, type: file.artifactoryType ?? '', size: file.size ?? undefined, local });
  }
  const clash = clashes(candidates);
  for (const candidate of candidates) {
    const other = clash.get(candidate);
    if (other === undefined) plan.files.push(candidate);
    else plan.refused.push({ path: candidate.path, why: `refused: ${other}` });
  }
  return { ...plan, empty: patterns.filter((p) => !p.exclude && !matched.has(p)).map((p) => p.text) };
}

/**
 * The files that would land on one local path (or on a folder another needs), each with why: none
 * of them is written, since which one was meant cannot be told.
 */
function clashes(files: readonly PlannedFile[]): Map<PlannedFile, string> {
  const byKey = new Map<string, PlannedFile[]>();
  for (const file of files) byKey.set(sameOnDisk(file.local), [...(byKey.get(sameOnDisk(file.local)) ?? []), file]);
  const out = new Map<PlannedFile, string>();
  for (const group of byKey.values()) {
    if (group.length < 2) continue;
    for (const file of group)
      out.set(
        file,
        `it would land on the same local file as ${group
          .filter((g) => g !== file)
          .map((g) => g.path)
          .join(', ')}`,
      );
  }
  for (const file of files) {
    const parts = sameOnDisk(file.local).split('/');
    for (let index = 1; index < parts.length; index++) {
      const folder = byKey.get(parts.slice(0, index).join('/'));
      if (folder === undefined) continue;
      out.set(
        file,
        `its folder ${file.local.split('/').slice(0, index).join('/')} is a file of the build (${folder.map((g) => g.path).join(', ')})`,
      );
      for (const other of folder) out.set(other, `it would stand where ${file.path} needs a folder`);
    }
  }
  return out;
}
