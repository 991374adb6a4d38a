// retry-build: a finished build retried in bk-ci (the same id, a new run) and its new run followed,
// run() in this process against the emulator, on bk-ci's own gateway in both flavours and behind
// the BlueKing API Gateway; and start-build's re-run there too.
import { afterAll, describe, expect, it } from 'vitest';
import { failedWith } from '../support/expect-step.ts';
import { cleanupRuns, stepIn } from '../support/in-process.ts';
import { DOORS, type Door, doorOptions, type PipelineSeed, T0, worldForTest } from '../support/world.ts';

const FLAKY: PipelineSeed = {
  phases: [
    { status: 'QUEUE', ms: 1000 },
    { status: 'RUNNING', ms: 3000 },
  ],
  stages: ['Build', 'Release'],
  jobs: { Release: [{ name: 'Deploy', steps: [{ name: 'Upload', stepId: 'upload' }] }] },
  result: 'FAILED',
  retryResult: 'SUCCEED',
  errorInfoList: [{ taskName: 'Upload', errorCode: 2199001, errorMsg: 'host unreachable' }],
};
afterAll(cleanupRuns);

/** A world behind `door` with pipeline p-app, and a step runner that speaks to it (as alice's bk-token). */
async function world(door: Door, seed = FLAKY) {
  const w = await worldForTest(doorOptions(door));
  const { emu: e, clock } = w;
  w.pipeline(seed);
  const step = (inputs: Record<string, string>, env: NodeJS.ProcessEnv = {}) =>
    stepIn(w, { ...(door === 'apigw' ? { gateway: 'bk-apigateway' } : {}), 'poll-interval': '1s', retries: '0' })(inputs, { env });
  const failedBuild = async () => {
    const r = await step({ operation: 'start-build', 'pipeline-id': 'p-app' });
    expect(r.outputs.conclusion).toBe('failure');
    return r.outputs['build-id'] ?? '';
  };
  const retries = () => e.requests({ path: 'build_retry' }).map((r) => Object.fromEntries(new URLSearchParams(r.query)));
  return { e, clock, step, failedBuild, retries };
}

describe.each(DOORS)('retry-build (%s)', (door) => {
  it('failed-jobs (the default): the failed stage with failedContainer; the new run followed to its end, its log from its own first line', async () => {
    const { e, step, failedBuild, retries } = await world(door);
    const id = await failedBuild();
    const r = await step({ operation: 'retry-build', 'build-id': id, 'pipeline-id': 'p-app' });
    expect(r.errors).toEqual([]);
    expect(r.outputs).toMatchObject({ 'build-id': id, 'execute-count': '2', conclusion: 'success', 'build-status': 'SUCCEED' });
    expect(retries()).toEqual([expect.objectContaining({ buildId: id, pipelineId: 'p-app', taskId: 'stage-3', failedContainer: 'true' })]);
    expect(e.builds.builds.get(id)?.retries[0]?.scope).toEqual({ kind: 'stage', taskId: 'stage-3', failedContainer: true, skip: false });
    expect(r.stdout).toMatch(/bk-ci retried the failed jobs of stage-3 of build b-\w+: its run 2/);
    const since = e.log.findIndex((q) => q.path.endsWith('build_retry'));
    const logs = e.log.slice(since).filter((q) => q.path.endsWith('after_line_logs'));
    expect(logs.length).toBeGreaterThan(0);
    expect(new Set(logs.map((q) => new URLSearchParams(q.query).get('executeCount')))).toEqual(new Set(['2']));
  });
});

describe('retry-build: what is retried', () => {
  it.each<[string, Record<string, string>, Record<string, string | undefined>, string]>([
    ['all: the whole build (no taskId)', { retry: 'all' }, { taskId: undefined, failedContainer: undefined }, 'all'],
    ['a stage with skip-failed', { retry: 'stage-3', 'skip-failed': 'true' }, { taskId: 'stage-3', skip: 'true' }, 'stage'],
    ['a step id', { retry: 'upload' }, { taskId: 'upload', skip: undefined }, 'task'],
  ])('%s', async (_, inputs, query, kind) => {
    const { e, step, failedBuild, retries } = await world('bkci');
    const id = await failedBuild();
    const r = await step({ operation: 'retry-build', 'build-id': id, ...inputs });
    expect(r.outputs).toMatchObject({ 'execute-count': '2', conclusion: 'success' });
    const [sent] = retries();
    for (const [k, v] of Object.entries(query)) expect(sent?.[k]).toBe(v);
    expect(e.builds.builds.get(id)?.retries[0]?.scope.kind).toBe(kind);
  });

  it('wait: false says the new run is under way', async () => {
    const { step, failedBuild } = await world('bkci');
    const id = await failedBuild();
    const r = await step({ operation: 'retry-build', 'build-id': id, wait: 'false' });
    expect(r.outputs).toMatchObject({ 'execute-count': '2', conclusion: 'running' });
  });

  it("wait: false while bk-ci still shows the old run's FAILED: the new run is under way, not failed", async () => {
    const { e, step, failedBuild } = await world('bkci');
    const id = await failedBuild();
    e.faults.add({
      method: 'GET',
      pattern: /build_status$/,
      fault: { kind: 'patch', data: { status: 'FAILED', startTime: T0 + 1000, endTime: T0 + 4000 } },
    });
    const r = await step({ operation: 'retry-build', 'build-id': id, wait: 'false' });
    expect(r.errors).toEqual([]);
    expect(r.outputs).toMatchObject({ 'execute-count': '2', conclusion: 'running' });
  });

  it('a running build is refused by bk-ci: said in words, nothing retried', async () => {
    const { e, step } = await world('bkci', { ...FLAKY, phases: [{ status: 'RUNNING', ms: 60_000 }] });
    const started = await step({ operation: 'start-build', 'pipeline-id': 'p-app', wait: 'false' });
    const id = started.outputs['build-id'] ?? '';
    const r = await step({ operation: 'retry-build', 'build-id': id });
    failedWith(
      r,
      /bk-ci refused to retry build b-\w+: the build has not finished: bk-ci retries only a finished build \(bk-ci said: 2100002 /,
    );
    expect(e.builds.builds.get(id)?.executeCount).toBe(1);
  });

  it("a task id the build's model does not have (failed for failed-jobs) is refused naming the nearest and the stages: nothing is sent", async () => {
    const { e, step, failedBuild } = await world('bkci');
    const id = await failedBuild();
    const r = await step({ operation: 'retry-build', 'build-id': id, retry: 'failed' });
    failedWith(
      r,
      new RegExp(
        `^bk-ci retry-build failed: retry: failed is no task of build ${id} \\(did you mean failed-jobs\\?\\), and bk-ci would retry the whole build for an id it does not find, so nothing was sent\\. .*its stages: stage-1, stage-2 \\(Build\\), stage-3 \\(Release\\)$`,
      ),
    );
    expect(r.outputs).toMatchObject({ 'build-id': id, conclusion: 'failure' });
    expect(e.requests({ path: 'build_retry' })).toHaveLength(0);
    expect(e.builds.builds.get(id)?.executeCount).toBe(1);
    // A job's container id and a step's element id are tasks of the model.
    const job = await step({ operation: 'retry-build', 'build-id': id, retry: 'upload', wait: 'false' });
    expect(job.outputs).toMatchObject({ 'execute-count': '2' });
  });

  it('skip-failed without a task, and a retry that is no id, are input errors; nothing is sent', async () => {
    const { e, step } = await world('bkci');
    failedWith(
      await step({ operation: 'retry-build', 'build-id': 'b-1', 'skip-failed': 'true' }),
      /skip-failed needs retry to name a task/,
    );
    failedWith(await step({ operation: 'retry-build', 'build-id': 'b-1', retry: 'stage 3' }), /retry must be failed-jobs, all, or a stage/);
    expect(e.requests({ path: 'build_retry' })).toHaveLength(0);
  });
});

describe.each(DOORS)("start-build's re-run (%s)", (door) => {
  const github = (attempt: number) => ({
    GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
    GITHUB_REPOSITORY: 'octo/app',
    GITHUB_RUN_ID: '99',
    GITHUB_RUN_ATTEMPT: String(attempt),
    GITHUB_JOB: 'ship',
  });
  it('attempt 2 retries the failed build of attempt 1', async () => {
    const { e, step } = await world(door);
    // Behind the gateway the step knows its user only from user-id: the build's starter is checked against it.
    const start = { operation: 'start-build', 'pipeline-id': 'p-app', ...(door === 'apigw' ? { 'user-id': 'alice' } : {}) };
    const first = await step(start, github(1));
    const second = await step(start, github(2));
    expect(second.errors).toEqual([]);
    expect(second.outputs).toMatchObject({
      'build-id': first.outputs['build-id'],
      rerun: 'retried',
      'execute-count': '2',
      conclusion: 'success',
    });
    expect(e.requests({ path: 'build_start' })).toHaveLength(1);
  });
});
