// A job cancelled while build_retry is in flight is met as a start's cancel is: the request is let
// finish, its answer waited for a moment, else the model read once (sent all the same); the run it
// started is then stopped (stop-on-cancel), or the step says the retry may have been applied, or
// (cancelled before it was sent) that nothing was retried. retryOnce() and the one way out of a
// cancelled write (src/pipeline/cancelled-write.ts) against the emulator, on the shared clock; the
// job is cancelled the moment the emulator holds the request (and a re-run's search, likewise).
// Through dist/ with the runner's signal: test/dist/rerun-dist.test.ts.
import { describe, expect, it } from 'vitest';
import { ActionError, OperationError } from '../../src/base/errors.ts';
import { buildOf } from '../../src/pipeline/build.ts';
import { RetryMayHaveBeenAppliedError, RetryNotSentError } from '../../src/pipeline/build-failures.ts';
import { stopCancelled } from '../../src/pipeline/cancelled-write.ts';
import { continueEarlier } from '../../src/pipeline/rerun-continue.ts';
import { RETRY_CANCEL_BUDGET_MS, retryOnce } from '../../src/pipeline/rerun-retry.ts';
import { Secrets } from '../../src/runner/secrets.ts';
import { makeClient, stepContext } from '../support/client.ts';
import { useWorld } from '../support/world.ts';

let onHold = (): void => undefined;
const w = useWorld({ onHold: () => onHold() });

/** A failed build of p-app, the request `held` hanging (after bk-ci applied it, with `after`), and the job cancelled when it is held. */
async function cancelDuring(held: RegExp, after: boolean) {
  w.pipeline({ result: 'FAILED', retryResult: 'SUCCEED', phases: [{ status: 'RUNNING', ms: 600_000 }] });
  const { id } = w.emu.seedBuild({ pipelineId: 'p-app', status: 'FAILED', userId: 'alice' });
  const job = new AbortController();
  onHold = () => job.abort();
  w.emu.faults.add({ pattern: held, after, fault: { kind: 'hang' } });
  const c = makeClient({ baseUrl: w.emu.url, bkToken: w.bkToken, clock: w.clock, signal: job.signal, retries: 0 });
  const holds: number[] = [];
  let released = 0;
  const ctx = {
    ...stepContext(c, w.clock, job.signal),
    holdExit: (ms: number) => {
      holds.push(ms);
      return () => {
        released++;
      };
    },
  };
  const b = { projectId: 'demo', pipelineId: 'p-app', id };
  try {
    const outcome = await retryOnce({ ...b, what: { kind: 'failed-jobs' } }, ctx).then(
      async (r) => ({
        retried: r,
        stopped: await stopCancelled(
          { build: buildOf(b, { num: r.num, executeCount: r.executeCount }), write: 'the retry', stopOnCancel: true },
          ctx,
        ),
      }),
      (e: unknown) => ({ error: e }),
    );
    return { id, outcome, holds, released: () => released, log: c.log.text() };
  } finally {
    await c.close();
  }
}

describe('a cancel while build_retry is in flight', () => {
  it('bk-ci took it and its answer never came: the model shows the new run, which is stopped; the exit stays held for it', async () => {
    const r = await cancelDuring(/build_retry$/, true);
    if (!('retried' in r.outcome)) throw r.outcome.error;
    expect(r.outcome.retried).toMatchObject({ executeCount: 2, how: 'model', cancelled: true, num: 1 });
    const stopped = r.outcome.stopped;
    expect(stopped).toBeInstanceOf(OperationError);
    expect(stopped.message).toBe(`cancelled while the retry was in flight; the build ${r.id} was stopped in bk-ci (stop-on-cancel)`);
    expect(stopped.outcome.outputs).toMatchObject({
      'build-id': r.id,
      'execute-count': '2',
      conclusion: 'cancelled',
      'build-status': 'CANCELED',
    });
    const b = w.emu.builds.builds.get(r.id);
    expect(b && w.emu.builds.state(b).status).toBe('CANCELED');
    expect(b?.executeCount).toBe(2);
    expect(r.holds).toEqual([RETRY_CANCEL_BUDGET_MS]);
    expect(r.released()).toBe(0);
    expect(RETRY_CANCEL_BUDGET_MS).toBeLessThan(6900);
    expect(r.log).toContain('the answer to the retry was lost (no answer within 2s of the cancel)');
    expect(w.emu.requests({ path: 'build_retry' })).toHaveLength(1);
  });

  it('it never reached bk-ci, as far as the model shows: the retry may have been applied, nothing was stopped, not sent again', async () => {
    const r = await cancelDuring(/build_retry$/, false);
    if (!('error' in r.outcome)) throw new Error('the retry was taken');
    expect(r.outcome.error).toBeInstanceOf(RetryMayHaveBeenAppliedError);
    expect((r.outcome.error as Error).message).toMatch(
      /^the retry may have been applied: the job was cancelled while it was in flight, the answer to build_retry of b-\w+ was lost \(no answer within 2s of the cancel\) and the build still showed run 1 .*later\. It is not sent again, and nothing was stopped: look at the build in bk-ci/,
    );
    expect(r.released()).toBe(1);
    expect(w.emu.requests({ path: 'build_retry' })).toHaveLength(1);
    expect(w.emu.requests({ path: 'build_stop' })).toHaveLength(0);
  });

  it('cancelled while the model is read, before the retry is sent: nothing was retried, nothing sent', async () => {
    const r = await cancelDuring(/build_detail$/, false);
    if (!('error' in r.outcome)) throw new Error('the retry was taken');
    expect(r.outcome.error).toBeInstanceOf(RetryNotSentError);
    expect((r.outcome.error as ActionError).message).toBe('cancelled before the retry was sent: nothing was retried');
    expect(w.emu.requests({ path: 'build_retry' })).toHaveLength(0);
    expect(r.holds).toEqual([]);
  });
});

describe("a cancel while a re-run looks for the earlier attempt's build", () => {
  it('says nothing was started or retried, and sends nothing', async () => {
    w.pipeline({ result: 'FAILED' });
    const job = new AbortController();
    onHold = () => job.abort();
    w.emu.faults.add({ pattern: /build_histories$/, fault: { kind: 'hang' } });
    const c = makeClient({ baseUrl: w.emu.url, bkToken: w.bkToken, clock: w.clock, signal: job.signal, retries: 0 });
    const ctx = {
      ...stepContext(c, w.clock, job.signal),
      settings: { timeoutMs: 60_000, pollIntervalMs: 1000 },
      secrets: new Secrets(() => undefined),
      holdExit: () => () => undefined,
    };
    const step = {
      projectId: 'demo',
      pipelineId: 'p-app',
      identity: 'GitHub octo/app run 1 job x (p-app, params 00000000)',
      prefix: 'GitHub octo/app run 1 job x (p-app, params ',
      attempt: 2,
      onRerun: 'resume' as const,
      values: {},
      stopOnCancel: true,
      consoleUrl: undefined,
    };
    try {
      const e = await continueEarlier(step, ctx).then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(e).toBeInstanceOf(ActionError);
      expect((e as Error).message).toBe("cancelled while looking for an earlier attempt's build: nothing was started or retried");
      expect(w.emu.requests({ method: 'POST' })).toEqual([]);
    } finally {
      await c.close();
    }
  });
});
