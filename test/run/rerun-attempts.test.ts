// A re-run of the workflow, attempt after attempt of the same step: run() in this process against
// the emulator, on the clock the step and the emulator share. Attempt 1 failed: attempt 2 retries
// it, or says why bk-ci would not. (Attempt 2 taking a build that succeeded runs through dist/:
// test/dist/rerun-dist.test.ts.)
import { afterAll, describe, expect, it } from 'vitest';
import { failedWith } from '../support/expect-step.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { rerunStep, seedRerunPipeline } from '../support/rerun-step.ts';
import { useWorld } from '../support/world.ts';

afterAll(cleanupRuns);

const w = useWorld();

const pipeline = (result: string) => seedRerunPipeline(w, result);
const attempt = (n: number) => {
  const { inputs, env } = rerunStep(w, n);
  return runInProcess({ inputs, env, clock: w.clock });
};

describe('a re-run of the workflow, attempt after attempt', () => {
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
    expect(w.emu.requests({ path: 'build_retry' })).toHaveLength(1);
    expect(w.emu.requests({ path: 'build_start' })).toHaveLength(1);
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
