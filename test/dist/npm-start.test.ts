// `npm start` as the README says to run it: its clean first run, the seeded build examples,
// --help, Ctrl-C, and against an emulator started on its own. Each scenario is a process (the
// script starts an emulator, runs dist/index.js and exits with its code). Ctrl-C runs through npm
// itself, since it is npm's process group that the terminal signals; the others run the script as
// npm's `start` does (`node scripts/demo.ts`, test/support/npm-script.ts; npm's own start costs
// about half a second of CPU each). --help runs first, beside a process that only loads the
// emulator's modules and the runner's harness: --help loads the operations' modules, and the two
// leave them all in Node's compile cache (the suite's, NODE_COMPILE_CACHE, vitest.config.ts) for
// the scenarios after them, which run at the same time (a load of scripts/demo.ts --help: 0.45 s
// of CPU without the cache, 0.22 s with it, on this machine).
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, it } from 'vitest';
import { OPERATION_NAMES } from '../../src/operations/registry.ts';
import { ROOT } from '../support/dist-runner.ts';
import { scriptCommand } from '../support/npm-script.ts';
import { worldForTest } from '../support/world.ts';

/** The emulator's modules and the runner's harness, loaded once into the compile cache while --help runs. */
let warmed: Promise<unknown>;
beforeAll(() => {
  const modules = ['emulator/server.ts', 'emulator/demo-world.ts', 'test/support/dist-runner.ts'].map((m) => join(ROOT, m));
  const warm = spawn(
    process.execPath,
    ['--input-type=module', '-e', `await Promise.all(${JSON.stringify(modules)}.map((m) => import(m)))`],
    { stdio: 'inherit' },
  );
  warmed = new Promise((resolve) => warm.on('close', resolve));
});

/**
 * `npm start --silent -- …args` (or with `npm: false`, its script `node scripts/demo.ts …args`) in
 * its own process group (as a terminal starts it), TMPDIR its own.
 */
async function npmStart(
  args: string[],
  o: { interruptWhen?: RegExp; npm?: boolean } = {},
): Promise<{ code: number | null; out: string; left: string[] }> {
  const temp = await mkdtemp(join(tmpdir(), 'bkci-npm-start-'));
  try {
    const [command, argv] = o.npm === false ? scriptCommand('start', args) : ['npm', ['start', '--silent', '--', ...args]];
    const child = spawn(command, argv, {
      cwd: ROOT,
      env: { ...process.env, TMPDIR: temp },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let interrupted = false;
    const take = (c: Buffer): void => {
      out += c.toString();
      if (o.interruptWhen !== undefined && !interrupted && o.interruptWhen.test(out)) {
        interrupted = true;
        // Ctrl-C: the terminal signals the whole foreground process group.
        process.kill(-(child.pid ?? 0), 'SIGINT');
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    // npm itself may keep its module compile cache there: npm's, made once, not the run's.
    return { code, out, left: (await readdir(temp)).filter((name) => name !== 'node-compile-cache') };
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

describe('npm start', () => {
  it('--help lists every operation with the inputs it reads, and runs nothing', async ({ expect }) => {
    const r = await npmStart(['--help'], { npm: false });
    expect(r.code).toBe(0);
    for (const name of OPERATION_NAMES) expect(r.out).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    expect(r.out).toMatch(/^ {2}review-build +project-id, build-id, pipeline-id, decision, suggestion, review-params, wait,/m);
    expect(r.out).toContain('Every operation: base-url, gateway,');
    expect(r.out).not.toContain('bk-ci emulator on');
  }, 30_000);

  describe.concurrent('its scenarios', () => {
    beforeAll(() => warmed);

    it('as the README says to run it: shows a clean run and leaves nothing in the temporary directory', async ({ expect }) => {
      const r = await npmStart([], { npm: false });
      expect(r.code, r.out).toBe(0);
      expect(r.out).toMatch(/re-sign task s-5f1c9e7a: SUCCESS after/);
      expect(r.out).toMatch(/exit code 0 after \d/);
      // The seeded world gives the operation only the inputs it reads: nothing to warn about.
      expect(r.out).not.toMatch(/Warning:/);
      expect(r.left).toEqual([]);
    }, 60_000);

    it('seeds a build at its stage review that review-build approves, and the pipelines the README names', async ({ expect }) => {
      const r = await npmStart(['operation=review-build', 'wait=true'], { npm: false });
      expect(r.code, r.out).toBe(0);
      expect(r.out).toMatch(/pipelines "p-review" \(pauses at a review of stage Release by demo-user\), "p-long" .*"p-fail"/);
      expect(r.out).toContain("approved the review of stage 'Release' (group 'QA') as demo-user; bk-ci applies it moments later");
      expect(r.out).toMatch(/build #1 \(b-\w+\): SUCCEED after/);
      expect(r.left).toEqual([]);
    }, 60_000);

    it("download-artifacts: a build of p-demo that ended, its files downloaded, listed and removed with the step's folder", async ({
      expect,
    }) => {
      const r = await npmStart(['operation=download-artifacts'], { npm: false });
      expect(r.code, r.out).toBe(0);
      expect(r.out).toMatch(/downloaded app\/App\.ipa \(1 MiB, SHA-256 verified\) in /);
      expect(r.out).toMatch(/^ +1048576 {2}app\/App\.ipa$/m);
      expect(r.out).toMatch(/^ +\d+ {2}reports\/coverage\.html$/m);
      expect(r.out).toContain('| app/App.ipa | 1 MiB | SHA-256 |');
      expect(r.left).toEqual([]);
    }, 60_000);

    it('a failing pipeline fails the step with its error', async ({ expect }) => {
      const r = await npmStart(['operation=start-build', 'pipeline-id=p-fail', 'logs=none'], { npm: false });
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/Error: bk-ci start-build failed: build #\d+ \(b-\w+\) of pipeline p-fail ended FAILED: .*3 tests failed/);
    }, 60_000);

    it('Ctrl-C while a long build runs: the step says it stopped, the script shows it, and nothing is left in the temporary directory', async ({
      expect,
    }) => {
      const r = await npmStart(['operation=start-build', 'pipeline-id=p-long', 'logs=none'], { interruptWhen: /waiting for build #1/ });
      expect(r.out).toContain('received SIGINT: stopping');
      expect(r.out).toMatch(/Error: bk-ci start-build failed: cancelled after/);
      expect(r.out).toMatch(/exit code 1 after/);
      expect(r.left).toEqual([]);
    }, 60_000);

    it('against an emulator started on its own: the banner shows its URL, and nothing else is started or seeded', async (test) => {
      const { expect } = test;
      const { emu, bkToken } = await worldForTest({ realTime: true, project: false }, test);
      emu.seedProject({ englishName: 'mine', projectName: 'Mine' });
      const r = await npmStart([`base-url=${emu.url}`, `bk-token=${bkToken}`, 'operation=get-project', 'project-id=mine'], { npm: false });
      expect(r.code, r.out).toBe(0);
      expect(r.out).toContain(`── the action against ${emu.url} `);
      expect(r.out).not.toContain('bk-ci emulator on');
      expect(r.out).toMatch(/^data=\{.*"englishName":"mine"/m);
      expect(emu.requests().every((q) => !q.path.includes('/demo'))).toBe(true);
    }, 60_000);
  });
});
