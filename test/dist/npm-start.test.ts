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

/** The output as a terminal shows it: its colours taken out. */
const plain = (out: string): string => out.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');

/** The output's last line: the exit banner, when nothing was printed after it. */
const lastLine = (out: string): string => plain(out).trimEnd().split('\n').at(-1) ?? '';

/** The check view's lines (`[check N "name"] state`), in order, as `N name: state`. */
const checkLines = (out: string): string[] =>
  [...plain(out).matchAll(/^\[check (\d+) "([^"]+)"\] (.*)$/gm)].map((m) => `${m[1]} ${m[2]}: ${m[3]}`);

describe('npm start', () => {
  it('--help lists every operation with the inputs it reads, the re-run and check demos, and runs nothing', async ({ expect }) => {
    const r = await npmStart(['--help'], { npm: false });
    expect(r.code).toBe(0);
    for (const name of OPERATION_NAMES) expect(r.out).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    expect(r.out).toMatch(/^ {2}review-build +project-id, build-id, pipeline-id, decision, suggestion, review-params, wait,/m);
    expect(r.out).toContain('Every operation: base-url, gateway,');
    // The commands the scenarios below run, as --help gives them.
    expect(r.out).toMatch(/^ {2}npm start -- operation=start-build check=true run-attempt=2 {3}\(a re-run/m);
    expect(r.out).toMatch(/^ {2}npm start -- operation=start-build check=true run-attempt=2 earlier-status=RUNNING {3}\(follows/m);
    expect(r.out).toMatch(/^ {2}npm start -- operation=retry-build {13}\(runs the failed jobs of the failed build of p-fail/m);
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

    it('a build-id given is read as given: the seeded pipeline-id of another build is not added to it', async ({ expect }) => {
      // The build of p-demo that ended, read by build-status, whose seeded build is p-review's.
      const r = await npmStart(['operation=build-status', 'build-id=b-00000000000000000000000000000002', 'logs=none'], { npm: false });
      expect(r.code, r.out).toBe(0);
      expect(r.out).not.toContain('PipelineId is invalid');
      expect(r.out).toMatch(/build #1 \(b-0+2\): SUCCEED/);
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

    it("a re-run with its check: attempt 1's failed build is its own, retried in bk-ci, and a new check run completed beside attempt 1's", async ({
      expect,
    }) => {
      const r = await npmStart(['operation=start-build', 'check=true', 'run-attempt=2'], { npm: false });
      expect(r.code, r.out).toBe(0);
      const [, num, id] =
        /^attempt 1's build #(\d+) \((b-\w+)\) of p-demo seeded, ended FAILED 10 minutes ago; this step runs as attempt 2$/m.exec(r.out) ??
        [];
      expect(id, r.out).toBeDefined();
      expect(r.out).toContain(`re-run (attempt 2): build #${num} (${id}) of attempt 1 ended FAILED: retrying it in bk-ci`);
      expect(r.out).toMatch(/^rerun=retried$/m);
      expect(r.out).toMatch(/^execute-count=2$/m);
      expect(r.out).toMatch(/^conclusion=success$/m);
      // Attempt 1's check run stays as attempt 1 left it; the step's own ends with the build's conclusion, and the view ends there.
      const view = checkLines(r.out);
      expect(view[0]).toBe(`1 bk-ci Demo app: completed → failure: Build #${num} failed`);
      expect(view.at(-1)).toBe(`2 bk-ci Demo app: completed → success: Build #${num} (run 2) succeeded`);
      expect(r.out).toMatch(
        new RegExp(`^\\S*check 1 "bk-ci Demo app" of build ${id} left completed → failure: Build #${num} failed\\S*$`, 'm'),
      );
      expect(r.out).toMatch(/^\S*check 2 "bk-ci Demo app" .* left completed → success: .* \(this step's: check-run-id\)\S*$/m);
      expect(r.out.indexOf('── check runs on demo/app@3f2c1e9')).toBeLessThan(r.out.indexOf('── outputs'));
      expect(lastLine(r.out)).toMatch(/── exit code 0 after \d/);
      expect(r.left).toEqual([]);
    }, 60_000);

    it('a re-run of a build still running: followed, and the check run attempt 1 left in progress taken over and completed', async ({
      expect,
    }) => {
      const r = await npmStart(['operation=start-build', 'check=true', 'run-attempt=2', 'earlier-status=RUNNING'], { npm: false });
      expect(r.code, r.out).toBe(0);
      const [, num, id] = /^attempt 1's build #(\d+) \((b-\w+)\) of p-demo seeded, RUNNING since just now/m.exec(r.out) ?? [];
      expect(r.out).toContain(`re-run (attempt 2): build #${num} (${id}) of attempt 1 is still RUNNING: following it`);
      expect(r.out).toContain(`check: took over the check run "bk-ci Demo app" (4000000001) of build ${id} on 3f2c1e9`);
      expect(r.out).toMatch(/^rerun=followed$/m);
      const view = checkLines(r.out);
      expect(view[0]).toBe('1 bk-ci Demo app: in_progress: Running in bk-ci (RUNNING)');
      expect(view.at(-1)).toBe(`1 bk-ci Demo app: completed → success: Build #${num} succeeded`);
      expect(view.every((l) => l.startsWith('1 '))).toBe(true);
      expect(lastLine(r.out)).toMatch(/── exit code 0 after \d/);
    }, 60_000);

    it('retry-build: the failed build of p-fail has its failed jobs run again, and its flaky tests pass', async ({ expect }) => {
      const r = await npmStart(['operation=retry-build'], { npm: false });
      expect(r.code, r.out).toBe(0);
      const id = /^build (b-\w+) of p-fail FAILED an hour ago/m.exec(r.out)?.[1];
      expect(r.out).toContain(`bk-ci retried the failed jobs of stage-3 of build ${id}: its run 2`);
      expect(r.out).toMatch(/^execute-count=2$/m);
      expect(r.out).toMatch(/^conclusion=success$/m);
      // Run 2's log, followed as it is written: its lines before its end, once each.
      const lines = r.out.split('\n');
      const ended = lines.findIndex((line) => /^\S+: SUCCEED$/.test(line));
      expect(lines.findIndex((line) => line.endsWith('running 120 tests (3 of them flaky)'))).toBeGreaterThan(-1);
      expect(lines.findIndex((line) => line.endsWith('running 120 tests (3 of them flaky)'))).toBeLessThan(ended);
      expect(lines.filter((line) => line.endsWith('unit tests finished'))).toHaveLength(1);
      expect(r.out).not.toMatch(/Warning:/);
      expect(lastLine(r.out)).toMatch(/── exit code 0 after \d/);
    }, 60_000);

    it('a status bk-ci does not have for attempt 1 is refused before anything runs', async ({ expect }) => {
      const r = await npmStart(['operation=start-build', 'run-attempt=2', 'earlier-status=DONE'], { npm: false });
      expect(r.code).toBe(2);
      expect(r.out).toContain("earlier-status=DONE is not one of bk-ci's build statuses: FAILED, SUCCEED, RUNNING, CANCELED, …");
      expect(r.out).not.toContain('── step log');
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
