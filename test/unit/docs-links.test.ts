// Every relative link in README.md, the pages under docs/ and emulator/README.md leads somewhere:
// to a file of the repository and, with a #fragment, to a heading of that page (as GitHub names
// its anchors), and every file of this repository they name in code exists (a move or rename
// that leaves a page behind fails here). Every page under docs/ can be reached from the README by
// following links. And the code's comments cite pages a reader of the repository can open: docs/
// pages that exist.
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/dist-runner.ts';
import { userPages } from '../support/user-docs.ts';

/** GitHub's anchor for a heading: lower case, punctuation other than `-` and `_` dropped, spaces as `-`. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown page: one per heading outside code fences, repeats numbered as GitHub does. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.*)$/gm)) {
    const base = anchorOf(m[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The relative links of a page (inline `[text](target)`), outside code. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '').filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

const pages = [...(await userPages()), { path: 'emulator/README.md', text: await readFile(join(ROOT, 'emulator', 'README.md'), 'utf8') }];

/** Whether `path#fragment` (relative to the root) is a file and, with a fragment, a heading of that Markdown page. */
async function problemWith(target: string, fragment: string | undefined): Promise<string | undefined> {
  if (relative(ROOT, target).startsWith('..') || !existsSync(target)) return 'no such file';
  if (fragment === undefined) return undefined;
  if (!statSync(target).isFile() || !target.endsWith('.md')) return 'a fragment on a page that is not Markdown';
  return anchorsOf(await readFile(target, 'utf8')).has(fragment) ? undefined : `no heading #${fragment}`;
}

describe('anchors as GitHub names them', () => {
  it.each([
    ['Quick start', 'quick-start'],
    ['Approve a bk-ci review from GitHub: `review-build`', 'approve-a-bk-ci-review-from-github-review-build'],
    [
      'See the build: its log, why it failed, its variables and artifacts, its reviews',
      'see-the-build-its-log-why-it-failed-its-variables-and-artifacts-its-reviews',
    ],
    ['Requests, retries and limits', 'requests-retries-and-limits'],
    ['X1 — a retry keeps the build id', 'x1--a-retry-keeps-the-build-id'],
  ])('%s → #%s', (heading, anchor) => {
    expect(anchorOf(heading)).toBe(anchor);
  });

  it('numbers a repeated heading and ignores headings in code', () => {
    expect([...anchorsOf('# A\n\n```sh\n# B\n```\n\n## A\n')]).toEqual(['a', 'a-1']);
  });
});

describe('the links of README.md and docs/', () => {
  it('finds the pages and their links', () => {
    expect(pages.map((p) => p.path)).toEqual(expect.arrayContaining(['README.md', 'docs/bkci/README.md', 'docs/troubleshooting.md']));
    expect(pages.flatMap((p) => linksOf(p.text)).length).toBeGreaterThan(30);
  });

  it.each(pages.map((p) => [p.path, p.text] as const))('every relative link of %s resolves', async (path, text) => {
    const broken: string[] = [];
    for (const link of linksOf(text)) {
      const [file = '', fragment] = link.split('#');
      const target = file === '' ? join(ROOT, path) : normalize(join(ROOT, dirname(path), decodeURIComponent(file)));
      const problem = await problemWith(target, fragment);
      if (problem !== undefined) broken.push(`${link}: ${problem}`);
    }
    expect(broken).toEqual([]);
  });

  it.each(pages.map((p) => [p.path, p.text] as const))('every file of the repository %s names in code exists', (_, text) => {
    // This repository's own: TypeScript, Markdown, JSON or a folder (bk-ci's sources are Kotlin, under core/).
    const named = [...text.matchAll(/`((?:src|emulator|test|scripts|docs|dist)\/(?:[\w./-]*\.(?:ts|mjs|md|json)|[\w./-]*\/))`/g)].map(
      (m) => m[1] ?? '',
    );
    expect(named.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  it('every page under docs/ is reached from README.md', () => {
    const byPath = new Map(pages.map((p) => [p.path, p.text]));
    const reached = new Set(['README.md']);
    const queue = ['README.md'];
    for (let page = queue.shift(); page !== undefined; page = queue.shift()) {
      for (const link of linksOf(byPath.get(page) ?? '')) {
        const file = link.split('#')[0] ?? '';
        if (file === '') continue;
        let target = relative(ROOT, normalize(join(ROOT, dirname(page), file)))
          .split('\\')
          .join('/');
        if (byPath.has(`${target}/README.md`)) target = `${target}/README.md`;
        if (byPath.has(target) && !reached.has(target)) {
          reached.add(target);
          queue.push(target);
        }
      }
    }
    expect(pages.map((p) => p.path).filter((p) => !reached.has(p))).toEqual([]);
  });
});

describe("the code's comments cite what a reader of the repository can open", () => {
  const sources = async (): Promise<[string, string][]> => {
    const found: [string, string][] = [];
    for (const dir of ['src', 'emulator', 'test', 'scripts']) {
      for (const f of await readdir(join(ROOT, dir), { recursive: true })) {
        const path = `${dir}/${f.split('\\').join('/')}`;
        if (/\.(ts|mjs|md)$/.test(path) && path !== 'test/unit/docs-links.test.ts')
          found.push([path, await readFile(join(ROOT, path), 'utf8')]);
      }
    }
    return found;
  };

  it('every docs/ page a source file names exists, with the heading it names', async () => {
    const broken: string[] = [];
    let cited = 0;
    for (const [path, text] of await sources()) {
      for (const m of text.matchAll(/(?<![\w./])docs\/[\w/.-]*\.md(?:#[\w-]+)?/g)) {
        cited++;
        const [file = '', fragment] = m[0].split('#');
        const problem = await problemWith(join(ROOT, file), fragment);
        if (problem !== undefined) broken.push(`${path}: ${m[0]}: ${problem}`);
      }
    }
    expect(broken).toEqual([]);
    expect(cited).toBeGreaterThan(20);
  });

  it('none cites a document outside the repository', async () => {
    const outside = new RegExp(
      [
        'bkci-(server-behaviour|builds-callbacks-gateway|logs-artifacts-review)\\.md',
        '\\.\\./shared/',
        'api-spec\\.md',
        'action-contract\\.md',
      ].join('|'),
    );
    const cites = (await sources()).flatMap(([path, text]) =>
      text.split('\n').flatMap((line, i) => (outside.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(cites).toEqual([]);
  });
});
