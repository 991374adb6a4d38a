// A retried build (bk-ci's executeCount > 1), as docs/bkci/builds.md#retry and trap L1 describe
// it: retried through the control API (POST /__emulator/builds/retry) and the TypeScript API, then
// read over loopback: build_detail's executeCount, build_status without one, after_line_logs per run.
import { afterEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { pipelineSchema } from '../../emulator/pipeline-seed.ts';
import type { Emulator } from '../../emulator/server.ts';
import { type Route, seededBuild } from '../support/emu-v4.ts';

const STEPS = [
  { tag: 'e-compile', jobId: 'build', stepId: 'compile', containerHashId: 'c-build' },
  { tag: 'e-test', jobId: 'test', stepId: 'unit', containerHashId: 'c-test' },
];
/** Run 1 fails after 3 s; its lines are written at 1 s and 2 s. */
const FAILING: Partial<z.input<typeof pipelineSchema>> = {
  phases: [
    { status: 'QUEUE', ms: 500 },
    { status: 'RUNNING', ms: 2500 },
  ],
  result: 'FAILED',
  logs: {
    steps: STEPS,
    lines: [
      { at: 1000, step: 'e-compile', text: 'run 1 compiled' },
      { at: 2000, step: 'e-test', text: 'run 1 test failed' },
    ],
  },
};
/** Run 2: queued 1 s, running 4 s, succeeds; its lines ms after the retry. */
const RETRY = {
  phases: [
    { status: 'QUEUE', ms: 1000 },
    { status: 'RUNNING', ms: 4000 },
  ],
  result: 'SUCCEED',
  logs: {
    lines: [
      { at: 1500, step: 'e-compile', text: 'run 2 compiled' },
      { at: 2500, step: 'e-test', text: 'run 2 tests passed' },
    ],
  },
};

interface QueryLogs {
  finished: boolean;
  status: number;
  logs: { lineNo: number; timestamp: number; message: string; executeCount: number }[];
}
type Json = Record<string, unknown>;

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

/** The failing build, and readers of its status, model and log; `at(ms)` moves the clock to ms after its start. */
async function setUp(seed = FAILING, route: Route = 'bkci') {
  const built = await seededBuild(seed, { route });
  emu = built.emu;
  const { api, buildId } = built;
  const data = async (path: string, query: Record<string, string | number>) => {
    const res = await api.get(path, { buildId, pipelineId: 'p-app', ...query });
    expect(res.status).toBe(200);
    const body = res.json() as { status: number; data: Json };
    expect(body.status).toBe(0);
    return body.data;
  };
  return {
    ...built,
    status: () => data('build_status', {}),
    detail: (query: Record<string, number> = {}) => data('build_detail', query),
    log: async (query: Record<string, number> = {}) => (await data('logs/after_line_logs', { start: 1, ...query })) as unknown as QueryLogs,
    retry: (body: Json = RETRY) => api.control('builds/retry', { buildId, ...body }),
  };
}

describe('a retried build', () => {
  it.each(['bkci', 'apigw'] as const)(
    '%s: the same id with executeCount 2 in build_detail, back through QUEUE and RUNNING; build_status never has executeCount',
    async (route) => {
      const { buildId, at, status, detail, retry } = await setUp(FAILING, route);
      at(1000);
      expect(await detail()).toMatchObject({ status: 'RUNNING', executeCount: 1 });
      expect(await status()).not.toHaveProperty('executeCount');
      at(10_000);
      expect(await detail()).toMatchObject({ status: 'FAILED', executeCount: 1 });

      const res = await retry();
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ id: buildId, executeCount: 2, projectId: 'demo', pipelineId: 'p-app', num: 1 });
      expect(await detail()).toMatchObject({
        id: buildId,
        status: 'QUEUE',
        startTime: 0,
        executeCount: 2,
        queueTime: Date.UTC(2026, 5, 1) + 10_000,
      });
      const queued = await status();
      expect(queued).toMatchObject({ id: buildId, status: 'QUEUE', startTime: 0, endTime: null });
      expect(queued).not.toHaveProperty('executeCount');
      at(11_500);
      expect(await status()).toMatchObject({ status: 'RUNNING', startTime: Date.UTC(2026, 5, 1) + 11_000 });
      expect(await detail()).toMatchObject({ status: 'RUNNING', executeCount: 2 });
      at(15_000);
      const ended = await detail();
      expect(ended).toMatchObject({
        status: 'SUCCEED',
        executeCount: 2,
        endTime: Date.UTC(2026, 5, 1) + 15_000,
        startUserList: ['admin', 'alice'],
      });
      expect(ended.recordList).toHaveLength(2);
      expect(await status()).toMatchObject({ status: 'SUCCEED', errorInfoList: [] });
      // An earlier run's record stays as it ended.
      expect(await detail({ executeCount: 1 })).toMatchObject({ status: 'FAILED', executeCount: 1, queueTime: Date.UTC(2026, 5, 1) });
    },
  );

  it.each(['bkci', 'apigw'] as const)(
    "%s: after_line_logs with executeCount=2 reads the new run's lines, numbered on from run 1's; without it, run 1's, finished",
    async (route) => {
      const { at, log, retry } = await setUp(FAILING, route);
      at(4000);
      const before = await log();
      expect(before.logs.map((l) => l.message)).toEqual(['run 1 compiled', 'run 1 test failed']);
      expect(before.finished).toBe(true);
      expect((await retry()).status).toBe(200);
      // Run 1 ended before bk-ci took the retry: its row stays finished while run 2 has written nothing yet.
      expect(await log()).toMatchObject({ finished: true, logs: before.logs });
      expect(await log({ executeCount: 2 })).toMatchObject({ finished: false, logs: [] });
      at(4000 + 2000);
      // The retried run is under way: its row is not finished; run 1's is, and the default is still run 1.
      const early = await log({ executeCount: 2 });
      expect(early.logs.map((l) => [l.lineNo, l.executeCount, l.message])).toEqual([[3, 2, 'run 2 compiled']]);
      expect(early.finished).toBe(false);
      const first = await log();
      expect(first.logs.map((l) => [l.lineNo, l.executeCount, l.message])).toEqual([
        [1, 1, 'run 1 compiled'],
        [2, 1, 'run 1 test failed'],
      ]);
      expect(first.finished).toBe(true);
      expect(await log({ executeCount: 1 })).toEqual(first);
      at(4000 + 6000);
      const second = await log({ executeCount: 2 });
      expect(second.logs.map((l) => [l.lineNo, l.timestamp - Date.UTC(2026, 5, 1), l.message])).toEqual([
        [3, 5500, 'run 2 compiled'],
        [4, 6500, 'run 2 tests passed'],
      ]);
      expect(second.finished).toBe(true);
    },
  );

  it("without lines of its own the new run writes the first run's again; a stopped run's agent writes nothing after the stop", async () => {
    const { emu: e, buildId, at, log } = await setUp();
    at(1500);
    expect(JSON.parse(e.builds.stop('demo', buildId, 'p-app', 'bob').body)).toEqual({ status: 0, data: true });
    at(2000);
    expect(e.retryBuild({ buildId, phases: [{ status: 'RUNNING', ms: 5000 }] })).toMatchObject({ id: buildId, executeCount: 2 });
    at(6000);
    expect((await log()).logs.map((l) => l.message)).toEqual(['run 1 compiled']);
    const again = await log({ executeCount: 2 });
    expect(again.logs.map((l) => [l.executeCount, l.timestamp - Date.UTC(2026, 5, 1), l.message])).toEqual([
      [2, 3000, 'run 1 compiled'],
      [2, 4000, 'run 1 test failed'],
    ]);
    const b = e.builds.builds.get(buildId);
    // The stop was the first run's: the second runs on, and ends with the pipeline's result.
    expect(b && e.builds.state(b)).toMatchObject({ status: 'RUNNING', endTime: null });
    at(7000);
    expect(b && e.builds.state(b)).toMatchObject({ status: 'FAILED' });
  });

  it('a build that has not finished is refused as bk-ci refuses a whole-build retry: 2100002 running, 2101129 paused at a stage', async () => {
    const {
      emu: e,
      buildId,
      at,
      detail,
      retry,
    } = await setUp({
      ...FAILING,
      stages: ['Build', 'Release'],
      phases: [
        { status: 'RUNNING', ms: 1000, stage: 'Build' },
        { status: 'STAGE_SUCCESS', stage: 'Release', review: { groups: [{ name: 'QA', reviewers: ['qa1'] }] } },
      ],
    });
    at(500);
    const running = await retry();
    expect(running.status).toBe(400);
    expect(running.json()).toEqual({ status: 2100002, message: '参数[BK_CI_RETRY_TASK_IN_STAGE_ID]不能为空' });
    at(1500);
    const paused = await retry();
    expect(paused.status).toBe(400);
    expect(paused.json()).toEqual({ status: 2101129, message: '流水线: 当前构建正在运行中，请勿重复提交重试请求' });
    expect(() => e.retryBuild({ buildId })).toThrow(/2101129/);
    expect(await detail()).toMatchObject({ status: 'STAGE_SUCCESS', executeCount: 1 });
  });

  it("a body that names what the pipeline does not have is the control API's 400, and nothing is retried", async () => {
    const { logs: _, ...withoutLogs } = FAILING;
    const { emu: e, buildId, at, api, retry } = await setUp(withoutLogs);
    at(5000);
    for (const [body, message] of [
      [{ ...RETRY, logs: undefined, phases: [{ status: 'RUNNING', ms: 10, stage: 'Deploy' }] }, /phases\.0\.stage: no stage Deploy/],
      [RETRY, /logs: pipeline p-app has no log script/],
      [{ buildId: 'b-nope' }, /buildId: no build b-nope/],
    ] as const) {
      const res = body === RETRY ? await retry() : await api.control('builds/retry', { buildId, ...body });
      expect(res.status).toBe(400);
      expect((res.json() as { message: string }).message).toMatch(message);
    }
    expect(e.builds.builds.get(buildId)?.executeCount).toBe(1);
  });
});
