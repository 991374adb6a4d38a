import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../src/operations/registry.ts';
import { ROOT } from '../support/dist-runner.ts';

// What a start reads of dist/ (its cold start): each file is a cost of its own, and an ES
// import of one of Node's modules makes Node read all its exports (some load more of Node).

const DIST = join(ROOT, 'dist');
// The operations on a build, which load the build room (watch.js) too; download-artifacts its download (download.js).
const BUILDS = ['start-build', 'build-status', 'review-build', 'retry-build', 'download-artifacts'];

/** A chunk's static imports, as rollup writes them at its top (minified: no spaces needed). */
const importsOf = (code: string): string[] =>
  [...code.matchAll(/(?:^|;)\s*import\s*(?:[\w$]+\s*,?\s*)?(?:\*\s*as\s*[\w$]+|\{[^}]*\})?\s*(?:from\s*)?["']([^"']+)["']/g)].map(
    (m) => m[1] ?? '',
  );

describe('dist/', () => {
  it("imports none of Node's own modules: each is taken with process.getBuiltinModule", async () => {
    const files = (await readdir(DIST)).filter((f) => f.endsWith('.js'));
    expect(files).toContain('index.js');
    for (const file of files) {
      const code = await readFile(join(DIST, file), 'utf8');
      const imports = importsOf(code);
      expect(
        imports.filter((i) => !i.startsWith('./')),
        `${file} imports`,
      ).toEqual([]);
    }
    expect(await readFile(join(DIST, 'index.js'), 'utf8')).toMatch(/process\.getBuiltinModule\("node:fs"\)/);
  });

  it('the start file takes none of the exports whose getters load more of Node (fs.promises, fs streams, Web Crypto)', async () => {
    const code = await readFile(join(DIST, 'index.js'), 'utf8');
    const getters: Record<string, string[]> = { fs: ['promises', 'ReadStream', 'WriteStream'], crypto: ['webcrypto', 'subtle'] };
    for (const m of code.matchAll(/const\{([^}]*)\}=process\.getBuiltinModule\("node:([\w/]+)"\)/g)) {
      const names = (m[1] ?? '').split(',').map((pair) => pair.split(':')[0]);
      expect(
        names.filter((n) => getters[m[2] ?? '']?.includes(n ?? '')),
        `node:${m[2]}`,
      ).toEqual([]);
    }
    expect(code).not.toMatch(/\.(promises|webcrypto|ReadStream)\b/);
  });

  it('a step that runs an operation other than a build reads the start file and its own (create-project also update-project’s)', async () => {
    for (const name of OPERATION_NAMES.filter((n) => !BUILDS.includes(n))) {
      const code = await readFile(join(DIST, `${name}.js`), 'utf8');
      const others = importsOf(code).filter((i) => i !== './index.js' && !OPERATION_NAMES.some((n) => i === `./${n}.js`));
      expect(others, `${name}.js imports`).toEqual([]);
    }
    // The start file imports no other file: every operation's is loaded when the step runs it.
    expect(importsOf(await readFile(join(DIST, 'index.js'), 'utf8'))).toEqual([]);
  });

  it("GitHub's API (github.js: @actions/github, Octokit) loads only with check: by one dynamic import, from the check's own file", async () => {
    const files = (await readdir(DIST)).filter((f) => f.endsWith('.js'));
    const code = Object.fromEntries(await Promise.all(files.map(async (f) => [f, await readFile(join(DIST, f), 'utf8')] as const)));
    /** What loads with a file: its static imports, and theirs. */
    const loads = (file: string, seen = new Set<string>()): Set<string> => {
      if (seen.has(file)) return seen;
      seen.add(file);
      for (const i of importsOf(code[file] ?? '')) loads(i.replace('./', ''), seen);
      return seen;
    };
    for (const start of ['index.js', 'get-project.js', 'start-build.js', 'build-status.js'])
      expect(
        [...loads(start)].filter((f) => f === 'github.js' || f === 'check.js'),
        start,
      ).toEqual([]);
    const importers = (target: string): string[] => files.filter((f) => (code[f] ?? '').includes(`import("./${target}")`));
    expect(importers('github.js')).toEqual(['check.js']);
    // The check's loader (src/operations/build-check.ts) is in the build room's file, with the one way to follow a build.
    expect(importers('check.js')).toEqual(['watch.js']);
    expect(code['github.js']).toMatch(/api\.github\.com/);
  });
});

describe('the download', () => {
  it("loads only when a step asks for the build's files: download.js by one dynamic import from the build room, and with download-artifacts", async () => {
    const files = (await readdir(DIST)).filter((f) => f.endsWith('.js'));
    const code = Object.fromEntries(await Promise.all(files.map(async (f) => [f, await readFile(join(DIST, f), 'utf8')] as const)));
    const staticImporters = files.filter((f) => importsOf(code[f] ?? '').includes('./download.js'));
    expect(staticImporters).toEqual(['download-artifacts.js']);
    expect(files.filter((f) => (code[f] ?? '').includes('import("./download.js")'))).toEqual(['watch.js']);
    // What streams, hashes and writes files is there, and nowhere a start reads.
    expect(code['download.js']).toMatch(/X-Checksum-Sha256/);
    for (const f of ['index.js', 'get-project.js', 'start-build.js', 'watch.js']) expect(code[f], f).not.toMatch(/X-Checksum-Sha256/);
  });
});

describe('one undici', () => {
  it('GitHub’s client uses the undici the action carries: only undici.js holds undici’s code', async () => {
    const files = (await readdir(DIST)).filter((f) => f.endsWith('.js'));
    const holders: string[] = [];
    for (const file of files) if ((await readFile(join(DIST, file), 'utf8')).includes('undici:request:create')) holders.push(file);
    expect(holders).toEqual(['undici.js']);
    expect(importsOf(await readFile(join(DIST, 'github.js'), 'utf8'))).toContain('./undici.js');
  });
});
