// A re-run through the built action, as the runner runs it (dist/index.js, no node_modules): attempt
// 1 of a step, then attempt 2 of the same step, against the emulator in real time.
import { rm } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/server.ts';
import { cleanupSteps, installAction, runStep } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';

let actionDir: string;
beforeAll(async () => {
  actionDir = await installAction();
});
afterAll(async () => {
  await rm(actionDir, { recursive: true, force: true });
  await cleanupSteps();
});

let emu: Emulator;
let bkToken: string;
beforeEach(async () => {
  emu = await startEmulator({ flavour: 'bkci' });
  bkToken = emu.addUser('alice').bkToken;
  emu.seedProject({ englishName: 'demo', projectName: 'Demo', creator: 'alice' });
});
afterEach(() => emu.close());

const pipeline = (result: string) =>
  emu.seedPipeline({
    projectId: 'demo',
    pipelineId: 'p-app',
    phases: [
      { status: 'QUEUE', ms: 100 },
      { status: 'RUNNING', ms: 300 },
    ],
    stages: ['Build', 'Release'],
    result,
    retryResult: 'SUCCEED',
  });
const attempt = (n: number) =>
  runStep(actionDir, {
    inputs: {
      operation: 'start-build',
      'base-url': emu.url,
      'bk-token': bkToken,
      'project-id': 'demo',
      'pipeline-id': 'p-app',
      'build-params': 'TARGET: linux',
      'poll-interval': '1s',
    },
    env: {
      GITHUB_SHA: 'abcdef1234567',
      GITHUB_REPOSITORY: 'octo/app',
      GITHUB_RUN_ID: '77',
      GITHUB_RUN_ATTEMPT: String(n),
      GITHUB_JOB: 'ship',
    },
  });

describe('dist: a re-run of the workflow', () => {
  it('attempt 1 succeeded: attempt 2 takes its build; nothing started', async () => {
    pipeline('SUCCEED');
    const first = await attempt(1);
    expect(first.outputs).toMatchObject({ conclusion: 'success', rerun: 'none' });
    const second = await attempt(2);
    expect(second.code).toBe(0);
    expect(second.outputs).toMatchObject({
      rerun: 'adopted',
      'build-id': first.outputs['build-id'],
      conclusion: 'success',
      'build-num': '1',
    });
    expect(emu.requests({ path: 'build_start' })).toHaveLength(1);
  });

  it('attempt 1 failed: attempt 2 retries its failed jobs, the same build, run 2', async () => {
    pipeline('FAILED');
    const first = await attempt(1);
    expect(first.outputs).toMatchObject({ conclusion: 'failure' });
    const second = await attempt(2);
    expect(second.code).toBe(0);
    expect(second.outputs).toMatchObject({
      rerun: 'retried',
      'build-id': first.outputs['build-id'],
      'execute-count': '2',
      conclusion: 'success',
    });
    expect(emu.requests({ path: 'build_retry' })).toHaveLength(1);
    expect(emu.requests({ path: 'build_start' })).toHaveLength(1);
  });

  it('bk-ci refuses the retry (the pipeline locked): the step fails saying why and that on-rerun: start starts a new build', async () => {
    const p = pipeline('FAILED');
    await attempt(1);
    p.locked = true;
    const second = await attempt(2);
    failedWith(
      second,
      /bk-ci refused to retry build b-\w+: the pipeline is locked \(disabled\).*on-rerun: start starts a new build instead/,
    );
    expect(second.outputs).toMatchObject({ rerun: 'none' });
  });
});
