// The check run through the built action, as the runner runs it (dist/index.js, no node_modules):
// a pull request's build shown on its head commit, and one case of each of GitHub's failures the
// check survives. What only the built action shows: GitHub's client (dist/github.js, Octokit) is
// loaded by its one dynamic import and works without node_modules, real timeouts and the job's
// cancel bound GitHub, and the process's own log. The cases in depth are run() in process:
// test/run/check-run*.test.ts and test/run/check-secrets.test.ts. Each case is a world of its own:
// they run at the same time.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it, type TestContext } from 'vitest';
import { layout } from '../../emulator/build-model.ts';
import { type GitHubEmulator, startGitHub } from '../../emulator/github.ts';
import { cleanupSteps, installAction, runStep } from '../support/dist-runner.ts';
import { seen } from '../support/github-markdown.ts';
import { HEAD, pullRequestStep } from '../support/pull-request-step.ts';
import { type PipelineSeed, type World, worldForTest } from '../support/world.ts';

const TOKEN = 'ghs_dist-check-token-0002';

let actionDir: string;
beforeAll(async () => {
  actionDir = await installAction();
});
afterAll(cleanupSteps);

/** A world in real time with pipeline p-app (App), and a GitHub that knows TOKEN, both closed with the test. */
async function worlds(test: TestContext, seed: PipelineSeed = {}): Promise<{ w: World; gh: GitHubEmulator }> {
  const w = await worldForTest({ realTime: true }, test);
  w.pipeline({ name: 'App', phases: [{ status: 'RUNNING', ms: 800, stage: 'Build' }], ...seed });
  // The first start compiles GitHub's schemas (a few hundred ms idle, much more on a busy machine).
  const gh = await startGitHub();
  test.onTestFinished(() => gh.close());
  gh.addToken(TOKEN);
  return { w, gh };
}

const step = async (
  w: World,
  gh: GitHubEmulator,
  inputs: Record<string, string> = {},
  o: Parameters<typeof runStep>[1] = { inputs: {} },
) => {
  const s = await pullRequestStep(w, gh, TOKEN, await mkdtemp(join(tmpdir(), 'bkci-check-dist-')));
  return runStep(actionDir, { ...o, inputs: { ...s.inputs, retries: '0', ...inputs }, env: { ...s.env, ...o.env } });
};
const warnings = (stdout: string): string[] => stdout.match(/^::warning::.*$/gm) ?? [];

/** The job's cancel (SIGINT) once GitHub received a request of `method`; how long the step took after it. */
function cancelOn(gh: GitHubEmulator, method: string) {
  let signalledAt = 0;
  return {
    onSpawn: (kill: (signal: NodeJS.Signals) => void) => {
      const timer = setInterval(() => {
        if (gh.received.some((q) => q.method === method)) {
          clearInterval(timer);
          signalledAt = Date.now();
          kill('SIGINT');
        }
      }, 10);
    },
    exitMs: () => Date.now() - signalledAt,
  };
}

describe.concurrent('check: true through dist/', { timeout: 60_000 }, () => {
  it("a pull request's build is a check on its head commit, completed with the step's conclusion", async (test) => {
    const { expect } = test;
    const { w, gh } = await worlds(test);
    expect(existsSync(join(actionDir, 'node_modules'))).toBe(false);
    const r = await step(w, gh);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(gh.runs).toHaveLength(1);
    expect(gh.runs[0]).toMatchObject({
      head_sha: HEAD,
      name: 'bk-ci App',
      status: 'completed',
      conclusion: 'success',
      output: { title: 'Build #1 succeeded' },
    });
    expect(r.outputs['check-run-id']).toBe(String(gh.runs[0]?.id));
    expect(gh.received.filter((q) => q.status >= 400)).toEqual([]);
    expect(r.stdout).toContain(`::add-mask::${TOKEN}`);
    expect(JSON.stringify(w.emu.log)).not.toContain(TOKEN);
  });

  it('one door out, and a refused body: the token in bk-ci’s error and log lines reaches GitHub nowhere; annotations refused, the conclusion lands', async (test) => {
    const { expect } = test;
    const jobs = { Build: [{ name: 'Linux', jobId: 'build', steps: [{ name: 'Compile', stepId: 'compile' }] }] };
    const [compile = ''] = layout('p-app', ['Build'], jobs).flatMap((st) => st.jobs.flatMap((j) => j.steps.map((x) => x.id)));
    const { w, gh } = await worlds(test, { stages: ['Build'], jobs, phases: [{ status: 'RUNNING', ms: 800 }], result: 'FAILED' });
    const token = w.accessToken;
    w.pipeline({
      name: 'App',
      stages: ['Build'],
      jobs,
      phases: [{ status: 'RUNNING', ms: 800 }],
      result: 'FAILED',
      errorInfoList: [{ taskName: 'Compile', errorCode: 2199001, errorMsg: `401 for token ${token}` }],
      logs: {
        steps: [{ tag: compile, jobId: 'build', stepId: 'compile', containerHashId: 'c-1' }],
        lines: [
          { at: 100, step: compile, text: `src/main.c:3:1: error: ${token} undeclared` },
          { at: 200, step: compile, text: `echo ${token}` },
        ],
      },
    });
    const ws = await mkdtemp(join(tmpdir(), 'bkci-ws-'));
    await mkdir(join(ws, 'src'));
    await writeFile(join(ws, 'src', 'main.c'), '\n');
    gh.fault({ kind: 'invalid', method: 'PATCH', bodyHas: 'output.annotations' });
    const inputs = { 'bk-token': '', 'access-token': token, 'user-id': 'alice', logs: 'on-failure' };
    const r = await step(w, gh, inputs, { inputs: {}, env: { GITHUB_WORKSPACE: ws } });
    expect(r.code).toBe(1);
    expect(gh.runs[0]).toMatchObject({ status: 'completed', conclusion: 'failure', annotations: [] });
    for (const q of gh.received) expect(q.body).not.toContain(token);
    expect(seen(gh.runs[0]?.output.text ?? '')).toMatch(/echo \*\*\*/);
    expect(seen(gh.runs[0]?.output.text ?? '')).toMatch(/2199001: 401 for token \*\*\*/);
  });

  it('a check run is this build’s by its id: build-status of B (no pipeline-id) leaves A’s in progress, links B’s page', async (test) => {
    const { expect } = test;
    const { w, gh } = await worlds(test);
    const b = w.emu.seedBuild({ pipelineId: 'p-app', status: 'SUCCEED' });
    const a = { name: 'bk-ci App', head_sha: HEAD, status: 'in_progress', external_id: 'b-0000000000000000000000000000000a' };
    await fetch(`${gh.url}/repos/octo/app/check-runs`, {
      method: 'POST',
      headers: { authorization: `token ${TOKEN}` },
      body: JSON.stringify(a),
    });
    const r = await step(w, gh, { operation: 'build-status', 'build-id': b.id, 'pipeline-id': '' });
    expect(r.code, r.stdout).toBe(0);
    expect(gh.runs.map((c) => [c.external_id, c.status])).toEqual([
      [a.external_id, 'in_progress'],
      [b.id, 'completed'],
    ]);
    expect(gh.runs[1]?.details_url).toBe(r.outputs['build-url']);
    expect(r.outputs['build-url']).toMatch(/\/p-app\/detail\/b-/);
    expect(seen(gh.runs[1]?.output.summary ?? '')).toContain(`Build #1 ${b.id} succeeded`);
  });

  it('a cancel with the create in flight: the step exits within 2 s of the signal, the check completed as cancelled', async (test) => {
    const { expect } = test;
    const { w, gh } = await worlds(test, { phases: [{ status: 'RUNNING', ms: 600_000, stage: 'Build' }] });
    gh.fault({ kind: 'hang', method: 'POST' });
    const cancel = cancelOn(gh, 'POST');
    const r = await step(w, gh, {}, { inputs: {}, onSpawn: cancel.onSpawn });
    expect(cancel.exitMs()).toBeLessThan(2000);
    expect(r.outputs.conclusion).toBe('cancelled');
    expect(gh.runs).toHaveLength(1);
    expect(gh.runs[0]).toMatchObject({ status: 'completed', conclusion: 'cancelled' });
    expect(gh.received.map((q) => q.method)).toEqual(['POST', 'GET', 'POST']);
  });

  it('a secondary rate limit of 50 s on the final update: given up at once with one warning, not waited out', async (test) => {
    const { expect } = test;
    const { w, gh } = await worlds(test);
    gh.fault({ kind: 'secondary', method: 'PATCH', retryAfter: 50 });
    const r = await step(w, gh, { timeout: '8s' });
    expect(r.code).toBe(0);
    expect(r.durationMs).toBeLessThan(8000);
    expect(warnings(r.stdout)).toEqual([
      expect.stringMatching(/the check run "bk-ci App" \(\d+\) was left in progress, .*GitHub asked to wait 50s/),
    ]);
  });

  it('a cancel while the end waits out a rate limit (a door not listed): the step exits within 2 s, saying the check was left in progress', async (test) => {
    const { expect } = test;
    const { w, gh } = await worlds(test);
    gh.fault({ kind: 'secondary', method: 'PATCH', retryAfter: 6 });
    const cancel = cancelOn(gh, 'PATCH');
    const r = await step(w, gh, {}, { inputs: {}, onSpawn: cancel.onSpawn });
    expect(cancel.exitMs()).toBeLessThan(2000);
    expect(r.outputs.conclusion).toBe('success');
    expect(warnings(r.stdout)).toEqual([expect.stringMatching(/was left in progress, .*GitHub asked to wait 6s/)]);
  });

  it('GitHub answering 503 to all, the create’s answer lost: a cadence, not a poll; no HTML in the log; one check, said to maybe exist', async (test) => {
    const { expect } = test;
    const { w, gh } = await worlds(test, { phases: [{ status: 'RUNNING', ms: 2500, stage: 'Build' }] });
    gh.fault({ kind: 'drop', method: 'POST' });
    gh.fault({ kind: 'error', status: 503, times: 1000 });
    const r = await step(w, gh, { 'poll-interval': '1s' });
    expect(r.code).toBe(0);
    expect(gh.received.map((q) => q.method)).toEqual(['POST', 'GET']);
    expect(gh.runs).toHaveLength(1);
    expect(r.stdout).not.toMatch(/<html|<style|DOCTYPE/i);
    expect(warnings(r.stdout)).toHaveLength(2);
    expect(warnings(r.stdout)[1]).toMatch(/may exist on GitHub .*503: Unicorn! · GitHub/);
  });

  it("a failed step's compiler errors, all 30 of them, are annotations on the checkout's files", async (test) => {
    const { expect } = test;
    const stages = ['Build'];
    const jobs = { Build: [{ name: 'Linux', jobId: 'build', steps: [{ name: 'Compile', stepId: 'compile' }] }] };
    const [tag = ''] = layout('p-app', stages, jobs).flatMap((st) => st.jobs.flatMap((j) => j.steps.map((x) => x.id)));
    const tsc = Array.from(
      { length: 30 },
      (_, i) => `/data/devops/workspace/src/app.ts(${i + 1},7): error TS2304: Cannot find name 'n${i + 1}'.`,
    );
    const texts = [...tsc, 'npm ERR! code ELIFECYCLE', 'npm ERR! errno 2', 'npm ERR! Exit status 2'];
    const { w, gh } = await worlds(test, {
      stages,
      jobs,
      phases: [{ status: 'RUNNING', ms: 800 }],
      result: 'FAILED',
      logs: {
        steps: [{ tag, jobId: 'build', stepId: 'compile', containerHashId: 'c-1' }],
        lines: texts.map((text, i) => ({ at: 100 + i, step: tag, text })),
      },
    });
    const checkout = await mkdtemp(join(tmpdir(), 'bkci-ws-'));
    await mkdir(join(checkout, 'src'));
    await writeFile(join(checkout, 'src', 'app.ts'), '\n');
    const r = await step(w, gh, { logs: 'live' }, { inputs: {}, env: { GITHUB_WORKSPACE: checkout } });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(gh.runs[0]).toMatchObject({ status: 'completed', conclusion: 'failure' });
    const annotations = (gh.runs[0]?.annotations ?? []) as { path: string; start_line: number }[];
    expect(annotations.map((a) => [a.path, a.start_line])).toEqual(tsc.map((_, i) => ['src/app.ts', i + 1]));
    expect(seen(gh.runs[0]?.output.text ?? '')).toMatch(/30 compiler messages .*all annotated/);
    expect(r.summary).toMatch(/Compiler messages.*30 compiler messages/);
    expect(gh.received.filter((q) => q.status >= 400)).toEqual([]);
  });
});
