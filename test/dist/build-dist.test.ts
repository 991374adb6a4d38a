// A job cancelled while the start is in flight: the built action, as the runner runs it, is sent
// SIGINT while bk-ci holds the build_start request; it stops the build once it is known (its late
// answer, or found in the history) and exits within 7 s of the signal.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FaultRule } from '../../emulator/faults.ts';
import { type Emulator, startEmulator } from '../../emulator/server.ts';
import { cleanupSteps, installAction, runStep } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';

let actionDir: string;
beforeAll(async () => {
  actionDir = await installAction();
  expect(existsSync(join(actionDir, 'node_modules'))).toBe(false);
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
  emu.seedPipeline({ projectId: 'demo', pipelineId: 'p-long', phases: [{ status: 'RUNNING', ms: 600_000 }] });
});
afterEach(() => emu.close());

/** Starts the step, sends SIGINT once bk-ci holds the start, and measures the exit from the signal. */
async function cancelDuringStart(fault: FaultRule['fault'], after: boolean, inputs: Record<string, string> = {}) {
  emu.faults.add({ pattern: /build_start$/, after, fault });
  let signalledAt = 0;
  const r = await runStep(actionDir, {
    inputs: {
      operation: 'start-build',
      'base-url': emu.url,
      'bk-token': bkToken,
      'project-id': 'demo',
      'pipeline-id': 'p-long',
      ...inputs,
    },
    env: { GITHUB_SHA: 'abcdef1234567', GITHUB_REPOSITORY: 'octo/app', GITHUB_RUN_ID: '77', GITHUB_RUN_ATTEMPT: '1', GITHUB_JOB: 'ship' },
    onSpawn: (kill) => {
      const timer = setInterval(() => {
        if (emu.requests({ path: '/build_start' }).length > 0) {
          clearInterval(timer);
          setTimeout(() => {
            signalledAt = Date.now();
            kill('SIGINT');
          }, 150);
        }
      }, 10);
    },
  });
  return { r, exitMs: Date.now() - signalledAt };
}

describe('a cancel while the start is in flight', () => {
  it('the answer comes late: the build it names is stopped, within 7 s of the signal', async () => {
    const { r, exitMs } = await cancelDuringStart({ kind: 'delay', ms: 1200 }, false);
    expect(exitMs).toBeLessThan(7000);
    expect(emu.requests({ path: '/build_start' })).toHaveLength(1);
    const [build] = emu.builds.builds.values();
    failedWith(
      r,
      new RegExp(
        `^bk-ci start-build failed: cancelled while the start was in flight; the build ${build?.id} was stopped in bk-ci \\(stop-on-cancel\\)$`,
      ),
    );
    expect(build && emu.builds.state(build).status).toBe('CANCELED');
    expect(r.outputs).toMatchObject({ 'build-id': build?.id, conclusion: 'cancelled' });
  });

  it('the answer never comes: the build is found in the history by its message and stopped, within 7 s', async () => {
    const { r, exitMs } = await cancelDuringStart({ kind: 'hang' }, true);
    expect(exitMs).toBeLessThan(7000);
    expect(emu.requests({ path: '/build_start' })).toHaveLength(1);
    const [build] = emu.builds.builds.values();
    expect(r.stdout).toMatch(new RegExp(`found the build this step started in the pipeline's history: #1 \\(${build?.id}\\)`));
    failedWith(r, /cancelled while the start was in flight; the build b-\w+ was stopped in bk-ci \(stop-on-cancel\)$/);
    expect(build && emu.builds.state(build).status).toBe('CANCELED');
  });

  it('no build turns up: the step says it may have started, within 7 s, and started nothing itself', async () => {
    const { r, exitMs } = await cancelDuringStart({ kind: 'hang' }, false);
    expect(exitMs).toBeLessThan(7000);
    expect(emu.builds.builds.size).toBe(0);
    failedWith(r, /the build may have started: the answer to the start was lost \(.*\), and no build with this step's message turned up/);
    expect(r.errors[0]).toMatch(/"GitHub octo\/app run 77 job ship \(p-[\w-]+, params [0-9a-f]{8}\) attempt 1 \[[0-9a-f-]+\]"/);
  });

  it('a cancel before the start was sent (the token still coming): nothing started, conclusion cancelled', async () => {
    emu.faults.add({ pattern: /token\/get$/, fault: { kind: 'hang' } });
    let signalledAt = 0;
    const r = await runStep(actionDir, {
      inputs: { operation: 'start-build', 'base-url': emu.url, 'bk-token': bkToken, 'project-id': 'demo', 'pipeline-id': 'p-long' },
      onSpawn: (kill) => {
        const timer = setInterval(() => {
          if (emu.requests({ path: '/token/get' }).length > 0) {
            clearInterval(timer);
            signalledAt = Date.now();
            kill('SIGINT');
          }
        }, 10);
      },
    });
    expect(Date.now() - signalledAt).toBeLessThan(7000);
    failedWith(r, /^bk-ci start-build failed: cancelled before the start was sent: no build was started$/);
    expect(r.outputs).toMatchObject({ conclusion: 'cancelled', 'build-id': '' });
    expect(emu.requests({ path: '/build_start' })).toHaveLength(0);
  });

  it('stop-on-cancel: false leaves the found build running, and says so', async () => {
    const { r, exitMs } = await cancelDuringStart({ kind: 'delay', ms: 800 }, false, { 'stop-on-cancel': 'false' });
    expect(exitMs).toBeLessThan(7000);
    const [build] = emu.builds.builds.values();
    failedWith(r, /cancelled while the start was in flight; the build b-\w+ goes on in bk-ci \(stop-on-cancel: false\)$/);
    expect(build && emu.builds.state(build).status).toBe('RUNNING');
    expect(r.outputs.conclusion).toBe('running');
  });
});

describe('the built action, as the runner runs it', () => {
  it('sends build-params exactly as written: a tag 1.10, a short SHA, 007', async () => {
    emu.seedPipeline({ projectId: 'demo', pipelineId: 'p-quick', phases: [{ status: 'RUNNING', ms: 200 }] });
    const r = await runStep(actionDir, {
      inputs: {
        operation: 'start-build',
        'base-url': emu.url,
        'bk-token': bkToken,
        'project-id': 'demo',
        'pipeline-id': 'p-quick',
        'poll-interval': '1s',
        'build-params': 'APP_VERSION: 1.10\nSHA: 7e12345\nBUILD: 007\nFLAG: yes\nQUOTED: "2.0"',
      },
    });
    expect(r.errors).toEqual([]);
    expect(JSON.parse(emu.requests({ path: '/build_start' })[0]?.body ?? '')).toMatchObject({
      APP_VERSION: '1.10',
      SHA: '7e12345',
      BUILD: '007',
      FLAG: 'yes',
      QUOTED: '2.0',
    });
    expect(r.outputs.conclusion).toBe('success');
  });

  it('a start whose answer a gateway lost (504 after bk-ci took it) is found, not sent again', async () => {
    emu.seedPipeline({ projectId: 'demo', pipelineId: 'p-quick', phases: [{ status: 'RUNNING', ms: 200 }] });
    emu.faults.add({ pattern: /build_start$/, after: true, fault: { kind: 'status', status: 504, contentType: 'html' } });
    const r = await runStep(actionDir, {
      inputs: {
        operation: 'start-build',
        'base-url': emu.url,
        'bk-token': bkToken,
        'project-id': 'demo',
        'pipeline-id': 'p-quick',
        'poll-interval': '1s',
      },
    });
    expect(r.errors).toEqual([]);
    expect(emu.requests({ path: '/build_start' })).toHaveLength(1);
    expect(r.outputs).toMatchObject({ 'build-id': [...emu.builds.builds.keys()][0], conclusion: 'success' });
  });
});
