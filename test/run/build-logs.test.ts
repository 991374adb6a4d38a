// The build's log in the step (logs: live | on-failure | none), log-file, and a failed build's
// steps explained: run() in this process against the emulator's after_line_logs with each of
// bk-ci's traps, on a clock the step and the emulator share.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { layout } from '../../emulator/build-model.ts';
import { LINES_PER_STEP } from '../../src/pipeline/log-print.ts';
import type { StepResult } from '../support/dist-runner.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { type Door, doorOptions, GATEWAY_APP, type PipelineSeed as Seed, startWorld, T0, type World } from '../support/world.ts';

const STEPS = [
  { tag: 'e-compile', jobId: 'build', stepId: 'compile', containerHashId: 'c-build' },
  { tag: 'e-test', jobId: 'test', stepId: 'unit', containerHashId: 'c-test' },
];

afterAll(cleanupRuns);

let w: World;
beforeEach(async () => {
  w = await startWorld();
  return () => w.emu.close();
});

const pipeline = (seed: Seed) => w.pipeline(seed);
const start = (inputs: Record<string, string> = {}, flavour: Door = 'bkci'): Promise<StepResult> =>
  runInProcess({
    inputs: {
      operation: 'start-build',
      'base-url': w.emu.url,
      'project-id': 'demo',
      'pipeline-id': 'p-app',
      'poll-interval': '1s',
      retries: '0',
      ...(flavour === 'apigw' ? { ...GATEWAY_APP, 'user-id': 'alice' } : { 'bk-token': w.bkToken }),
      ...inputs,
    },
    clock: w.clock,
  });

/** The build log's lines as the step printed them: each group's title and its lines, runner commands aside. */
function printed(stdout: string): { step: string; text: string }[] {
  const out: { step: string; text: string }[] = [];
  let step: string | undefined;
  for (const line of stdout.split('\n')) {
    const g = /^::group::(.*)$/.exec(line);
    if (g) step = g[1];
    else if (line === '::endgroup::') step = undefined;
    else if (step !== undefined) out.push({ step, text: line });
  }
  return out;
}
const logRequests = () => w.emu.requests({ path: '/logs/after_line_logs' });
const logFile = async (r: StepResult) => (await readFile(r.outputs['log-file'] ?? '', 'utf8')).split('\n').filter((l) => l !== '');

describe('logs: live', () => {
  it.each(['bkci', 'spec', 'apigw'] as const)(
    '%s: every line once, in line-number order, in a group per step, labelled with its job and step; log-file holds them all',
    async (flavour) => {
      await w.emu.close();
      w = await startWorld(doorOptions(flavour));
      pipeline({
        phases: [
          { status: 'QUEUE', ms: 500 },
          { status: 'RUNNING', ms: 6000 },
        ],
        logs: {
          steps: STEPS,
          lines: [
            { at: 1000, step: 'e-compile', text: 'compiling' },
            { at: 1100, step: 'e-test', text: 'slow uploader', delayMs: 1500 },
            { at: 1200, step: 'e-compile', text: 'searchable late', lagMs: 2500 },
            { at: 1300, step: 'e-compile', text: 'compiled' },
            { at: 4000, step: 'e-test', text: 'tests passed' },
            { at: 6400, step: 'e-test', text: 'the last line' },
          ],
        },
      });
      const r = await start({}, flavour);
      expect(r.errors).toEqual([]);
      expect(printed(r.stdout)).toEqual([
        { step: 'build › compile', text: 'compiling' },
        { step: 'build › compile', text: 'searchable late' },
        { step: 'build › compile', text: 'compiled' },
        { step: 'test › unit', text: 'slow uploader' },
        { step: 'test › unit', text: 'tests passed' },
        { step: 'test › unit', text: 'the last line' },
      ]);
      expect(await logFile(r)).toEqual([
        '[build › compile] compiling',
        '[build › compile] searchable late',
        '[build › compile] compiled',
        '[test › unit] slow uploader',
        '[test › unit] tests passed',
        '[test › unit] the last line',
      ]);
      expect(r.outputs['log-file']).toMatch(/bkci-build-log-.*\.txt$/);
      expect(r.stdout).not.toMatch(/::warning::/);
      // About one read per poll, and a few after the end until nothing new comes.
      const polls = Number(r.outputs.polls);
      expect(logRequests().length).toBeGreaterThanOrEqual(polls);
      expect(logRequests().length).toBeLessThanOrEqual(polls + 10);
      for (const q of logRequests()) expect(q.query).toMatch(/[?&]executeCount=1(&|$)/);
    },
  );

  it('a page ordered by time, several pages (hasMore), a late line: each once, in order', async () => {
    pipeline({
      phases: [{ status: 'RUNNING', ms: 10_000 }],
      logs: {
        steps: STEPS,
        lines: [{ at: 3000, step: 'e-compile', text: 'late one', lagMs: 2000 }],
        generate: [
          { count: 40, fromMs: 0, toMs: 9000, step: 'e-compile', text: 'compile {i}' },
          { count: 40, fromMs: 0, toMs: 9000, step: 'e-test', text: 'test {i}', delayMs: 700 },
        ],
        pageSize: 7,
      },
    });
    const r = await start();
    expect(r.errors).toEqual([]);
    const lines = await logFile(r);
    expect(lines).toHaveLength(81);
    expect(new Set(lines).size).toBe(81);
    // Line-number order is the order they arrived in; a step's own lines keep their order.
    const compile = lines.filter((l) => l.startsWith('[build › compile] compile'));
    expect(compile).toEqual(Array.from({ length: 40 }, (_, i) => `[build › compile] compile ${i + 1}`));
    expect(printed(r.stdout).map((p) => `[${p.step}] ${p.text}`)).toEqual(lines);
  });

  it('status 2 before the first line and a failed search (999) are waited out: no warning, no line lost', async () => {
    pipeline({
      phases: [{ status: 'RUNNING', ms: 8000 }],
      logs: {
        steps: STEPS,
        lines: [
          { at: 4000, step: 'e-compile', text: 'first' },
          { at: 6000, step: 'e-compile', text: 'second' },
        ],
        failQueries: [5, 6, 7],
      },
    });
    const r = await start();
    expect(r.errors).toEqual([]);
    expect(r.stdout).not.toMatch(/::warning::/);
    expect(printed(r.stdout).map((p) => p.text)).toEqual(['first', 'second']);
  });

  it('lines written after the build ended are read on until nothing new comes', async () => {
    pipeline({
      phases: [{ status: 'RUNNING', ms: 3000 }],
      logs: {
        steps: STEPS,
        lines: [
          { at: 1000, step: 'e-compile', text: 'during' },
          { at: 3500, step: 'e-compile', text: 'after the end' },
          { at: 3900, step: 'e-compile', text: 'searchable later still', lagMs: 1500 },
        ],
      },
    });
    const r = await start();
    expect(r.errors).toEqual([]);
    expect(printed(r.stdout).map((p) => p.text)).toEqual(['during', 'after the end', 'searchable later still']);
  });

  it('a long step: at most the bound in the step log, with a note; every line in log-file', async () => {
    const count = LINES_PER_STEP + 50;
    pipeline({
      phases: [{ status: 'RUNNING', ms: 5000 }],
      logs: { steps: STEPS, generate: [{ count, fromMs: 0, toMs: 4000, step: 'e-test', text: 'line {i}' }] },
    });
    const r = await start();
    expect(r.errors).toEqual([]);
    const shown = printed(r.stdout).filter((p) => /^line \d+$/.test(p.text));
    expect(shown).toHaveLength(LINES_PER_STEP);
    expect(r.stdout).toMatch(new RegExp(`test › unit has more than ${LINES_PER_STEP} lines: the rest of them are only in the log file`));
    expect(await logFile(r)).toHaveLength(count);
    expect(r.summary).toMatch(/\| Not in the step's log \| 50 lines of test › unit \|/);
  });

  it('a line that holds runner commands comes out as plain text', async () => {
    pipeline({
      phases: [{ status: 'RUNNING', ms: 3000 }],
      logs: {
        steps: STEPS,
        lines: [
          { at: 500, step: 'e-compile', text: '::error::not an annotation' },
          { at: 600, step: 'e-compile', text: '##[group]not a group' },
          { at: 700, step: 'e-compile', text: 'two\n::add-mask::lines' },
        ],
      },
    });
    const r = await start();
    // The action's own add-mask lines (its token) aside.
    expect(r.stdout).not.toMatch(/^\s*::(error::|add-mask::lines)/m);
    expect(r.stdout).not.toContain('##[');
    const file = (await readFile(r.outputs['log-file'] ?? '', 'utf8')).toString();
    expect(file).not.toMatch(/^\s*::/m);
    expect(file).not.toContain('##[');
    expect(file.split('\n').filter((l) => l !== '')).toHaveLength(3);
  });

  it('a failure to read the log is one warning; the build decides', async () => {
    pipeline({
      phases: [{ status: 'RUNNING', ms: 5000 }],
      logs: { steps: STEPS, lines: [{ at: 500, step: 'e-compile', text: 'x' }] },
    });
    w.emu.faults.add({
      pattern: /after_line_logs$/,
      times: Number.POSITIVE_INFINITY,
      fault: { kind: 'status', status: 503, contentType: 'html' },
    });
    const r = await start();
    expect(r.errors).toEqual([]);
    expect(r.outputs['build-status']).toBe('SUCCEED');
    expect(r.stdout.match(/^::warning::reading the build's log failed/gm)).toHaveLength(1);
  });

  it('a log the token may not read (403) is one warning, and no more reads', async () => {
    pipeline({ phases: [{ status: 'RUNNING', ms: 5000 }] });
    w.emu.faults.add({ pattern: /after_line_logs$/, times: Number.POSITIVE_INFINITY, fault: { kind: 'status', status: 403 } });
    const r = await start();
    expect(r.errors).toEqual([]);
    expect(r.stdout.match(/^::warning::reading the build's log failed .*no more of it is read/gm)).toHaveLength(1);
    expect(logRequests()).toHaveLength(1);
  });
});

describe('a retried build', () => {
  // Run 1 fails 3 s after its start; a retry queues run 2, which succeeds 6 s later with its own lines.
  const retried = () => {
    pipeline({
      phases: [
        { status: 'QUEUE', ms: 500 },
        { status: 'RUNNING', ms: 2500 },
      ],
      result: 'FAILED',
      logs: {
        steps: STEPS,
        lines: [
          { at: 1000, step: 'e-compile', text: 'run 1 compiled' },
          { at: 2000, step: 'e-test', text: 'run 1 tests failed' },
        ],
      },
    });
    const started: unknown = JSON.parse(w.emu.builds.start('demo', 'p-app', 'alice', {}).body);
    const id = String((started as { data: { id: string } }).data.id);
    /** The retry; `run2` in place of how run 2 ends and what it writes. */
    const retry = (run2: { result?: string; logs?: { lines: { at: number; step: string; text: string }[] } } = {}) =>
      w.emu.retryBuild({
        buildId: id,
        phases: [
          { status: 'QUEUE', ms: 500 },
          { status: 'RUNNING', ms: 5500 },
        ],
        result: 'SUCCEED',
        logs: {
          lines: [
            { at: 1000, step: 'e-compile', text: 'run 2 compiled' },
            { at: 2000, step: 'e-test', text: 'run 2 tests passed', delayMs: 800 },
            { at: 4000, step: 'e-test', text: 'run 2 done' },
          ],
        },
        ...run2,
      });
    return { id, retry };
  };
  const buildStatus = (id: string) =>
    runInProcess({
      inputs: {
        operation: 'build-status',
        'base-url': w.emu.url,
        'bk-token': w.bkToken,
        'project-id': 'demo',
        'build-id': id,
        'poll-interval': '1s',
        retries: '0',
      },
      clock: w.clock,
    });
  /** Runs `fn` at `at` when a sleep of the step passes that moment: what bk-ci does between two polls. */
  const between = (at: number, fn: () => void) => {
    const sleep = w.clock.sleep;
    w.clock.sleep = (ms, signal) => {
      const end = w.clock.t + ms;
      if (w.clock.t < at && end > at) {
        w.clock.t = at;
        fn();
      }
      return sleep(end - w.clock.t, signal);
    };
  };

  it('build-status on its second run reads the log of run 2 only (executeCount from build_detail): each line once, execute-count 2', async () => {
    const { id, retry } = retried();
    w.clock.t = T0 + 5000;
    expect(retry()).toMatchObject({ id, executeCount: 2 });
    w.clock.t = T0 + 6500;
    const r = await buildStatus(id);
    expect(r.errors).toEqual([]);
    expect(r.outputs).toMatchObject({ 'build-status': 'SUCCEED', conclusion: 'success', 'execute-count': '2' });
    expect(printed(r.stdout)).toEqual([
      { step: 'build › compile', text: 'run 2 compiled' },
      { step: 'test › unit', text: 'run 2 tests passed' },
      { step: 'test › unit', text: 'run 2 done' },
    ]);
    expect(await logFile(r)).toEqual(['[build › compile] run 2 compiled', '[test › unit] run 2 tests passed', '[test › unit] run 2 done']);
    // Live: run 2's lines are numbered on from run 1's, and the numbers below them are no gap to wait on.
    const out = r.stdout.split('\n');
    const ended = out.findIndex((line) => /: SUCCEED$/.test(line));
    expect(ended, r.stdout).toBeGreaterThan(0);
    expect(out.findIndex((line) => line.endsWith('run 2 compiled'))).toBeLessThan(ended);
    expect(r.summary).toMatch(/^\| Run \| 2 \(retried\) \|$/m);
    // The model is read at the first poll, before the log: run 1's lines are never asked for.
    expect(logRequests().length).toBeGreaterThan(0);
    for (const q of logRequests()) expect(q.query).toMatch(/[?&]executeCount=2(&|$)/);
  });

  it('a retry while build-status waits on run 1 is refused by bk-ci; the step ends with run 1, FAILED', async () => {
    const { id, retry } = retried();
    let refused: unknown;
    between(T0 + 1500, () => {
      try {
        retry();
      } catch (e) {
        refused = e;
      }
    });
    const r = await buildStatus(id);
    expect(String(refused)).toMatch(/2100002/);
    expect(r.code).toBe(1);
    expect(r.outputs).toMatchObject({ 'build-status': 'FAILED', conclusion: 'failure', 'execute-count': '1' });
    expect(printed(r.stdout).map((p) => p.text)).toEqual(['run 1 compiled', 'run 1 tests failed']);
    expect(r.summary).not.toMatch(/retried/);
    // Once run 1 has ended the retry is taken: too late for this step.
    expect(retry()).toMatchObject({ executeCount: 2 });
  });

  it('a retry between the end of run 1 and the next poll is followed to the end of run 2: both runs in the log, execute-count 2', async () => {
    const { id, retry } = retried();
    // Polls at 0.3 s, 1.3 s, …: run 1 ends at 3 s, the retry comes at 3.1 s, the next poll at 3.3 s sees run 2 queued.
    w.clock.t = T0 + 300;
    between(T0 + 3100, () => {
      retry();
    });
    const r = await buildStatus(id);
    expect(r.errors).toEqual([]);
    expect(r.outputs).toMatchObject({ 'build-status': 'SUCCEED', conclusion: 'success', 'execute-count': '2' });
    expect(r.summary).toMatch(/^\| Run \| 2 \(retried\) \|$/m);
    // The step never saw run 1 fail, but it saw the build go back to the queue: it read the model
    // then, said so, and followed run 2's log while run 2 ran (X1: a retry keeps the build's id).
    expect(r.stdout).toMatch(/^build #1 \(b-[^)]+\) was retried in bk-ci: following its run 2 now$/m);
    expect(logRequests().some((q) => /[?&]executeCount=2(&|$)/.test(q.query) && q.time < T0 + 3100 + 6000)).toBe(true);
    expect(await logFile(r)).toEqual([
      '[build › compile] run 1 compiled',
      '[test › unit] run 1 tests failed',
      '[build › compile] run 2 compiled',
      '[test › unit] run 2 tests passed',
      '[test › unit] run 2 done',
    ]);
    expect(r.stdout).not.toMatch(/FAILED/);
  });
  it("a retried run that fails too: the summary's last lines are the new run's, not the run before it", async () => {
    const { id, retry } = retried();
    w.clock.t = T0 + 300;
    between(T0 + 3100, () => {
      retry({ result: 'FAILED', logs: { lines: [{ at: 1000, step: 'e-test', text: 'run 2 tests failed again' }] } });
    });
    const r = await buildStatus(id);
    expect(r.outputs).toMatchObject({ 'build-status': 'FAILED', conclusion: 'failure', 'execute-count': '2' });
    // Both runs were followed live, and both are in the log file.
    expect(printed(r.stdout).map((p) => p.text)).toEqual(['run 1 compiled', 'run 1 tests failed', 'run 2 tests failed again']);
    expect(await logFile(r)).toHaveLength(3);
    // What explains the failure is run 2's: run 1's lines, of the same step or another, are not among them.
    expect(r.summary).toMatch(/\n#### Last lines of test › unit\n\n```text\nrun 2 tests failed again\n```/);
    expect(r.summary).not.toMatch(/run 1/);
  });
});

describe('logs: none and on-failure', () => {
  // The model's steps, and the log's steps under the same element ids, as bk-ci tags log lines.
  const stages = ['Build', 'Test'];
  const jobs = {
    Build: [{ name: 'Linux', jobId: 'build', steps: [{ name: 'Compile', stepId: 'compile' }] }],
    Test: [{ name: 'Unit', jobId: 'test', steps: [{ name: 'Unit tests', stepId: 'unit' }] }],
  };
  const [compile, unit] = layout('p-app', stages, jobs).flatMap((st) => st.jobs.flatMap((j) => j.steps.map((x) => x.id)));
  const failing: Seed = {
    stages,
    jobs,
    phases: [{ status: 'RUNNING', ms: 4000 }],
    result: 'FAILED',
    errorInfoList: [{ taskName: 'Unit tests', errorCode: 2199001, errorMsg: 'tests failed' }],
    logs: {
      steps: [
        { tag: compile ?? '', jobId: 'build', stepId: 'compile', containerHashId: 'c-1' },
        { tag: unit ?? '', jobId: 'test', stepId: 'unit', containerHashId: 'c-2' },
      ],
      lines: [
        { at: 500, step: compile ?? '', text: 'compiled' },
        { at: 1000, step: unit ?? '', text: 'test 1 ok' },
        { at: 2000, step: unit ?? '', text: 'test 2 FAILED: expected 1, got 2' },
      ],
    },
  };

  it('live: lines labelled with the names of their job and step, from the build model', async () => {
    pipeline(failing);
    const r = await start();
    expect(printed(r.stdout)).toEqual([
      { step: 'Linux › Compile', text: 'compiled' },
      { step: 'Unit › Unit tests', text: 'test 1 ok' },
      { step: 'Unit › Unit tests', text: 'test 2 FAILED: expected 1, got 2' },
    ]);
    expect(r.summary).toMatch(/\n#### Last lines of Unit › Unit tests\n/);
  });

  it('none: no log request at all, no log-file', async () => {
    pipeline(failing);
    const r = await start({ logs: 'none' });
    expect(r.code).toBe(1);
    expect(logRequests()).toHaveLength(0);
    expect(r.outputs['log-file']).toBeUndefined();
  });

  it('on-failure: nothing while waiting; at the end the last lines, and the summary names the failed step', async () => {
    pipeline(failing);
    const r = await start({ logs: 'on-failure' });
    expect(r.code).toBe(1);
    const shownAt = r.stdout.indexOf('test 2 FAILED');
    expect(shownAt).toBeGreaterThan(r.stdout.indexOf('FAILED\n'));
    expect(r.stdout).toMatch(/::group::last 2 of 2 lines of Unit › Unit tests\ntest 1 ok\ntest 2 FAILED: expected 1, got 2\n::endgroup::/);
    expect(r.stdout).not.toContain('compiled');
    expect(r.summary).toMatch(/\n#### Failed steps\n[\s\S]*\| Unit › Unit tests \| 2199001: tests failed \|/);
    expect(r.summary).toMatch(/\n#### Last lines of Unit › Unit tests\n\n```text\ntest 1 ok\ntest 2 FAILED: expected 1, got 2\n```/);
    expect(await logFile(r)).toHaveLength(3);
  });

  it('on-failure with a build that succeeds reads no log', async () => {
    pipeline({ ...failing, result: 'SUCCEED', errorInfoList: [] });
    const r = await start({ logs: 'on-failure' });
    expect(r.errors).toEqual([]);
    expect(logRequests()).toHaveLength(0);
  });
});
