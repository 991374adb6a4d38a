// build_retry as bk-ci answers it (docs/bkci/builds.md#retry; PipelineBuildRetryService.retry),
// on v4 and the BlueKing API Gateway's front path, and builds seeded into a pipeline's history
// (POST /__emulator/builds) as an earlier attempt of a workflow left them.
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../emulator/server.ts';
import { type Route, seededBuild } from '../support/emu-v4.ts';

const T0 = Date.UTC(2026, 5, 1);
const DAY = 86_400_000;
/** Two stages; the build runs 2 s and fails in Release; a retried run passes. */
const FLAKY = {
  phases: [
    { status: 'QUEUE', ms: 500 },
    { status: 'RUNNING', ms: 1500 },
  ],
  result: 'FAILED',
  retryResult: 'SUCCEED',
  stages: ['Build', 'Release'],
  errorInfoList: [{ taskName: 'Release', errorCode: 2199001, errorMsg: 'host unreachable' }],
};

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

async function setUp(seed: Record<string, unknown> = FLAKY, route: Route = 'bkci') {
  const built = await seededBuild(seed, { route });
  emu = built.emu;
  const { api, buildId } = built;
  const retry = (query: Record<string, string | number | boolean | undefined> = {}) =>
    api.post('build_retry', { pipelineId: 'p-app', buildId, ...query }, '');
  const detail = async () =>
    api.get('build_detail', { buildId, pipelineId: 'p-app' }).then((r) => (r.json() as { data: Record<string, unknown> }).data);
  return { ...built, retry, detail };
}

describe('build_retry', () => {
  it.each(['bkci', 'apigw'] as const)(
    '%s: a finished build: the same id, executeCount 2, back through QUEUE and RUNNING to its new end',
    async (route) => {
      const { buildId, at, retry, detail } = await setUp(FLAKY, route);
      at(5000);
      expect(await detail()).toMatchObject({ status: 'FAILED', executeCount: 1 });
      const res = await retry({ taskId: 'stage-3', failedContainer: true });
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ status: 0, data: { id: buildId, executeCount: 2, projectId: 'demo', pipelineId: 'p-app', num: 1 } });
      expect(await detail()).toMatchObject({ status: 'QUEUE', executeCount: 2 });
      at(5700);
      expect(await detail()).toMatchObject({ status: 'RUNNING', executeCount: 2 });
      at(8000);
      expect(await detail()).toMatchObject({ status: 'SUCCEED', executeCount: 2 });
      expect(emu?.builds.builds.get(buildId)?.retries[0]?.scope).toEqual({
        kind: 'stage',
        taskId: 'stage-3',
        failedContainer: true,
        skip: false,
      });
    },
  );

  it('taskId names where the run starts: a stage that did not fail is refused (2101114); a step is a task retry; skip passes it; an unknown one or none is the whole build', async () => {
    const { emu: e, buildId, at, retry } = await setUp();
    at(5000);
    const notFailed = await retry({ taskId: 'stage-2', failedContainer: true });
    expect(notFailed.status).toBe(400);
    expect(notFailed.json()).toEqual({ status: 2101114, message: 'stage非失败状态，不能进行重试' });
    const build = e.builds.builds.get(buildId);
    const step = e.builds.layoutOf(build ?? ({} as never))[1]?.jobs[0]?.steps[0]?.id ?? '';
    expect((await retry({ taskId: step, skip: true })).status).toBe(200);
    at(10_000);
    expect((await retry({ taskId: 'e-nowhere' })).status).toBe(200);
    at(15_000);
    expect((await retry({ failedContainer: true })).status).toBe(200);
    expect(build?.retries.map((r) => r.scope)).toEqual([
      { kind: 'task', taskId: step, failedContainer: false, skip: true },
      { kind: 'all' },
      { kind: 'all' },
    ]);
  });

  it("bk-ci's refusals with its wrapper: running (2100002), older than 28 days (2101258), locked (2101047), model gone (2101039); nothing retried", async () => {
    const { emu: e, buildId, at, retry, api } = await setUp();
    at(1000);
    expect((await retry()).json()).toEqual({ status: 2100002, message: '参数[BK_CI_RETRY_TASK_IN_STAGE_ID]不能为空' });
    const { id: oldId } = e.seedBuild({ pipelineId: 'p-app', status: 'FAILED', startTime: T0 - 28 * DAY - 1 });
    const old = await api.post('build_retry', { pipelineId: 'p-app', buildId: oldId }, '');
    expect(old.status).toBe(400);
    expect(old.json()).toEqual({ status: 2101258, message: '构建数据已过期，重试时间不能晚于构建开始时间28天以上' });
    at(5000);
    const p = e.builds.pipelines.get('demo/p-app');
    if (p === undefined) throw new Error('no pipeline');
    p.locked = true;
    expect((await retry()).json()).toEqual({ status: 2101047, message: '流水线: 流水线锁定' });
    p.locked = false;
    p.retryError = { http: 400, status: 2101039, message: '流水线: 流水线的模型不存在' };
    expect((await retry()).json()).toEqual({ status: 2101039, message: '流水线: 流水线的模型不存在' });
    expect(e.builds.builds.get(buildId)?.executeCount).toBe(1);
  });

  it('by buildNumber it needs pipelineId (trap X2); a lost answer after applying still retried the build', async () => {
    const { emu: e, buildId, at, api } = await setUp();
    at(5000);
    const noPipeline = await api.post('build_retry', { buildNumber: 1 }, '');
    expect(noPipeline.json()).toEqual({ status: 400, message: '请求的参数内容为空' });
    e.faults.add({ method: 'POST', pattern: /build_retry$/, after: true, fault: { kind: 'reset' } });
    await expect(api.post('build_retry', { pipelineId: 'p-app', buildNumber: 1 }, '')).rejects.toThrow();
    expect(e.builds.builds.get(buildId)?.executeCount).toBe(2);
  });
});

describe('builds seeded into the history (POST /__emulator/builds)', () => {
  it('show in build_histories with their message, status and start time, and can be retried', async () => {
    const { api, at } = await setUp();
    at(0);
    const seeded = await api.control('builds', {
      pipelineId: 'p-app',
      buildMsg: 'GitHub octo/app run 7 job build attempt 1 [m]',
      status: 'FAILED',
      startTime: T0 - 3600_000,
    });
    expect(seeded.status).toBe(200);
    const { id, num } = seeded.json() as { id: string; num: number };
    expect(num).toBe(2);
    const running = await api.control('builds', { pipelineId: 'p-app', buildMsg: 'still going', status: 'RUNNING' });
    expect(running.status).toBe(200);
    const page = (await api.get('build_histories', { pipelineId: 'p-app', buildMsg: 'run 7 job' })).json() as {
      data: { records: Record<string, unknown>[] };
    };
    expect(page.data.records).toEqual([
      expect.objectContaining({
        id,
        status: 'FAILED',
        startTime: T0 - 3600_000,
        buildMsg: 'GitHub octo/app run 7 job build attempt 1 [m]',
      }),
    ]);
    const all = (await api.get('build_histories', { pipelineId: 'p-app' })).json() as { data: { records: { status: string }[] } };
    expect(all.data.records.map((r) => r.status)).toEqual(['RUNNING', 'FAILED', 'QUEUE']);
    expect((await api.post('build_retry', { pipelineId: 'p-app', buildId: id }, '')).json()).toMatchObject({
      data: { id, executeCount: 2 },
    });
    const bad = await api.control('builds', { pipelineId: 'p-nope' });
    expect(bad.status).toBe(400);
  });
});
