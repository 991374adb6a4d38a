// bk-ci's wire is spelled only in src/bkci/ (docs/developing.md, How it is built): outside it, no
// module writes a query or a bk-ci path, nor calls an endpoint with its path's parameters; it
// calls bkci/'s typed reads and writes. The one exception is the request operation, whose `query`
// input is the user's, sent as given.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/dist-runner.ts';

/** The request operation: its `query` input (declared, read, sent as given) is the user's. */
const USERS_QUERY = new Set(['operations/request.ts', 'operations/registry.ts', 'inputs/request.ts']);

/** What spells bk-ci's wire in code. */
const WIRE: [string, RegExp][] = [
  ['a query', /\bquery\s*:/],
  ['a bk-ci path', /['"`]v[34]\//],
  ['an endpoint called', /\bendpoint\s*:/],
];

/** The code of a module without its comments (a comment may name what the code may not spell). */
const codeOf = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** Each place outside src/bkci/ that spells the wire: "file: what". */
function wireIn(path: string, text: string): string[] {
  const code = codeOf(text);
  return WIRE.filter(([, pattern]) => pattern.test(code)).map(([what]) => `${path}: ${what}`);
}

describe("bk-ci's wire, only in src/bkci/", () => {
  it('is spelled by no other module of src/', async () => {
    const names = (await readdir(join(ROOT, 'src'), { recursive: true })).map((name) => name.replaceAll('\\', '/'));
    const modules = names.filter((name) => name.endsWith('.ts') && !name.startsWith('bkci/') && !USERS_QUERY.has(name));
    const found = await Promise.all(modules.map(async (name) => wireIn(name, await readFile(join(ROOT, 'src', name), 'utf8'))));
    expect(found.flat()).toEqual([]);
  });

  it.each([
    ["api.call({ endpoint: E, query: { page: '1' } })", ['m.ts: a query', 'm.ts: an endpoint called']],
    ["onBoth('GET', 'v4/projects/{projectId}/build_status')", ['m.ts: a bk-ci path']],
    ['api.call({ endpoint: PROJECT_UPDATE, params: { projectId }, body })', ['m.ts: an endpoint called']],
    ['// the query: buildId, v4/projects\nreadBuildStatus(api, build);', []],
    ['/** `query:` in words */ const shown = 1;', []],
  ])('finds the wire in %j: %j', (text, found) => {
    expect(wireIn('m.ts', text)).toEqual(found);
  });
});
