// The re-run's pure pieces: the step's identity in the build message, and the decision table.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideRerun, type Earlier } from '../../src/pipeline/rerun.ts';
import { attemptOf, paramsDigest, stepIdentity, stepMessage } from '../../src/pipeline/rerun-message.ts';

const w = {
  sha: 'abc1234',
  repository: 'octo/app',
  ref: 'main',
  serverUrl: 'https://github.com',
  runId: '42',
  runAttempt: '2',
  job: 'build',
};
const step = { pipelineId: 'p-app', params: { TARGET: 'linux', ARCH: 'x64' } };

describe("the step's identity", () => {
  it('is the same for every attempt, and tells apart pipelines, parameters, keys, jobs and runs', () => {
    const id = stepIdentity(w, step) ?? '';
    expect(id).toBe(`GitHub octo/app run 42 job build (p-app, params ${paramsDigest(step.params)})`);
    expect(stepIdentity({ ...w, runAttempt: '3' }, step)).toBe(id);
    expect(stepIdentity(w, { ...step, params: { ARCH: 'x64', TARGET: 'linux' } })).toBe(id);
    const others = [
      stepIdentity(w, { ...step, pipelineId: 'p-other' }),
      stepIdentity(w, { ...step, params: { TARGET: 'mac', ARCH: 'x64' } }),
      stepIdentity(w, { ...step, key: '1' }),
      stepIdentity({ ...w, job: 'test' }, step),
      stepIdentity({ ...w, runId: '43' }, step),
    ];
    expect(new Set([id, ...others]).size).toBe(6);
    expect(stepIdentity(undefined, step)).toBeUndefined();
    expect(stepIdentity({ ...w, runId: '' }, step)).toBeUndefined();
  });

  it("reads back the attempt of this step's messages only", () => {
    const id = stepIdentity(w, step) ?? '';
    expect(attemptOf(stepMessage(id, '1', 'a1b2c3d4-e5f6'), id)).toBe(1);
    expect(attemptOf(stepMessage(id, '12'), id)).toBe(12);
    expect(attemptOf(stepMessage(`${id.slice(0, -1)}, key 1)`, '1'), id)).toBeUndefined();
    expect(attemptOf(`${id} attempt 1 [m] and more`, id)).toBeUndefined();
    expect(attemptOf('OpenAPI 触发', id)).toBeUndefined();
  });

  it("fits bk-ci's 255 characters and stays the same across attempts whatever the key and names", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.string({ minLength: 1, maxLength: 100 }), (key, job) => {
        const a = stepIdentity({ ...w, job }, { ...step, key }) ?? '';
        const msg = stepMessage(a, '99999');
        expect([...msg].length).toBeLessThanOrEqual(255);
        expect(attemptOf(msg, a)).toBe(99999);
        expect(stepIdentity({ ...w, job, runAttempt: '7' }, { ...step, key })).toBe(a);
      }),
    );
  });
});

const row = (status: string, extra: Record<string, unknown> = {}) => ({ id: 'b-1', status, ...extra });
const found = (status: string, extra: Record<string, unknown> = {}): Earlier => ({ kind: 'found', attempt: 1, row: row(status, extra) });

describe('the re-run decision', () => {
  it.each<[string, Earlier, 'resume' | 'retry-all', string, boolean?]>([
    ['succeeded', found('SUCCEED'), 'resume', 'adopt'],
    ['succeeded, retry-all', found('SUCCEED'), 'retry-all', 'adopt'],
    ['ended at a stage', found('STAGE_SUCCESS', { startTime: 1, endTime: 2 }), 'resume', 'adopt'],
    ['paused at a stage review', found('STAGE_SUCCESS', { startTime: 1, endTime: null }), 'resume', 'follow'],
    ['queued', found('QUEUE'), 'resume', 'follow'],
    ['running', found('RUNNING'), 'resume', 'follow'],
    ['paused', found('PAUSE'), 'resume', 'follow'],
    ['failed', found('FAILED'), 'resume', 'retry', false],
    ['failed, retry-all', found('FAILED'), 'retry-all', 'retry', true],
    ['cancelled', found('CANCELED'), 'resume', 'retry', false],
    ['timed out', found('EXEC_TIMEOUT'), 'resume', 'retry', false],
    ['queue timed out', found('QUEUE_TIMEOUT'), 'retry-all', 'retry', true],
    ['none found', { kind: 'none', searched: 3 }, 'resume', 'new'],
    ['two fit', { kind: 'ambiguous', attempt: 1, ids: ['b-1', 'b-2'] }, 'resume', 'new'],
  ])('%s → %s', (_, earlier, onRerun, act, whole) => {
    const d = decideRerun(earlier, onRerun);
    expect(d.act).toBe(act);
    if (d.act === 'retry') expect(d.whole).toBe(whole);
    if (d.act === 'new') expect(d.why).toMatch(earlier.kind === 'none' ? /no build of an earlier attempt/ : /rerun-key/);
  });
});
