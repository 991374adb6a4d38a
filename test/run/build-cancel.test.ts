// A job cancelled while the step waits on the build it started (stop-on-cancel): the build is
// stopped, and what the step shows is the status bk-ci ended it with, read once more after the
// stop within a small budget; when that end is not seen, the words say so. watchBuild() against
// the emulator, on the clock the step and the emulator share, the cancel from the wait's hook.
import { describe, expect, it } from 'vitest';
import { OperationError } from '../../src/base/errors.ts';
import { type BuildView, buildOf } from '../../src/pipeline/build.ts';
import { watchBuild } from '../../src/pipeline/watch.ts';
import { Secrets } from '../../src/runner/secrets.ts';
import { makeClient, stepContext } from '../support/client.ts';
import { useWorld } from '../support/world.ts';

const w = useWorld();

/** A build of p-app running 10 minutes (or `runMs`); the job is cancelled once the wait saw it RUNNING. What the step made of it. */
async function cancelMidWait(onCancel: () => void = () => {}, runMs = 600_000) {
  w.pipeline();
  const { id } = w.emu.seedBuild({ pipelineId: 'p-app', status: 'RUNNING', runMs });
  const job = new AbortController();
  const cancelOnRunning = (v: BuildView) => {
    if (v.status !== 'RUNNING' || job.signal.aborted) return;
    onCancel();
    job.abort();
  };
  const c = makeClient({ baseUrl: w.emu.url, bkToken: w.bkToken, clock: w.clock, signal: job.signal, retries: 0 });
  const settings = { timeoutMs: 3_600_000, pollIntervalMs: 1000 };
  const ctx = { ...stepContext(c, w.clock, job.signal), settings, secrets: new Secrets(() => undefined) };
  const build = buildOf({ projectId: 'demo', pipelineId: 'p-app', id });
  try {
    const how = { wait: true, consoleUrl: undefined, stopOnCancel: true, onReview: 'wait', onView: cancelOnRunning } as const;
    const watching = watchBuild(build, how, ctx);
    const e = await watching.then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(OperationError);
    const failure = e as OperationError;
    const facts = failure.outcome.blocks.flatMap((b) => (b.kind === 'facts' ? b.rows : []));
    return { id, message: failure.message, outputs: failure.outcome.outputs, facts: Object.fromEntries(facts), log: c.log.text() };
  } finally {
    await c.close();
  }
}

describe('a cancel mid-wait with stop-on-cancel', () => {
  it('shows the status bk-ci ended the stopped build with: CANCELED, not the RUNNING seen before', async () => {
    const r = await cancelMidWait();
    expect(w.emu.requests({ path: '/build_stop' })).toHaveLength(1);
    expect(r.message).toBe(`cancelled after 0ms, last status RUNNING; the build ${r.id} was stopped in bk-ci (stop-on-cancel)`);
    expect(r.outputs).toMatchObject({ 'build-status': 'CANCELED', conclusion: 'cancelled', polls: '1' });
    expect(r.facts).toMatchObject({ Status: 'CANCELED', Stopped: `the build ${r.id} was stopped in bk-ci (stop-on-cancel)` });
  });

  it('bk-ci still shows it RUNNING after the stop: RUNNING, with words saying the stop was sent but the end not seen', async () => {
    const r = await cancelMidWait(() =>
      w.emu.faults.add({ pattern: /\/build_status$/, fault: { kind: 'patch', data: { status: 'RUNNING', endTime: null } } }),
    );
    expect(r.outputs).toMatchObject({ 'build-status': 'RUNNING', conclusion: 'cancelled' });
    const said = `the build ${r.id} was stopped in bk-ci (stop-on-cancel); the stop was sent, but its end was not seen: bk-ci still shows it RUNNING`;
    expect(r.facts).toMatchObject({ Status: 'RUNNING', Stopped: said });
    expect(r.log).toContain('info: the stop was sent, but its end was not seen: bk-ci still shows it RUNNING');
  });

  it('the build had ended before the stop reached it: the conclusion is its own end, as build-status shows it', async () => {
    // The build succeeds between the poll that saw it RUNNING and the cancel.
    const r = await cancelMidWait(() => {
      w.clock.t += 2000;
    }, 1500);
    expect(r.message).toBe(`cancelled after 2s, last status RUNNING; the build ${r.id} had already ended`);
    expect(r.outputs).toMatchObject({ 'build-status': 'SUCCEED', conclusion: 'success' });
  });

  it('the status cannot be read again: the last one seen, and why the end was not seen', async () => {
    const r = await cancelMidWait(() => w.emu.faults.add({ pattern: /\/build_status$/, fault: { kind: 'status', status: 503 } }));
    expect(r.outputs).toMatchObject({ 'build-status': 'RUNNING', conclusion: 'cancelled' });
    expect(r.facts.Stopped).toMatch(
      /^the build b-\w+ was stopped in bk-ci \(stop-on-cancel\); the stop was sent, but its end was not seen \(reading its status again failed: .*HTTP 503/,
    );
  });

  it('the read after the stop is over within its budget: a status that never comes holds nothing up', async () => {
    const r = await cancelMidWait(() => w.emu.faults.add({ pattern: /\/build_status$/, fault: { kind: 'hang' } }));
    expect(r.outputs).toMatchObject({ 'build-status': 'RUNNING', conclusion: 'cancelled' });
    expect(r.facts.Stopped).toMatch(/its end was not seen \(reading its status again failed: /);
  });
});
