// The import graph of a folder's TypeScript modules, and the circles in it: every edge counts,
// `import type` included, and `export … from` and a dynamic `import()` too. Imports are found by
// TypeScript's own scanner (ts.preProcessFile: comments and strings are not imports), among the
// relative imports inside the folder; each circle is named by a shortest path from one of its
// modules back to it. Used by test/unit/import-cycles.test.ts over src/ (and any folder added there).
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';

/** Each module of `folder` (paths relative to it) and the modules of the folder it imports, in any way. */
export async function importGraph(folder: string): Promise<Map<string, string[]>> {
  const files = (await readdir(folder, { recursive: true })).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).sort();
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = await readFile(join(folder, file), 'utf8');
    const imported = ts.preProcessFile(text, true, true).importedFiles.map((i) => i.fileName);
    const inside = imported
      .filter((name) => name.startsWith('./') || name.startsWith('../'))
      .map((name) => relative(folder, normalize(join(folder, dirname(file), name))))
      .filter((target) => files.includes(target));
    graph.set(file, [...new Set(inside)]);
  }
  return graph;
}

/**
 * The import circles among a folder's modules: one for each set of modules that reach each other
 * (Tarjan's strongly connected components), named as a path through them back to its start.
 */
export async function importCycles(folder: string): Promise<string[][]> {
  const graph = await importGraph(folder);
  return stronglyConnected(graph)
    .filter((group) => group.length > 1 || (graph.get(group[0] ?? '') ?? []).includes(group[0] ?? ''))
    .map((group) => cycleThrough(group, graph));
}

/** Tarjan's algorithm: the graph's strongly connected components. */
function stronglyConnected(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
      onStack.delete(top);
      group.push(top);
      if (top === node) break;
    }
    groups.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups;
}

/** A path from the group's first module through others of the group back to it (a breadth-first search inside the group). */
function cycleThrough(group: readonly string[], graph: Map<string, string[]>): string[] {
  const [start = ''] = group;
  const from = new Map<string, string>();
  const queue = [start];
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    for (const next of graph.get(node) ?? []) {
      if (next === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = from.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (group.includes(next) && !from.has(next)) {
        from.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}
