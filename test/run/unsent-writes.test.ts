// A write never sent says so: when the access token a write needs cannot be had (the token
// endpoint answers 5xx, 401 or garbage, or hangs), or bk-ci refuses the write for an expired token
// and a new one cannot be had, the step says that nothing was started, decided, created or
// registered, never "may have started" and never a bare error from the token endpoint. run() in
// this process against the emulator, on the clock they share.
import { afterAll, describe, expect, it } from 'vitest';
import type { Fault } from '../../emulator/faults.ts';
import type { StepResult } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { cleanupRuns, P_APP, stepIn } from '../support/in-process.ts';
import { reviewedPipeline, T0, useWorld } from '../support/world.ts';

afterAll(cleanupRuns);

const w = useWorld();
const step = stepIn(w, { retries: '0', logs: 'none' });
const starts = () => w.emu.requests({ path: '/build_start' }).length;
const TOKEN = /\/ms\/auth\/api\/user\/token\/get$/;
/** bk-ci's own answer to a token that expired (AccessTokenFilter: HTTP 400, plain text). */
const EXPIRED: Fault = {
  kind: 'status',
  status: 400,
  contentType: 'text',
  body: `Verification failed : tokentoken过期错误: Access token expired in: ${T0 - 60_000}`,
};

describe('a start never sent says that nothing was started', () => {
  it.each<[string, Fault, RegExp]>([
    ['answers 503', { kind: 'status', status: 503, body: 'upstream down', contentType: 'text' }, /HTTP 503: upstream down/],
    [
      'answers 401',
      { kind: 'status', status: 401, body: 'bad ticket', contentType: 'text' },
      /the token endpoint refused bk-token \(HTTP 401/,
    ],
    ['answers garbage', { kind: 'status', status: 200, body: '<html>login</html>', contentType: 'html' }, /unexpected body/],
    ['hangs', { kind: 'hang' }, /no complete answer within request-timeout/],
  ])('the token endpoint %s: the message, the summary and the outputs say nothing was started', async (_, fault, why) => {
    w.pipeline({ phases: [{ status: 'RUNNING', ms: 1000 }] });
    w.emu.faults.add({ pattern: TOKEN, times: Infinity, fault });
    const r = await step({ operation: 'start-build', ...P_APP });
    failedWith(
      r,
      /^bk-ci start-build failed: nothing was started: POST http:\/\/127\.0\.0\.1:\d+\/ms\/openapi\/api\/apigw\/v4\/projects\/demo\/build_start was never sent: getting an access token for it failed: /,
    );
    expect(r.errors[0]).toMatch(why);
    expect(r.errors[0]).not.toMatch(/may have started|may run twice/);
    expect(starts()).toBe(0);
    expect(w.emu.requests({ path: '/build_histories' })).toHaveLength(0);
    expect(r.summary).toMatch(/^### ❌ bk-ci start-build: nothing was started$/m);
    expect(r.summary).toContain('| Started | no: the start was never sent |');
    expect(r.summary).toMatch(/\*\*Failed:\*\* nothing was started: /);
    expect(r.outputs).toMatchObject({ 'build-id': '', 'build-status': '', conclusion: 'failure', rerun: 'none' });
  });

  it('bk-ci refuses the start for an expired token and no new token can be had: not applied, not sent again, not "may have started"', async () => {
    w.pipeline({ phases: [{ status: 'RUNNING', ms: 1000 }] });
    w.emu.faults.add({ pattern: /build_start$/, fault: EXPIRED });
    // The first token is issued; the renewal after bk-ci's "expired" fails.
    w.emu.faults.add({
      pattern: TOKEN,
      skip: 1,
      times: Infinity,
      fault: { kind: 'status', status: 502, contentType: 'text', body: 'bad gateway' },
    });
    const r = await step({ operation: 'start-build', ...P_APP });
    failedWith(
      r,
      /^bk-ci start-build failed: nothing was started: POST http:\/\/.*\/build_start was not applied: bk-ci refused it for an expired access token, and getting a new one failed, so it was not sent again: .*HTTP 502: bad gateway$/,
    );
    expect(starts()).toBe(1);
    expect(w.emu.builds.builds.size).toBe(0);
    expect(w.emu.requests({ path: '/build_histories' })).toHaveLength(0);
  });

  it('bk-ci refuses the start (a locked pipeline): "did not start", and the summary says bk-ci refused it', async () => {
    w.pipeline({ locked: true });
    const r = await step({ operation: 'start-build', ...P_APP });
    failedWith(r, /^bk-ci start-build failed: the build did not start: pipeline p-app of project demo is locked/);
    expect(r.summary).toContain('| Started | no: bk-ci refused the start |');
  });
});

describe('every other write refused before it reached bk-ci says it was not applied', () => {
  /** The token for the reads before the write is issued; the write's renewal, after bk-ci's "expired", fails. */
  const expireAt = (write: RegExp, method: string) => {
    w.emu.faults.add({ method, pattern: write, fault: EXPIRED });
    w.emu.faults.add({
      pattern: TOKEN,
      skip: 1,
      times: Infinity,
      fault: { kind: 'status', status: 503, contentType: 'text', body: 'down' },
    });
  };
  const notApplied = (r: StepResult, operation: string, request: RegExp) =>
    failedWith(
      r,
      new RegExp(
        `^bk-ci ${operation} failed: .*${request.source} was not applied: bk-ci refused it for an expired access token, and getting a new one failed, so it was not sent again: .*HTTP 503: down`,
      ),
    );

  it("review-build's decision: nothing was decided, not a refusal of bk-ci's", async () => {
    w.pipeline(reviewedPipeline({ groups: [{ name: 'QA', reviewers: ['alice'] }] }));
    const started = await step({ operation: 'start-build', ...P_APP, wait: 'false' });
    w.clock.t += 1500;
    expireAt(/manual_start_build_stage$/, 'POST');
    const r = await step({ operation: 'review-build', 'build-id': started.outputs['build-id'] ?? '', decision: 'approve' });
    notApplied(r, 'review-build', /POST http:\/\/.*\/manual_start_build_stage/);
    expect(r.errors[0]).toMatch(/; nothing was decided$/);
    expect(r.errors[0]).not.toMatch(/bk-ci refused to approve|may have been applied/);
  });

  it('create-project: the POST was not applied, and nothing was created', async () => {
    expireAt(/\/projects$/, 'POST');
    const r = await step({ operation: 'create-project', 'project-id': '', project: '{"englishName":"made","projectName":"Made"}' });
    notApplied(r, 'create-project', /POST http:\/\/.*\/projects/);
    expect(w.emu.requests({ method: 'POST', path: '/ms/openapi/api/apigw/v3/projects' })).toHaveLength(1);
  });

  it('update-project: the PUT was not applied', async () => {
    expireAt(/\/projects\/demo$/, 'PUT');
    const r = await step({ operation: 'update-project', project: 'description: x' });
    notApplied(r, 'update-project', /PUT http:\/\/.*\/projects\/demo/);
  });

  it('create-callbacks: the batch was not applied', async () => {
    expireAt(/callbacks\/batch$/, 'POST');
    const r = await step({ operation: 'create-callbacks', 'callback-url': 'https://h.example/cb', region: 'DEVNET', events: 'BUILD_END' });
    notApplied(r, 'create-callbacks', /POST http:\/\/.*\/callbacks\/batch/);
    expect(r.errors[0]).not.toMatch(/may have been applied/);
  });

  it("retry-build's build_retry: not applied, the model not searched for a run that never came", async () => {
    w.pipeline({ phases: [{ status: 'RUNNING', ms: 1000 }], result: 'FAILED' });
    const failed = await step({ operation: 'start-build', ...P_APP });
    expireAt(/build_retry$/, 'POST');
    const r = await step({ operation: 'retry-build', 'build-id': failed.outputs['build-id'] ?? '', ...P_APP });
    notApplied(r, 'retry-build', /POST http:\/\/.*\/build_retry/);
    expect(r.errors[0]).not.toMatch(/may have been applied/);
  });
});
