// Every example of the action in README.md and the pages under docs/ runs, as written, against
// the emulator: run() in this process on the shared clock, so a build's wait costs no real time.
// The examples are read FROM those pages (test/support/readme-examples.ts): a step added there
// later is run here too. The shell steps around them (`run:`) are not run; the outputs they read
// from the action's step (`steps.<id>.outputs.<name>`) must be set. What the test changes is said
// by explicit rules (EXPRESSIONS, the two inputs it points elsewhere) and what it cannot run is
// skipped by a rule with its reason in the test's name. test/dist/readme-examples.test.ts runs a
// sample of them through the built action.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import {
  cannotRun,
  examples,
  expectRanAsWritten,
  inputsOf,
  outputsRead,
  readmeWorld,
  shellStepsAfter,
  viaGateway,
  withOf,
} from '../support/readme-examples.ts';

afterAll(cleanupRuns);

const all = await examples();

describe('every example of the action in README.md and docs/ runs against the emulator', () => {
  it('finds the examples: request, builds, projects, callbacks, tokens, re-signing, the gateway', () => {
    const operations = new Set(all.map((e) => withOf(e)?.operation));
    for (const o of ['request', 'start-build', 'sign-detail', 'create-project', 'update-project', 'create-callbacks', 'get-token'])
      expect(operations).toContain(o);
    expect(all.filter((e) => withOf(e)?.operation === 'request')).toHaveLength(3);
  });

  for (const e of all) {
    const skip = cannotRun(e);
    if (skip !== undefined) {
      it.skip(`${e.title}: not run, because ${skip}`, () => undefined);
      continue;
    }
    it(`${e.title}: ${String(withOf(e)?.operation)}`, async () => {
      // Its own front door when it asks for one: the BlueKing API Gateway in front of the emulator.
      const w = await readmeWorld({ gateway: viaGateway(e) });
      onTestFinished(() => w.world.emu.close());
      const r = await runInProcess({ inputs: inputsOf(e, w), clock: w.world.clock });
      expectRanAsWritten(expect, e, r);
    });
  }
});

describe('the shell steps after a download run as written, with the files it wrote', () => {
  /** GitHub's expressions in those steps' env, besides the step's outputs. */
  const GITHUB = { 'github.token': 'ghs_readme', 'github.repository': 'octo/app', 'github.ref_name': 'v1.10' } as Record<string, string>;

  for (const e of all.filter((x) => outputsRead(x).includes('downloaded'))) {
    it(`${e.title}: each file of downloaded reaches the command as one argument`, async () => {
      const w = await readmeWorld({ gateway: viaGateway(e) });
      onTestFinished(() => w.world.emu.close());
      const r = await runInProcess({ inputs: inputsOf(e, w), clock: w.world.clock });
      expectRanAsWritten(expect, e, r);
      const files = (JSON.parse(r.outputs.downloaded ?? '[]') as { file: string }[]).map((f) => f.file);
      // A name with a space, as an app's display name gives its package: it stays one argument.
      expect(files.some((f) => f.includes(' '))).toBe(true);
      // The commands the steps call (gh, and any other not on this machine) record their arguments.
      const bin = await mkdtemp(join(tmpdir(), 'bkci-readme-bin-'));
      onTestFinished(() => rm(bin, { recursive: true, force: true }));
      const recorder = `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done >> "${bin}/args"\n`;
      await writeFile(join(bin, 'gh'), recorder, { mode: 0o755 });
      for (const step of shellStepsAfter(e)) {
        const env = Object.fromEntries(
          Object.entries(step.env).map(([k, v]) => [
            k,
            v.replace(
              /\$\{\{\s*([^}]*?)\s*\}\}/g,
              (_, x: string) => GITHUB[x] ?? r.outputs[x.replace(`steps.${e.step.id}.outputs.`, '')] ?? '',
            ),
          ]),
        );
        const shell = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], {
          env: { PATH: `${bin}:${process.env.PATH}`, ...env },
          encoding: 'utf8',
        });
        expect(shell.status, shell.stderr).toBe(0);
      }
      const args = (await readFile(join(bin, 'args'), 'utf8')).trimEnd().split('\n');
      for (const file of files) expect(args).toContain(file);
    });
  }
});
