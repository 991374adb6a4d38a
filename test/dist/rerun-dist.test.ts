// A re-run through the built action, as the runner runs it (dist/index.js, no node_modules): attempt
// 1 of a step, then attempt 2 of the same step, against the emulator in real time. What only
// processes show: two runs of the step that share nothing but the runner's environment (the run,
// its attempt, the job) and bk-ci's history find the same build. The re-run's decisions (retry,
// a refused retry) are run() in process: test/run/rerun-attempts.test.ts.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSteps, installAction, runStep } from '../support/dist-runner.ts';
import { rerunStep, seedRerunPipeline } from '../support/rerun-step.ts';
import { useWorld } from '../support/world.ts';

let actionDir: string;
beforeAll(async () => {
  actionDir = await installAction();
});
afterAll(async () => {
  await rm(actionDir, { recursive: true, force: true });
  await cleanupSteps();
});

const w = useWorld({ realTime: true });

const pipeline = (result: string) => seedRerunPipeline(w, result);
const attempt = (n: number) => runStep(actionDir, rerunStep(w, n));

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
    expect(w.emu.requests({ path: 'build_start' })).toHaveLength(1);
  });
});
