import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, normalize, relative } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROOT } from '../support/dist-runner.ts';

// What every step pays before it runs its operation (its cold start): the modules of the
// start file build no zod schema at load but the shared settings; each operation's own schemas
// are built when its module loads, which is only when the step runs it. The start file is the one
// rollup.config.mjs makes: what src/index.ts reaches by static imports, and what the operations
// other than the builds reach, their own modules aside.

const SRC = join(ROOT, 'src');

/** Each module's static runtime imports (type-only imports load nothing). */
async function importGraph(): Promise<Map<string, string[]>> {
  const files = (await readdir(SRC, { recursive: true })).filter((f) => f.endsWith('.ts'));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = await readFile(join(SRC, file), 'utf8');
    const targets = [...text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from '(\.{1,2}\/[^']+)'/gm)].map((m) =>
      relative(SRC, normalize(join(SRC, dirname(file), m[1] ?? ''))),
    );
    graph.set(file, targets);
  }
  return graph;
}

const reach = (graph: Map<string, string[]>, from: string): Set<string> => {
  const seen = new Set<string>();
  const stack = [from];
  for (let m = stack.pop(); m !== undefined; m = stack.pop()) {
    if (seen.has(m)) continue;
    seen.add(m);
    stack.push(...(graph.get(m) ?? []));
  }
  return seen;
};

async function startFileModules(): Promise<string[]> {
  const graph = await importGraph();
  const operations = [...graph.keys()].filter((f) => /^operations\/[a-z-]+\.ts$/.test(f));
  // An operation's own module is one some module imports with import(): the registry, or a build operation its run.
  const dynamic = new Set<string>();
  for (const file of graph.keys()) {
    const text = await readFile(join(SRC, file), 'utf8');
    for (const m of text.matchAll(/import\('(\.{1,2}\/[^']+)'\)/g))
      dynamic.add(relative(SRC, normalize(join(SRC, dirname(file), m[1] ?? ''))));
  }
  const own = operations.filter((f) => dynamic.has(f));
  const out = reach(graph, 'index.ts');
  for (const op of own) {
    const reached = reach(graph, op);
    if (![...reached].some((m) => m.startsWith('pipeline/'))) for (const m of reached) out.add(m);
  }
  for (const op of own) out.delete(op);
  out.delete('index.ts'); // it runs the step
  return [...out].sort();
}

describe('the start file', () => {
  it('is what the operations but the builds share, and none of their own modules', async () => {
    const modules = await startFileModules();
    expect(modules).toEqual(expect.arrayContaining(['main.ts', 'operations/registry.ts', 'bkci/projects.ts', 'wait/poll.ts']));
    expect(modules.filter((m) => /^operations\/(get-project|sign-detail|start-build|create-callbacks)\.ts$/.test(m))).toEqual([]);
    expect(modules.filter((m) => m.startsWith('pipeline/'))).toEqual([]);
  });

  it('builds no zod schema when it loads but the shared settings', async () => {
    const modules = await startFileModules();
    // Counted by zod's own hook, run for each schema it builds; settings first, then the rest. A
    // z.lazy wrapper is what a module may build: its schema is built when first used.
    const script = [
      'let built = 0;',
      "globalThis.__zod_globalConfig = { postProcessor: (s) => { if (s._zod.def.type !== 'lazy') built++; } };",
      `await import(${JSON.stringify(join(SRC, 'inputs/settings.ts'))});`,
      'const settings = built;',
      ...modules.map((m) => `await import(${JSON.stringify(join(SRC, m))});`),
      'console.log(JSON.stringify({ settings, all: built }));',
    ].join('\n');
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
    const { settings, all } = z.object({ settings: z.number(), all: z.number() }).parse(JSON.parse(stdout));
    expect(settings).toBeGreaterThan(10); // the hook counts
    expect(all, 'a module of the start file builds a schema at load: wrap it in z.lazy').toBe(settings);
  });

  it('takes zod through src/base/schema.ts only, where it is configured before any schema is built', async () => {
    const graph = await importGraph();
    const direct: string[] = [];
    for (const file of graph.keys()) {
      const text = await readFile(join(SRC, file), 'utf8');
      if (/from 'zod'/.test(text) && file !== join('base', 'schema.ts')) direct.push(file);
    }
    expect(direct).toEqual([]);
  });
});
