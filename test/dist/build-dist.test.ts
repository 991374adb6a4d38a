// A job cancelled while the start is in flight: the built action, as the runner runs it, is sent
// SIGINT while bk-ci holds the build_start request; it stops the build once it is known (its late
// answer, or found in the history) and exits within 7 s of the signal. Only a process shows this:
// the runner's signal, the process's own handlers and its exit. The start's other cases (what is
// sent, an answer a gateway lost) are run() in process: test/run/start-build-as-written.test.ts.
// The cases are independent steps against worlds of their own: they run at the same time.
import { afterAll, beforeAll, describe, it, type TestContext } from 'vitest';
import type { FaultRule } from '../../emulator/faults.ts';
import { runCancelledWhen, runStep, useInstalledAction } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import type { World } from '../support/world.ts';
import { worldForTest } from '../support/world.ts';

const action = useInstalledAction({ beforeAll, afterAll });

/** A world whose pipeline p-long runs ten minutes, in real time (the built action has its own clock). */
async function longWorld(test: TestContext): Promise<World> {
  const w = await worldForTest({ realTime: true }, test);
  w.pipeline({ pipelineId: 'p-long', phases: [{ status: 'RUNNING', ms: 600_000 }] });
  return w;
}

/** Starts the step, sends SIGINT once bk-ci holds the start, and measures the exit from the signal. */
function cancelDuringStart(w: World, fault: FaultRule['fault'], after: boolean, inputs: Record<string, string> = {}) {
  w.emu.faults.add({ pattern: /build_start$/, after, fault });
  return runCancelledWhen(
    action(),
    {
      inputs: { operation: 'start-build', ...w.connection(), 'pipeline-id': 'p-long', ...inputs },
      env: { GITHUB_SHA: 'abcdef1234567', GITHUB_REPOSITORY: 'octo/app', GITHUB_RUN_ID: '77', GITHUB_RUN_ATTEMPT: '1', GITHUB_JOB: 'ship' },
    },
    () => w.emu.requests({ path: '/build_start' }).length > 0,
  );
}

describe.concurrent('a cancel while the start is in flight', () => {
  it('the answer comes late: the build it names is stopped, within 7 s of the signal', async (test) => {
    const { expect } = test;
    const w = await longWorld(test);
    const { r, exitMs } = await cancelDuringStart(w, { kind: 'delay', ms: 1200 }, false);
    expect(exitMs).toBeLessThan(7000);
    expect(w.emu.requests({ path: '/build_start' })).toHaveLength(1);
    const [build] = w.emu.builds.builds.values();
    failedWith(
      r,
      new RegExp(
        `^bk-ci start-build failed: cancelled while the start was in flight; the build ${build?.id} was stopped in bk-ci \\(stop-on-cancel\\)$`,
      ),
      expect,
    );
    expect(build && w.emu.builds.state(build).status).toBe('CANCELED');
    // What bk-ci ended the build with, read once after the stop: not the RUNNING last seen.
    expect(r.outputs).toMatchObject({ 'build-id': build?.id, conclusion: 'cancelled', 'build-status': 'CANCELED' });
    expect(r.summary).toMatch(/\| Status \| CANCELED \|/);
  });

  it('the answer never comes: the build is found in the history by its message and stopped, within 7 s', async (test) => {
    const { expect } = test;
    const w = await longWorld(test);
    const { r, exitMs } = await cancelDuringStart(w, { kind: 'hang' }, true);
    expect(exitMs).toBeLessThan(7000);
    expect(w.emu.requests({ path: '/build_start' })).toHaveLength(1);
    const [build] = w.emu.builds.builds.values();
    expect(r.stdout).toMatch(new RegExp(`found the build this step started in the pipeline's history: #1 \\(${build?.id}\\)`));
    failedWith(r, /cancelled while the start was in flight; the build b-\w+ was stopped in bk-ci \(stop-on-cancel\)$/, expect);
    expect(build && w.emu.builds.state(build).status).toBe('CANCELED');
    expect(r.outputs['build-status']).toBe('CANCELED');
  });

  it('no build turns up: the step says it may have started, within 7 s, and started nothing itself', async (test) => {
    const { expect } = test;
    const w = await longWorld(test);
    const { r, exitMs } = await cancelDuringStart(w, { kind: 'hang' }, false);
    expect(exitMs).toBeLessThan(7000);
    expect(w.emu.builds.builds.size).toBe(0);
    failedWith(
      r,
      /the build may have started: the answer to the start was lost \(.*\), and no build with this step's message turned up/,
      expect,
    );
    expect(r.errors[0]).toMatch(/"GitHub octo\/app run 77 job ship \(p-[\w-]+, params [0-9a-f]{8}\) attempt 1 \[[0-9a-f-]+\]"/);
  });

  it('a cancel before the start was sent (the token still coming): nothing started, conclusion cancelled', async (test) => {
    const { expect } = test;
    const w = await longWorld(test);
    w.emu.faults.add({ pattern: /token\/get$/, fault: { kind: 'hang' } });
    let signalledAt = 0;
    const r = await runStep(action(), {
      inputs: { operation: 'start-build', ...w.connection(), 'pipeline-id': 'p-long' },
      onSpawn: (kill) => {
        const timer = setInterval(() => {
          if (w.emu.requests({ path: '/token/get' }).length > 0) {
            clearInterval(timer);
            signalledAt = Date.now();
            kill('SIGINT');
          }
        }, 10);
      },
    });
    expect(Date.now() - signalledAt).toBeLessThan(7000);
    failedWith(r, /^bk-ci start-build failed: cancelled before the start was sent: no build was started$/, expect);
    expect(r.outputs).toMatchObject({ conclusion: 'cancelled', 'build-id': '' });
    expect(w.emu.requests({ path: '/build_start' })).toHaveLength(0);
  });

  it('stop-on-cancel: false leaves the found build running, and says so', async (test) => {
    const { expect } = test;
    const w = await longWorld(test);
    const { r, exitMs } = await cancelDuringStart(w, { kind: 'delay', ms: 800 }, false, { 'stop-on-cancel': 'false' });
    expect(exitMs).toBeLessThan(7000);
    const [build] = w.emu.builds.builds.values();
    failedWith(r, /cancelled while the start was in flight; the build b-\w+ goes on in bk-ci \(stop-on-cancel: false\)$/, expect);
    expect(build && w.emu.builds.state(build).status).toBe('RUNNING');
    expect(r.outputs.conclusion).toBe('running');
    expect(r.outputs['build-status']).toBe('');
  });
});
