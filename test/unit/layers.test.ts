import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/dist-runner.ts';

/**
 * The house, top-down: an import may point to its own layer or lower, never up. Leaves (errors,
 * text, clock, …) import nothing above themselves either.
 */
const LAYERS: [string, number][] = [
  ['index.ts', 7],
  ['main.ts', 6],
  ['operations/', 5],
  // GitHub's side of a build (the check run): above the build it shows, loaded only by the build operations.
  ['github/', 4.5],
  ['pipeline/', 4],
  // The step's inputs, each declared once: checked against what bk-ci knows (gateways, project fields).
  ['inputs/', 3.5],
  // The build's files into the runner: below the inputs (which check its patterns), on bk-ci's client.
  ['download/', 3.25],
  ['bkci/', 3],
  ['http/', 2],
  ['wait/', 2],
  ['runner/', 2],
  ['base/', 1],
  ['', 1],
];
const layerOf = (file: string): number => LAYERS.find(([prefix]) => file.startsWith(prefix))?.[1] ?? 1;

describe('the import graph of src/', () => {
  it('has no edge from a lower layer up to a higher one, and no cycle through a folder', async () => {
    const src = join(ROOT, 'src');
    const files = (await readdir(src, { recursive: true })).filter((f) => f.endsWith('.ts'));
    const edges: [string, string][] = [];
    for (const file of files) {
      const text = await readFile(join(src, file), 'utf8');
      for (const m of text.matchAll(/from '(\.{1,2}\/[^']+)'|import\('(\.{1,2}\/[^']+)'\)/g)) {
        const target = relative(src, normalize(join(src, dirname(file), m[1] ?? m[2] ?? '')));
        edges.push([file, target]);
      }
    }
    expect(edges.length).toBeGreaterThan(50);
    const upward = edges.filter(([from, to]) => layerOf(to) > layerOf(from)).map(([from, to]) => `${from} -> ${to}`);
    expect(upward).toEqual([]);
    // Peers in different folders of one layer do not import each other.
    const sideways = edges
      .filter(([from, to]) => layerOf(to) === layerOf(from) && layerOf(from) > 1 && dirname(from) !== dirname(to))
      .map(([from, to]) => `${from} -> ${to}`);
    expect(sideways).toEqual([]);
    // Nothing is left loose at the root but the entry and run(): every module has a room.
    expect(files.filter((f) => !f.includes('/')).sort()).toEqual(['index.ts', 'main.ts']);
  });
});
