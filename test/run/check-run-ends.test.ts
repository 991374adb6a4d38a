// Every check ends: on every way out of a step that created or took over a check run, it is
// completed with the step's conclusion (or the step says in one line that it was left in
// progress, and why). run() in this process against the bk-ci emulator and its GitHub side;
// withCheck itself for an error nobody wrapped.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { layout } from '../../emulator/build-model.ts';
import type { Log } from '../../src/base/log.ts';
import { SMALLEST } from '../../src/github/body.ts';
import { checkConclusion } from '../../src/github/view.ts';
import { openCheck, withCheck } from '../../src/operations/build-check.ts';
import type { Context } from '../../src/operations/operation.ts';
import { Secrets } from '../../src/runner/secrets.ts';
import { seen } from '../support/github-markdown.ts';
import { GH_TOKEN, githubEnv, useGitHub } from '../support/github-world.ts';
import { cleanupRuns } from '../support/in-process.ts';
import { useWorld } from '../support/world.ts';

const w = useWorld();
const github = useGitHub(w);
afterAll(cleanupRuns);

const start = github.step({ operation: 'start-build', 'pipeline-id': 'p-app', 'poll-interval': '1s' });
const running = (ms: number) => w.pipeline({ name: 'App', phases: [{ status: 'RUNNING', ms, stage: 'Build' }] });
/** The one check run, completed with the check's form of the failed step's conclusion. */
const endedAsTheStep = (r: { outputs: Record<string, string> }, cancelled = false) => {
  const conclusion = checkConclusion(r.outputs.conclusion ?? '', true, cancelled);
  expect(conclusion).toBeDefined();
  expect(only()).toMatchObject({ status: 'completed', conclusion });
};
const only = () => {
  expect(github.gh.runs).toHaveLength(1);
  return github.gh.runs[0];
};

describe('a step that fails still completes its check', () => {
  it('a read failure mid-build', async () => {
    running(60_000);
    w.emu.faults.add({ pattern: /build_status$/, skip: 3, times: Infinity, fault: { kind: 'status', status: 403 } });
    const r = await start();
    expect(r.code).toBe(1);
    // The build goes on in bk-ci, unread: the check is not left in progress for good.
    expect(r.outputs.conclusion).toBe('running');
    endedAsTheStep(r);
    expect(only()).toMatchObject({ conclusion: 'failure', output: { title: 'Build #1 not followed to its end' } });
    expect(seen(only()?.output.summary ?? '')).toMatch(
      /goes on in bk-ci; this step stopped following it\nreading build #1 \(b-\w+\) failed/,
    );
  });

  it('the access token expiring mid-build', async () => {
    running(180_000);
    const bob = w.emu.addUser('alice', 60_000);
    const r = await start({ 'bk-token': '', 'access-token': bob.token.accessToken, 'user-id': 'alice' });
    expect(r.code).toBe(1);
    expect(r.errors[0]).toMatch(/expired/);
    endedAsTheStep(r);
  });

  it.each([
    ['reads that keep failing until the timeout (a door not listed)', { kind: 'status', status: 503 } as const, 'timed_out'],
    ['a cut build_status body', { kind: 'cut', bytes: 30 } as const, 'timed_out'],
  ])('%s', async (_, fault, conclusion) => {
    running(600_000);
    w.emu.faults.add({ pattern: /build_status$/, skip: 3, times: Infinity, fault });
    const r = await start({ timeout: '1m' });
    expect(r.code).toBe(1);
    endedAsTheStep(r);
    expect(only()?.conclusion).toBe(conclusion);
  });
});

describe('reads of bk-ci after the end that run past the timeout', () => {
  it("a build that ends at its timeout, its log's tail slow to read: GitHub, answering, still gets the last update", async () => {
    running(59_000);
    w.emu.faults.add({ pattern: /after_line_logs$/, times: Infinity, fault: { kind: 'hang' } });
    const r = await start({ timeout: '1m', logs: 'live', 'request-timeout': '10s' });
    expect(r.outputs.conclusion).toBe('success');
    expect(r.code).toBe(0);
    expect(only()).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(r.stdout).not.toMatch(/left in progress/);
  });
});

describe('an error nobody wrapped (a door not listed)', () => {
  /** The step's context as openCheck reads it. */
  const log: Log = { debug: () => {}, info: () => {}, warning: () => {} };
  const context = (signal: AbortSignal): Context =>
    ({
      env: githubEnv(github.gh),
      clock: w.clock,
      log,
      signal,
      start: w.clock.now(),
      settings: { timeoutMs: 60_000 },
      secrets: new Secrets(() => undefined),
    }) as unknown as Context;

  it.each([
    ['a failure', false, 'failure'],
    ['a cancel', true, 'cancelled'],
  ])('thrown while following: the check ends as %s', async (_, cancel, conclusion) => {
    const job = new AbortController();
    const ctx = context(job.signal);
    const check = await openCheck({ check: true, 'github-token': GH_TOKEN, 'check-name': 'bk-ci App' }, ctx);
    check?.follow({ id: 'b-1', url: '', pipelineId: 'p-app', lookFirst: false });
    const follow = () => {
      if (cancel) job.abort();
      return Promise.reject(new TypeError('something nobody expected'));
    };
    await expect(withCheck(check, ctx, follow)).rejects.toThrow('something nobody expected');
    expect(only()).toMatchObject({ status: 'completed', conclusion, external_id: 'b-1', name: 'bk-ci App' });
    expect(seen(only()?.output.summary ?? '')).toMatch(/something nobody expected/);
  });
});

describe('a refused last update is sent again without what GitHub refused', () => {
  const stages = ['Build'];
  const jobs = { Build: [{ name: 'Linux', jobId: 'build', steps: [{ name: 'Compile', stepId: 'compile' }] }] };
  const [compile = ''] = layout('p-app', stages, jobs).flatMap((st) => st.jobs.flatMap((j) => j.steps.map((x) => x.id)));
  const failing = (lines: string[]) =>
    w.pipeline({
      name: 'App',
      stages,
      jobs,
      phases: [{ status: 'RUNNING', ms: 3000 }],
      result: 'FAILED',
      logs: {
        steps: [{ tag: compile, jobId: 'build', stepId: 'compile', containerHashId: 'c-1' }],
        lines: lines.map((text, i) => ({ at: 500 + i * 100, step: compile, text })),
      },
    });
  const workspace = async () => {
    const ws = await mkdtemp(join(tmpdir(), 'bkci-ws-'));
    await mkdir(join(ws, 'src'));
    await writeFile(join(ws, 'src', 'main.c'), 'int main() {}\n');
    return ws;
  };

  it('GitHub refuses the annotations: the conclusion lands without them, the text says so', async () => {
    failing(['src/main.c:12:5: error: expected ;', 'src/main.c:13:1: error: expected }']);
    github.gh.fault({ kind: 'invalid', method: 'PATCH', bodyHas: 'output.annotations' });
    const r = await start({ logs: 'on-failure' }, { GITHUB_WORKSPACE: await workspace() });
    expect(r.code).toBe(1);
    expect(only()).toMatchObject({ status: 'completed', conclusion: 'failure', annotations: [] });
    expect(seen(only()?.output.text ?? '')).toMatch(/2 compiler messages .*\. GitHub refused them as annotations: none is on the diff\./);
    expect(r.summary).toMatch(/Compiler messages.*GitHub refused them as annotations: none is on the diff/);
    expect(r.stdout.match(/^::warning::check.*$/gm) ?? []).toEqual([]);
  });

  it('a last update whose answer was lost is sent again without its annotations: GitHub adds them, never twice', async () => {
    failing(['src/main.c:12:5: error: expected ;', 'src/main.c:13:1: error: expected }']);
    github.gh.fault({ kind: 'drop', method: 'PATCH', bodyHas: 'output.annotations' });
    const r = await start({ logs: 'on-failure' }, { GITHUB_WORKSPACE: await workspace() });
    expect(r.code).toBe(1);
    const patches = github.gh.received.filter((q) => q.method === 'PATCH');
    expect(patches.map((q) => q.body.includes('"annotations"'))).toEqual([true, false]);
    expect(only()).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(only()?.annotations).toHaveLength(2);
    expect(seen(only()?.output.text ?? '')).toMatch(/got no answer: they were not sent again, and may or may not be on the diff/);
    expect(r.summary).toMatch(/Compiler messages.*may or may not be on the diff/);
  });

  it('a line number of 400 digits in the log: one bad line never costs the update', async () => {
    failing([`src/main.c:${'9'.repeat(400)}:1: error: huge`, 'src/main.c:3:1: error: real']);
    const r = await start({ logs: 'on-failure' }, { GITHUB_WORKSPACE: await workspace() });
    expect(r.code).toBe(1);
    expect(only()).toMatchObject({ status: 'completed', conclusion: 'failure' });
    // Left out when the annotations are built (src/github/annotations.ts): nothing is refused, the real one lands.
    expect(github.gh.received.filter((q) => q.status === 422)).toEqual([]);
    expect(only()?.annotations).toEqual([expect.objectContaining({ path: 'src/main.c', start_line: 3 })]);
  });

  it('GitHub refuses every body but the smallest: the conclusion and title still land', async () => {
    failing(['src/main.c:12:5: error: expected ;']);
    github.gh.fault({ kind: 'invalid', method: 'PATCH', bodyHas: 'output.text', times: 10 });
    const r = await start({ logs: 'on-failure' }, { GITHUB_WORKSPACE: await workspace() });
    expect(r.code).toBe(1);
    expect(only()).toMatchObject({ status: 'completed', conclusion: 'failure', output: { title: 'Build #1 failed' } });
    expect(SMALLEST).toBe(2);
  });
});
