// The check run through the built action, as the runner runs it (dist/index.js, no node_modules):
// a pull request's build shown on its head commit. What only the built action shows: GitHub's
// client (dist/github.js, Octokit) is loaded by its one dynamic import and works without
// node_modules, and the token is masked on the process's stdout. The check's other cases (a fork's
// read-only token, GitHub's errors) are run() in process: test/run/check-run*.test.ts.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
});
