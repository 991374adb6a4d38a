// check: true on a pull request from a fork, whose token may only read: run() in this process
// against the bk-ci emulator and the emulator's GitHub side, on the clock they share. The check
// changes nothing, says why once, and the step passes as it would without it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GitHubEmulator, startGitHub } from '../../emulator/github.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { pullRequestStep } from '../support/pull-request-step.ts';
import { useWorld } from '../support/world.ts';

const TOKEN = 'ghs_dist-check-token-0002';

const w = useWorld();
let gh: GitHubEmulator;
let work: string;
beforeEach(async () => {
  gh = await startGitHub({ now: () => w.clock.now() });
  work = await mkdtemp(join(tmpdir(), 'bkci-check-fork-'));
  w.pipeline({ name: 'App', phases: [{ status: 'RUNNING', ms: 800, stage: 'Build' }] });
});
afterEach(async () => {
  await gh.close();
  await rm(work, { recursive: true, force: true });
});
afterAll(cleanupRuns);

describe('check: true with a read-only token', () => {
  it("a fork's read-only token: one warning naming permissions: checks: write, the step passes as without check", async () => {
    gh.addToken(TOKEN, 'read');
    const { inputs, env } = await pullRequestStep(w, gh, TOKEN, work);
    const r = await runInProcess({ inputs, env, clock: w.clock });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.conclusion).toBe('success');
    expect(r.stdout.match(/^::warning::.*checks: write.*$/gm)).toHaveLength(1);
    expect(gh.runs).toHaveLength(0);
  });

  it('build-status of a build that has ended (the last update is the first write): still one warning', async () => {
    gh.addToken(TOKEN, 'read');
    const b = w.emu.seedBuild({ pipelineId: 'p-app', status: 'SUCCEED' });
    const { inputs, env } = await pullRequestStep(w, gh, TOKEN, work);
    const r = await runInProcess({ inputs: { ...inputs, operation: 'build-status', 'build-id': b.id }, env, clock: w.clock });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout.match(/^::warning::.*$/gm)).toEqual([expect.stringMatching(/Resource not accessible by integration.*checks: write/)]);
    expect(gh.runs).toHaveLength(0);
  });
});
