// docs/developing.md's "How it is built" is the map of the code: every file it names exists, and
// every module of src/ and emulator/ is named in it (an operation's module by "one module per
// operation", named for its operation). A file added, moved or renamed without the map fails here.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REGISTRY } from '../../src/operations/registry.ts';
import { ROOT } from '../support/dist-runner.ts';

/** The files a section names, resolved, and the names it gives that lead to no file. */
interface DocMap {
  named: Set<string>;
  missing: string[];
}

/** A path in full is any file of the repository; a bare name, a module of the folder read or the root's config. */
const exists = (files: ReadonlySet<string>, path: string, full: boolean): boolean =>
  full ? existsSync(join(ROOT, path)) : files.has(path);

/**
 * Reads the section as a reader does: `src/pipeline/` (or `emulator/`) opens a folder, and a bare
 * `watch.ts` after it is that folder's; a path in full (`src/operations/build-follow.ts`) is its own, and a bare
 * name after it may be of its folder too (`start-build.ts` after it); `rollup.config.mjs` is the root's.
 */
function mapOf(section: string, files: ReadonlySet<string>): DocMap {
  const named = new Set<string>();
  const missing: string[] = [];
  let folder = 'src/';
  let aside: string | undefined;
  for (const match of section.matchAll(/^### The emulator|`([\w./-]+)`/gm)) {
    const name = match[1];
    if (name === undefined) {
      folder = 'emulator/';
      aside = undefined;
    } else if (/^(src\/[\w-]+|emulator)\/$/.test(name)) {
      folder = name;
      aside = undefined;
    } else if (/\.(ts|mjs)$/.test(name)) {
      const places = name.includes('/') ? [name] : [folder + name, ...(aside === undefined ? [] : [aside + name]), name];
      const found = places.filter((place) => exists(files, place, name.includes('/')));
      if (found.length === 0) missing.push(name.includes('/') ? name : `${name} (in ${folder})`);
      for (const place of found) named.add(place);
      if (name.includes('/')) aside = name.slice(0, name.lastIndexOf('/') + 1);
    }
  }
  return { named, missing };
}

/** The TypeScript modules of a folder, as paths from the root. */
async function modulesOf(folder: string): Promise<string[]> {
  const names = await readdir(join(ROOT, folder), { recursive: true });
  return names.filter((name) => name.endsWith('.ts')).map((name) => `${folder}${name.replaceAll('\\', '/')}`);
}

const doc = await readFile(join(ROOT, 'docs', 'developing.md'), 'utf8');
const section = doc.slice(doc.indexOf('## How it is built'), doc.indexOf('\n## ', doc.indexOf('## How it is built') + 1));
const modules = [...(await modulesOf('src/')), ...(await modulesOf('emulator/'))];
const files = new Set([...modules, 'rollup.config.mjs']);
const operationModules = new Set(Object.keys(REGISTRY).map((name) => `src/operations/${name}.ts`));

describe('docs/developing.md, How it is built', () => {
  const map = mapOf(section, files);

  it('names only files that exist', () => {
    expect(map.missing).toEqual([]);
  });

  it('names every module of src/ and emulator/', () => {
    expect(modules.filter((path) => !map.named.has(path) && !operationModules.has(path))).toEqual([]);
  });

  it.each([
    ['`src/http/`: `caller.ts`', ['src/http/caller.ts'], []],
    ['`src/http/`: `nowhere.ts`', [], ['nowhere.ts (in src/http/)']],
    ['`src/wait/` (`poll.ts`); `src/runner/` (`streams.ts`)', ['src/wait/poll.ts', 'src/runner/streams.ts'], []],
    [
      '`src/pipeline/`: `src/operations/build-follow.ts`; `start-build.ts`',
      ['src/operations/build-follow.ts', 'src/operations/start-build.ts'],
      [],
    ],
    ['`src/bkci/`: `poll.ts`', [], ['poll.ts (in src/bkci/)']],
    ['`emulator/`, beside `src/`: `server.ts`', ['emulator/server.ts'], []],
    ['### The emulator\n`server.ts`, `rollup.config.mjs`', ['emulator/server.ts', 'rollup.config.mjs'], []],
  ])('reads %j as naming %j, missing %j', (text, named, missing) => {
    const some = mapOf(text, files);
    expect([...some.named]).toEqual(named);
    expect(some.missing).toEqual(missing);
  });
});
