// start-build and build-status: run() in this process against the emulator's pipelines, on a
// clock the step and the emulator share, so an hour-long build takes milliseconds.
import { type AddressInfo, createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { TOKEN_PATH } from '../../emulator/server.ts';
import type { StepResult } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { cleanupRuns, P_APP, stepIn } from '../support/in-process.ts';
import { type PipelineSeed, useWorld } from '../support/world.ts';

const GITHUB = {
  GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
  GITHUB_REPOSITORY: 'octo/app',
  GITHUB_REF: 'refs/tags/v1.2.3',
  GITHUB_REF_NAME: 'v1.2.3',
  GITHUB_SERVER_URL: 'https://github.example.com',
  GITHUB_RUN_ID: '9876543210',
  GITHUB_RUN_ATTEMPT: '2',
  GITHUB_JOB: 'release',
};
/** The message every start carries unless build-params sets one: the run, and a mark unique to the step. */
const OWN_MESSAGE = /^GitHub octo\/app run 9876543210 job release \(p-app, params [0-9a-f]{8}\) attempt 2 \[[0-9a-f-]{13}\]$/;

afterAll(cleanupRuns);

const w = useWorld();

const pipeline = (seed: PipelineSeed = {}) => w.pipeline(seed);
const step = (inputs: Record<string, string>, env: NodeJS.ProcessEnv = {}): Promise<StepResult> =>
  stepIn(w, { ...P_APP, retries: '0' })(inputs, { env });
const start = (inputs: Record<string, string> = {}, env?: NodeJS.ProcessEnv) => step({ operation: 'start-build', ...inputs }, env);
describe('start-build', () => {
  it('starts the pipeline, follows QUEUE → RUNNING → SUCCEED, and outputs the build', async () => {
    pipeline({
      phases: [
        { status: 'QUEUE', ms: 1500 },
        { status: 'RUNNING', ms: 3000 },
      ],
      queuePosition: 2,
    });
    const r = await start({ 'build-params': 'APP_VERSION: 1.2.3\nRETRIES: 3\nDRY_RUN: false' }, GITHUB);
    expect(r.errors).toEqual([]);
    const id = r.outputs['build-id'] ?? '';
    expect(id).toMatch(/^b-/);
    expect(r.outputs).toMatchObject({
      'build-num': '1',
      'build-status': 'SUCCEED',
      'build-url': `${w.emu.url}/console/pipeline/demo/p-app/detail/${id}`,
      polls: '6',
      elapsed: '5',
      'http-status': '200',
      'user-id': 'alice',
      conclusion: 'success',
      'execute-count': '1',
      reviewers: '[]',
    });
    expect(r.stdout).toMatch(/^0ms: QUEUE: queued \(position 2\)$/m);
    expect(r.stdout).toMatch(/^2s: RUNNING$/m);
    expect(r.stdout).toMatch(/^5s: SUCCEED$/m);
    // The body: the parameters as text, and the workflow's commit as custom trigger material.
    expect(JSON.parse(w.emu.requests({ method: 'POST' })[0]?.body ?? '')).toEqual({
      APP_VERSION: '1.2.3',
      RETRIES: '3',
      DRY_RUN: 'false',
      BK_CI_MATERIAL_ID: GITHUB.GITHUB_SHA,
      BK_CI_MATERIAL_NAME: 'octo/app@v1.2.3',
      BK_CI_MATERIAL_URL: `https://github.example.com/octo/app/commit/${GITHUB.GITHUB_SHA}`,
      BK_CI_BUILD_MSG: expect.stringMatching(OWN_MESSAGE),
    });
    expect(w.emu.requests({ method: 'POST' })[0]?.query).toMatch(/&pipelineId=p-app$/);
  });

  it('outputs the status without the values of variables and parameters, and a summary with the link and stages', async () => {
    pipeline({ phases: [{ status: 'RUNNING', ms: 1000 }] });
    const r = await start({ 'build-params': '{"SIGNING_KEY": "s3cr3t-value"}' });
    const data = JSON.parse(r.outputs.data ?? '{}') as Record<string, unknown>;
    expect(data).toMatchObject({
      status: 'SUCCEED',
      buildNum: 1,
      buildParameters: expect.arrayContaining([{ key: 'SIGNING_KEY', valueType: 'STRING' }]),
    });
    expect(data).not.toHaveProperty('variables');
    expect(`${r.outputs.data}${r.summary}${r.stdout}`).not.toContain('s3cr3t-value');
    expect(r.summary).toContain(`| Link | <${w.emu.url}/console/pipeline/demo/p-app/detail/${r.outputs['build-id']}> |`);
    expect(r.summary).toMatch(/\| Build \| SUCCEED \| 1s \|\n\| Release \| SUCCEED \| 1s \|/);
    expect(r.summary).toMatch(/\n#### Status changes\n/);
  });

  it('build-params set the material keys themselves: those are not overridden; outside GitHub none is added', async () => {
    pipeline();
    await start({ 'build-params': 'BK_CI_MATERIAL_ID: abc' }, GITHUB);
    expect(JSON.parse(w.emu.requests({ method: 'POST' })[0]?.body ?? '')).toMatchObject({
      BK_CI_MATERIAL_ID: 'abc',
      BK_CI_MATERIAL_NAME: 'octo/app@v1.2.3',
    });
    await start({});
    expect(JSON.parse(w.emu.requests({ method: 'POST' })[1]?.body ?? '')).toEqual({
      BK_CI_BUILD_MSG: expect.stringMatching(/^started by the bk-ci GitHub action \[[0-9a-f-]{13}\]$/),
    });
  });

  it.each([
    'FAILED',
    'TERMINATE',
    'QUEUE_TIMEOUT',
    'EXEC_TIMEOUT',
    'HEARTBEAT_TIMEOUT',
    'QUALITY_CHECK_FAIL',
    'REVIEW_ABORT',
    'QUOTA_FAILED',
  ])('%s fails the step, naming the status and bk-ci first error; the build is still an output', async (result) => {
    pipeline({ result, errorInfoList: [{ taskName: 'Deploy', errorCode: 2199001, errorMsg: 'host unreachable' }] });
    const r = await start();
    failedWith(
      r,
      new RegExp(
        `^bk-ci start-build failed: build #1 \\(b-\\w+\\) of pipeline p-app ended ${result}: Deploy \\(2199001\\): host unreachable$`,
      ),
    );
    expect(r.outputs).toMatchObject({ 'build-num': '1', 'build-status': result });
    expect(r.outputs['build-id']).toMatch(/^b-/);
    expect(r.summary).toMatch(/\n#### Errors\n[\s\S]*\| Deploy \| 2199001 \| host unreachable \|/);
  });

  it('a build cancelled in bk-ci (CANCELED) fails the step instead of spinning forever', async () => {
    pipeline({ phases: [{ status: 'RUNNING', ms: 2000 }], result: 'CANCELED' });
    failedWith(await start(), /ended CANCELED$/);
  });

  it('STAGE_SUCCESS without an end time is a stage waiting for review: it waits and says so; then goes on', async () => {
    pipeline({
      phases: [
        { status: 'RUNNING', ms: 2000 },
        { status: 'STAGE_SUCCESS', ms: 65_000, stage: 'Release' },
        { status: 'RUNNING', ms: 2000 },
      ],
      stages: ['Build', 'Release'],
    });
    const r = await start({ 'poll-interval': '5s' });
    expect(r.errors).toEqual([]);
    expect(r.outputs['build-status']).toBe('SUCCEED');
    expect(r.stdout).toMatch(/^5s: STAGE_SUCCESS: waiting for review of stage 'Release'$/m);
    expect(r.stdout).toMatch(/^still waiting for review of stage 'Release' after 35s, 8 polls$/m);
  });

  it('STAGE_SUCCESS with an end time is success', async () => {
    pipeline({ phases: [{ status: 'RUNNING', ms: 1000 }], result: 'STAGE_SUCCESS' });
    const r = await start();
    expect(r.errors).toEqual([]);
    expect(r.outputs['build-status']).toBe('STAGE_SUCCESS');
  });

  it('an unknown status keeps waiting, with one warning', async () => {
    pipeline({ phases: [{ status: 'WARPING', ms: 4000 }] });
    const r = await start();
    expect(r.errors).toEqual([]);
    expect(r.stdout.match(/^::warning::.*"WARPING", which this action does not know; waiting on$/gm)).toHaveLength(1);
  });

  it('a timeout leaves the build running, says so, and does not stop it', async () => {
    pipeline({ phases: [{ status: 'RUNNING', ms: 3_600_000 }] });
    const r = await start({ timeout: '10s' });
    failedWith(
      r,
      /build #1 \(b-\w+\) is still RUNNING after 10s \(11 polls, timeout 10s\)\. The step stopped waiting; the build goes on in bk-ci\./,
    );
    expect(r.outputs['build-status']).toBe('RUNNING');
    expect(w.emu.requests({ path: '/build_stop' })).toHaveLength(0);
  });

  it('renews the token during a long build', async () => {
    pipeline({ phases: [{ status: 'RUNNING', ms: 5 * 3_600_000 }] });
    const r = await start({ 'poll-interval': '10m', timeout: '6h' });
    expect(r.errors).toEqual([]);
    expect(r.stdout).toMatch(/^renewed the access token; the new one expires at /m);
    expect(w.emu.requests({ path: TOKEN_PATH })).toHaveLength(2);
  });

  it('wait: false ends after the start with the status known then', async () => {
    pipeline();
    const r = await start({ wait: 'false' });
    expect(r.errors).toEqual([]);
    expect(r.outputs).toMatchObject({ 'build-status': 'QUEUE', polls: '1' });
  });

  it.each([
    [{ http: 400, status: 2101047, message: '流水线: 流水线锁定' }, /pipeline p-app of project demo is locked \(disabled\)/],
    [{ http: 400, status: 2101080, message: '项目[demo]已禁用，不能启动' }, /project demo is disabled in bk-ci/],
    [{ http: 400, status: 2101049, message: '流水线: 流水线队列满' }, /the build queue of pipeline p-app of project demo is full/],
    [{ http: 400, status: 2101020, message: '流水线: 不能太频繁启动构建' }, /is being started too often/],
    [{ http: 400, status: 2101190, message: '该流水线尚未发布正式版本，无法执行' }, /has no released version, only a draft/],
    [
      { http: 403, status: 403, message: '你没有权限进行该操作' },
      /alice may not start pipeline p-app of project demo: the user needs the pipeline's execute permission/,
    ],
  ])('start error %j is said in words a user can act on', async (startError, message) => {
    pipeline({ startError });
    const r = await start();
    failedWith(r, message);
    expect(r.errors[0]).toMatch(new RegExp(`bk-ci said: ${startError.message.replace(/[[\]()]/g, '\\$&')}`));
    expect(r.outputs['http-status']).toBe(String(startError.http));
    expect(w.emu.requests({ method: 'POST' })).toHaveLength(1);
  });

  // What bk-ci refused, or what never reached it, started nothing: the step says so at once, without
  // looking for a build in the history as it does when the start's outcome is unknown.
  it('a start bk-ci refuses in its wrapper (HTTP 200, status not 0) started nothing: no history is searched', async () => {
    pipeline({ startError: { http: 200, status: 2101047, message: '流水线: 流水线锁定' } });
    const r = await start();
    failedWith(r, /pipeline p-app of project demo is locked \(disabled\)/);
    expect(r.errors[0]).not.toMatch(/may have started/);
    expect(w.emu.requests({ path: '/build_histories' })).toHaveLength(0);
  });

  it('a start that never reached bk-ci (connection refused) started nothing: no history is searched', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const r = await start({ 'base-url': `http://127.0.0.1:${closed}`, 'bk-token': '', 'access-token': 'tok', 'user-id': 'alice' });
    failedWith(r, /ECONNREFUSED/);
    expect(r.errors[0]).not.toMatch(/may have started|looking for the build/);
    expect(r.stdout).not.toMatch(/looking for the build/);
  });

  it('a pipeline that does not exist', async () => {
    failedWith(
      await start({ 'pipeline-id': 'p-ghost' }),
      /pipeline p-ghost of project demo was not found \(bk-ci 2101038\): check pipeline-id/,
    );
  });

  it('a required parameter that is missing is named', async () => {
    pipeline({ required: ['APP_VERSION'] });
    failedWith(
      await start({ 'build-params': 'OTHER: x' }),
      /a required start parameter \(APP_VERSION\) is missing: give it in build-params/,
    );
  });

  it('the start is a POST: a 503 is not sent again', async () => {
    pipeline();
    w.emu.faults.add({ pattern: /build_start$/, fault: { kind: 'status', status: 503, contentType: 'html' } });
    failedWith(await step({ operation: 'start-build', retries: '3' }), /answered HTTP 503/);
    expect(w.emu.requests({ path: '/build_start' })).toHaveLength(1);
    expect(w.emu.builds.builds.size).toBe(0);
  });

  it.each([
    [{ 'pipeline-id': 'pipeline-1' }, /pipeline-id must be a pipeline id, p-…/],
    [{ 'build-params': 'A: {b: 1}' }, /build-params\.A must be a text, a number or a boolean/],
    [{ 'console-url': 'devops' }, /console-url must be an absolute http\(s\) URL/],
    [{ 'stop-on-cancel': 'maybe' }, /stop-on-cancel must be true or false/],
  ])('refuses %j before any request', async (inputs, message) => {
    failedWith(await start(inputs), message);
    expect(w.emu.requests().filter((q) => q.path !== TOKEN_PATH)).toHaveLength(0);
  });
});

describe('build-status', () => {
  it('reads a build once, or waits for it; it never stops it', async () => {
    pipeline({ phases: [{ status: 'RUNNING', ms: 60_000 }] });
    const started = await start({ wait: 'false' });
    const id = started.outputs['build-id'] ?? '';
    const once = await step({ operation: 'build-status', 'build-id': id, wait: 'false', 'pipeline-id': '' });
    // Without pipeline-id the link comes from the build's model (build_detail names the pipeline).
    expect(once.outputs).toMatchObject({
      'build-id': id,
      'build-status': 'RUNNING',
      'build-num': '1',
      'build-url': `${w.emu.url}/console/pipeline/demo/p-app/detail/${id}`,
    });
    const waited = await step({ operation: 'build-status', 'build-id': id, timeout: '5s' });
    failedWith(waited, /still RUNNING after 5s/);
    const done = await step({ operation: 'build-status', 'build-id': id, timeout: '2m' });
    expect(done.outputs['build-status']).toBe('SUCCEED');
    expect(w.emu.requests({ path: '/build_stop' })).toHaveLength(0);
  });

  it("an unknown build id says there is no such build, not bk-ci's unfilled {0}", async () => {
    pipeline();
    const r = await step({ operation: 'build-status', 'build-id': 'b-nope' });
    failedWith(r, /^bk-ci build-status failed: no build b-nope in project demo \(pipeline p-app\): check build-id and project-id$/);
    expect(r.errors[0]).not.toContain('{0}');
    expect(r.outputs['http-status']).toBe('400');
  });
});

describe("the emulator's builds", () => {
  it('stop: a running build becomes CANCELED; a finished one answers 2101182', async () => {
    pipeline({ phases: [{ status: 'RUNNING', ms: 10_000 }] });
    const started = await start({ wait: 'false' });
    const id = started.outputs['build-id'] ?? '';
    const stop = () => w.emu.builds.stop('demo', id, 'p-app');
    expect(JSON.parse(stop().body)).toEqual({ status: 0, data: true });
    const b = w.emu.builds.builds.get(id);
    expect(b && w.emu.builds.state(b).status).toBe('CANCELED');
    expect(JSON.parse(stop().body)).toMatchObject({ status: 2101182 });
  });
});
