// src/'s rooms stand on each other in one order (docs/developing.md, How it is built): a module
// imports from its own room or from a room below it, never from one above or beside it, type-only
// imports, re-exports and dynamic imports counted (the graph of test/support/import-cycles.ts).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/dist-runner.ts';
import { importGraph } from '../support/import-cycles.ts';

/** The rooms from the top down; rooms on one line stand beside each other and import neither. */
const LAYERS: readonly (readonly string[])[] = [
  ['index.ts'],
  ['main.ts'],
  ['operations'],
  ['github'],
  ['pipeline'],
  ['inputs'],
  ['download'],
  ['bkci'],
  ['http', 'runner', 'wait'],
  ['base'],
];

const roomOf = (file: string): string => file.split(/[\\/]/)[0] ?? file;
const levelOf = (room: string): number => LAYERS.findIndex((rooms) => rooms.includes(room));

/** Each import that goes up or sideways: "from -> to"; a room the order does not know is one too. */
function against(graph: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [file, imports] of graph) {
    const from = roomOf(file);
    if (levelOf(from) < 0) out.push(`${file}: room ${from} is in no layer`);
    for (const target of imports) {
      const to = roomOf(target);
      if (to !== from && levelOf(to) <= levelOf(from)) out.push(`${file} -> ${target}`);
    }
  }
  return out;
}

describe("src/'s rooms", () => {
  it('import only from their own room or one below; nothing is loose at the root but the entry and run()', async () => {
    const graph = await importGraph(join(ROOT, 'src'));
    // The graph is read at all: src/ has hundreds of imports.
    expect([...graph.values()].flat().length).toBeGreaterThan(50);
    expect(against(graph)).toEqual([]);
    expect([...graph.keys()].filter((file) => !/[\\/]/.test(file)).sort()).toEqual(['index.ts', 'main.ts']);
  });

  it.each<[string, Record<string, string[]>, string[]]>([
    ['down is fine', { 'operations/a.ts': ['pipeline/b.ts', 'base/c.ts'], 'pipeline/b.ts': ['base/c.ts'] }, []],
    ['within a room is fine', { 'pipeline/a.ts': ['pipeline/b.ts'] }, []],
    ['up is not', { 'bkci/a.ts': ['pipeline/b.ts'] }, ['bkci/a.ts -> pipeline/b.ts']],
    ['beside is not', { 'http/a.ts': ['runner/b.ts'] }, ['http/a.ts -> runner/b.ts']],
    ['a new room must be placed', { 'extra/a.ts': ['base/b.ts'] }, ['extra/a.ts: room extra is in no layer']],
  ])('%s', (_, edges, found) => {
    expect(against(new Map(Object.entries(edges)))).toEqual(found);
  });
});
