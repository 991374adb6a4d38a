// The check run through the built action, as the runner runs it (dist/index.js, no node_modules):
// a pull request's build shown on its head commit, and a fork's read-only token changing nothing.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type GitHubEmulator, startGitHub } from '../../emulator/github.ts';
import { type Emulator, startEmulator } from '../../emulator/server.ts';
import { cleanupSteps, installAction, runStep } from '../support/dist-runner.ts';

const HEAD = 'c'.repeat(40);
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

let emu: Emulator;
let gh: GitHubEmulator;
let bkToken: string;
beforeEach(async () => {
  emu = await startEmulator({ flavour: 'bkci' });
  gh = await startGitHub();
  bkToken = emu.addUser('alice').bkToken;
  emu.seedProject({ englishName: 'demo', projectName: 'Demo', creator: 'alice' });
  emu.seedPipeline({ projectId: 'demo', pipelineId: 'p-app', name: 'App', phases: [{ status: 'RUNNING', ms: 800, stage: 'Build' }] });
  // The first start compiles GitHub's schemas (a few hundred ms idle, much more on a busy machine).
}, 60_000);
afterEach(() => Promise.all([emu.close(), gh.close()]));

async function run(token: string) {
  const event = join(work, 'event.json');
  await writeFile(event, JSON.stringify({ pull_request: { head: { sha: HEAD } } }));
  return runStep(actionDir, {
    inputs: {
      operation: 'start-build',
      'base-url': emu.url,
      'bk-token': bkToken,
      'project-id': 'demo',
      'pipeline-id': 'p-app',
      'poll-interval': '1s',
      logs: 'none',
      check: 'true',
      'github-token': token,
    },
    env: {
      GITHUB_API_URL: gh.url,
      GITHUB_REPOSITORY: 'octo/app',
      GITHUB_SHA: 'd'.repeat(40),
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: event,
    },
  });
}

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
    expect(JSON.stringify(emu.log)).not.toContain(TOKEN);
  });

  it("a fork's read-only token: one warning naming permissions: checks: write, the step passes as without check", async () => {
    gh.addToken(TOKEN, 'read');
    const r = await run(TOKEN);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.conclusion).toBe('success');
    expect(r.stdout.match(/^::warning::.*checks: write.*$/gm)).toHaveLength(1);
    expect(gh.runs).toHaveLength(0);
  });
});
