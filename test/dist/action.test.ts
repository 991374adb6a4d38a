// What only the built action can show, as the runner runs it: dist/ loaded without node_modules,
// the signals a cancelled job gets and the exit that follows, a real deadline against a server that
// hangs, and one keep-alive connection for a whole wait. Each step is a process of its own against an
// emulator of its own, so the tests run concurrently. What the operations output and say runs in
// process in test/run/operations.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStep, useInstalledAction } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { signRunningFor } from '../support/sign-reads.ts';
import { type World, worldForTest } from '../support/world.ts';

const action = useInstalledAction({ beforeAll, afterAll });

/** A step of the built action against the world, as its first user. */
const step = (w: World, inputs: Record<string, string>, extra: Partial<Parameters<typeof runStep>[1]> = {}) =>
  runStep(action(), { inputs: { 'base-url': w.emu.url, 'bk-token': w.bkToken, ...inputs }, ...extra });

describe.concurrent('the built action', () => {
  it('sign-detail: a server that hangs cannot hold the step past the deadline by more than one request-timeout', async (test) => {
    const w = await worldForTest({ realTime: true }, test);
    w.emu.seedSign({ resignId: 's-hang', runningMs: 600_000 });
    w.emu.faults.add({ pattern: /\/detail/, times: Infinity, fault: { kind: 'hang' } });
    // Counted from the step's first output, not from the spawn: how long Node takes to start on
    // a busy machine is not the step holding on past its deadline.
    const spawned = Date.now();
    let started: number | undefined;
    const r = await step(
      w,
      { operation: 'sign-detail', 'resign-id': 's-hang', timeout: '2s', 'request-timeout': '1s', 'poll-interval': '1s', retries: '5' },
      {
        echo: () => {
          started ??= Date.now();
        },
      },
    );
    failedWith(r, /got no complete answer within request-timeout \(1s\)/);
    expect(r.durationMs - ((started ?? spawned) - spawned)).toBeLessThan(2000 + 1000 + 700);
  });

  it('sign-detail: the token request and every poll share one connection', async (test) => {
    const w = await worldForTest({ realTime: true }, test);
    const done = signRunningFor(w.emu, 's-ka', 2);
    const r = await step(w, { operation: 'sign-detail', 'resign-id': 's-ka', 'poll-interval': '1s' }).finally(done);
    expect(r.code).toBe(0);
    const polls = Number(r.outputs.polls);
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(w.emu.requests()).toHaveLength(polls + 1);
    expect(new Set(w.emu.requests().map((q) => q.remotePort)).size).toBe(1);
  });

  it.for(['SIGINT', 'SIGTERM'] as const)('sign-detail: %s mid-wait stops within 2 s with a cancelled summary', async (signal, test) => {
    const w = await worldForTest({ realTime: true }, test);
    w.emu.seedSign({ resignId: 's-4', runningMs: 600_000 });
    let signalledAt = 0;
    const r = await step(
      w,
      { operation: 'sign-detail', 'resign-id': 's-4', 'poll-interval': '1s' },
      {
        onSpawn: (kill, out) => {
          const timer = setInterval(() => {
            if (out().includes('RUNNING (')) {
              clearInterval(timer);
              setTimeout(() => {
                signalledAt = Date.now();
                kill(signal);
              }, 1200);
            }
          }, 20);
        },
      },
    );
    const exitAfter = Date.now() - signalledAt;
    expect(exitAfter).toBeLessThan(2000);
    failedWith(r, /cancelled after \d(\.\d)?s, last status RUNNING/);
    expect(r.summary).toMatch(/cancelled after/);
  });

  it.for(['SIGINT', 'SIGTERM'] as const)(
    'start-build: %s mid-wait stops the build it started, within 2 s, and says so',
    async (signal, test) => {
      const w = await worldForTest({ realTime: true }, test);
      w.pipeline({ pipelineId: 'p-long', phases: [{ status: 'RUNNING', ms: 600_000 }] });
      let signalledAt = 0;
      const r = await step(
        w,
        { operation: 'start-build', 'project-id': 'demo', 'pipeline-id': 'p-long', 'poll-interval': '1s' },
        {
          onSpawn: (kill, out) => {
            const timer = setInterval(() => {
              if (out().includes('RUNNING')) {
                clearInterval(timer);
                signalledAt = Date.now();
                kill(signal);
              }
            }, 20);
          },
        },
      );
      expect(Date.now() - signalledAt).toBeLessThan(2000);
      const id = r.outputs['build-id'] ?? '';
      failedWith(r, new RegExp(`cancelled after .*, last status RUNNING; the build ${id} was stopped in bk-ci \\(stop-on-cancel\\)$`));
      expect(w.emu.requests({ path: '/build_stop' })).toHaveLength(1);
      const build = w.emu.builds.builds.get(id);
      expect(build && w.emu.builds.state(build).status).toBe('CANCELED');
      expect(r.summary).toMatch(/\| Stopped \| the build b-\w+ was stopped in bk-ci/);
      expect(r.outputs['build-status']).toBe('CANCELED');
    },
  );
});
