// No import circle in a folder's TypeScript modules (the finder: test/support/import-cycles.ts):
// a circle of type-only imports still makes two modules that cannot be read one without the
// other. The finder is shown to find circles of every kind of import, and no others.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/dist-runner.ts';
import { importCycles } from '../support/import-cycles.ts';

/** The folders kept free of import circles. */
const FOLDERS: [string, string][] = [
  ['src/', join(ROOT, 'src')],
  ['emulator/', join(ROOT, 'emulator')],
  ['scripts/', join(ROOT, 'scripts')],
];

describe('no import circle', () => {
  it.each(FOLDERS)('in %s, type-only imports, re-exports and dynamic imports counted', async (_, folder) => {
    expect((await importCycles(folder)).map((c) => c.join(' -> '))).toEqual([]);
  });
});

describe('the circle finder', () => {
  /** A folder of modules, each file's text given. */
  async function folderOf(files: Record<string, string>): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'bkci-cycles-'));
    for (const [name, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, name)), { recursive: true });
      await writeFile(join(dir, name), text);
    }
    return dir;
  }

  it.each<[string, Record<string, string>, string[][]]>([
    [
      'a circle of type-only imports',
      { 'a.ts': "import type { B } from './b.ts';\nexport type A = B;", 'b.ts': "import type { A } from './a.ts';\nexport type B = A;" },
      [['a.ts', 'b.ts', 'a.ts']],
    ],
    [
      'a re-export and a dynamic import, across folders',
      {
        'x/a.ts': "export { b } from '../y/b.ts';",
        'y/b.ts': "export const b = 1;\nexport const c = () => import('./c.ts');",
        'y/c.ts': "import '../x/a.ts';",
      },
      [['x/a.ts', 'y/b.ts', 'y/c.ts', 'x/a.ts']],
    ],
    ['a module that imports itself', { 'a.ts': "export * from './a.ts';" }, [['a.ts', 'a.ts']]],
    [
      'imports in comments and strings, and of packages, are none',
      {
        'a.ts': "// import './b.ts';\nconst s = \"import './b.ts'\";\nimport { z } from 'zod';\nexport { s, z };",
        'b.ts': "import './a.ts';",
      },
      [],
    ],
    ['a chain without a circle', { 'a.ts': "import './b.ts';", 'b.ts': "import './c.ts';", 'c.ts': '' }, []],
  ])('%s', async (_, files, cycles) => {
    expect(await importCycles(await folderOf(files))).toEqual(cycles);
  });
});
