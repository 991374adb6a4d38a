// The check run through the built action, as the runner runs it (dist/index.js, no node_modules):
// a pull request's build shown on its head commit. What only the built action shows: GitHub's
// client (dist/github.js, Octokit) is loaded by its one dynamic import and works without
// node_modules, and the token is masked on the process's stdout; the failed step's compiler
// errors as annotations on the checkout the runner made. The check's other cases (a fork's
// read-only token, GitHub's errors) are run() in process: test/run/check-run*.test.ts.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { layout } from '../../emulator/build-model.ts';
import { type GitHubEmulator, startGitHub } from '../../emulator/github.ts';
import { cleanupSteps, installAction, runStep } from '../support/dist-runner.ts';
import { HEAD, pullRequestStep } from '../support/pull-request-step.ts';
import { useWorld } from '../support/world.ts';

const TOKEN = 'ghs_dist-check-token-0002';

let actionDir: string;
let work: string;
beforeAll(async () => {
  actionDir = await installAction();
  expect(existsSync(join(actionDir, 'node_modules'))).toBe(false);
  work = await mkdtemp(join(tmpdir(), 'bkci-check-dist-'));
});
afterAll(async () => {
  await rm(actionDir, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
  await cleanupSteps();
});

const w = useWorld({ realTime: true });
let gh: GitHubEmulator;
beforeEach(async () => {
  w.pipeline({ name: 'App', phases: [{ status: 'RUNNING', ms: 800, stage: 'Build' }] });
  // The first start compiles GitHub's schemas (a few hundred ms idle, much more on a busy machine).
  gh = await startGitHub();
}, 60_000);
afterEach(() => gh.close());

const run = async (token: string) => runStep(actionDir, await pullRequestStep(w, gh, token, work));

describe('check: true through dist/', { timeout: 60_000 }, () => {
  it("a pull request's build is a check on its head commit, completed with the step's conclusion", async () => {
    gh.addToken(TOKEN);
    const r = await run(TOKEN);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(gh.runs).toHaveLength(1);
    expect(gh.runs[0]).toMatchObject({ head_sha: HEAD, name: 'bk-ci App', status: 'completed', conclusion: 'success' });
    expect(r.outputs['check-run-id']).toBe(String(gh.runs[0]?.id));
    expect(gh.received.filter((q) => q.status >= 400)).toEqual([]);
    expect(r.stdout).toContain(`::add-mask::${TOKEN}`);
    expect(JSON.stringify(w.emu.log)).not.toContain(TOKEN);
  });

  it("a failed step's compiler errors, all 30 of them, are annotations on the checkout's files", async () => {
    gh.addToken(TOKEN);
    const stages = ['Build'];
    const jobs = { Build: [{ name: 'Linux', jobId: 'build', steps: [{ name: 'Compile', stepId: 'compile' }] }] };
    const [tag = ''] = layout('p-tsc', stages, jobs).flatMap((st) => st.jobs.flatMap((j) => j.steps.map((x) => x.id)));
    const tsc = Array.from(
      { length: 30 },
      (_, i) => `/data/devops/workspace/src/app.ts(${i + 1},7): error TS2304: Cannot find name 'n${i + 1}'.`,
    );
    const texts = [...tsc, 'npm ERR! code ELIFECYCLE', 'npm ERR! errno 2', 'npm ERR! Exit status 2'];
    w.pipeline({
      pipelineId: 'p-tsc',
      name: 'Tsc',
      stages,
      jobs,
      phases: [{ status: 'RUNNING', ms: 800 }],
      result: 'FAILED',
      logs: {
        steps: [{ tag, jobId: 'build', stepId: 'compile', containerHashId: 'c-1' }],
        lines: texts.map((text, i) => ({ at: 100 + i, step: tag, text })),
      },
    });
    const checkout = join(work, 'checkout');
    await mkdir(join(checkout, 'src'), { recursive: true });
    await writeFile(join(checkout, 'src', 'app.ts'), '\n');
    const step = await pullRequestStep(w, gh, TOKEN, work);
    const r = await runStep(actionDir, {
      inputs: { ...step.inputs, 'pipeline-id': 'p-tsc', logs: 'live' },
      env: { ...step.env, GITHUB_WORKSPACE: checkout },
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(gh.runs[0]).toMatchObject({ status: 'completed', conclusion: 'failure' });
    const annotations = (gh.runs[0]?.annotations ?? []) as { path: string; start_line: number }[];
    expect(annotations.map((a) => [a.path, a.start_line])).toEqual(tsc.map((_, i) => ['src/app.ts', i + 1]));
    expect(gh.runs[0]?.output.text).toMatch(/30 compiler messages .*all annotated/);
    expect(r.summary).toMatch(/Compiler messages.*30 compiler messages/);
    expect(gh.received.filter((q) => q.status >= 400)).toEqual([]);
  });
});
