// The emulator's builds as bk-ci shows them: the build message, build_histories and its filters,
// lost answers after the build exists, the ends UNEXEC and SKIP. Walked over loopback through the
// control API and the TypeScript API, in the bkci flavour and behind the BlueKing API Gateway.
import { beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { pipelineSchema } from '../../emulator/pipeline-seed.ts';
import { raw } from '../support/raw-http.ts';
import { doorOptions, startWorld, T0, type World } from '../support/world.ts';

let w: World;
beforeEach(async () => {
  w = await startWorld({ users: ['alice', 'bob'] });
  return () => w.emu.close();
});
/** The world behind the BlueKing API Gateway in place of this test's: alice, and no project. */
const behindGateway = async () => {
  await w.emu.close();
  w = await startWorld({ ...doorOptions('apigw'), project: false });
};

const V4 = '/ms/openapi/api/apigw/v4/projects/demo/';
type Answer = {
  status: number;
  json: { status: number; message?: string; data?: Record<string, unknown> & { records?: Record<string, unknown>[] } };
};
async function call(method: string, path: string, body?: unknown, user = 'alice'): Promise<Answer> {
  const sep = path.includes('?') ? '&' : '?';
  const res = await raw(w.emu.url, method, `${V4}${path}${sep}access_token=${w.accessToken}`, {
    headers: { 'x-devops-uid': user, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: res.json() as Answer['json'] };
}
const control = async (method: string, name: string, body?: unknown) => {
  const res = await raw(w.emu.url, method, `/__emulator/${name}`, body === undefined ? {} : { body: JSON.stringify(body) });
  return { status: res.status, json: res.json() as Record<string, unknown> };
};
const pipeline = (seed: Partial<z.input<typeof pipelineSchema>> = {}) =>
  w.emu.seedPipeline({ projectId: 'demo', pipelineId: 'p-app', ...seed });
const startBuild = async (values: Record<string, string> = {}, user = 'alice'): Promise<string> => {
  const r = await call('POST', 'build_start?pipelineId=p-app', values, user);
  expect(r.status).toBe(200);
  return String(r.json.data?.id);
};
const status = async (id: string) => (await call('GET', `build_status?buildId=${id}`)).json.data ?? {};
const histories = async (query: string) => call('GET', `build_histories?pipelineId=p-app${query}`);

describe('the build message', () => {
  it('is BK_CI_BUILD_MSG from the start values, cut to 255 as bk-ci does; without it, an OpenAPI start says so', async () => {
    pipeline();
    const given = await startBuild({ BK_CI_BUILD_MSG: 'gh octo/app run 7#1 build' });
    const long = await startBuild({ BK_CI_BUILD_MSG: `${'x'.repeat(254)}yz` });
    const blank = await startBuild({ BK_CI_BUILD_MSG: '  ' });
    const none = await startBuild({}, 'bob');
    expect((await status(given)).buildMsg).toBe('gh octo/app run 7#1 build');
    expect((await status(long)).buildMsg).toBe(`${'x'.repeat(254)}y`);
    expect((await status(blank)).buildMsg).toBe('OpenAPI 触发');
    expect(await status(none)).toMatchObject({ buildMsg: 'OpenAPI 触发', userId: 'bob' });
    expect(w.emu.builds.builds.get(none)?.userId).toBe('bob');
  });

  it('start values stay recorded; material keys are read-only build parameters', async () => {
    pipeline();
    const id = await startBuild({ APP_VERSION: '1.10', BK_CI_MATERIAL_ID: '0123abc' });
    expect((await status(id)).buildParameters).toEqual([
      { key: 'APP_VERSION', value: '1.10', valueType: 'STRING', readOnly: false, defaultValue: '' },
      { key: 'BK_CI_MATERIAL_ID', value: '0123abc', valueType: 'STRING', readOnly: true },
    ]);
    expect(w.emu.builds.builds.get(id)?.params).toEqual({ APP_VERSION: '1.10', BK_CI_MATERIAL_ID: '0123abc' });
  });

  it('a pipeline that declares its parameters: an undeclared value is dropped, one not given takes its default, the material stays', async () => {
    pipeline({ params: { APP_VERSION: '', CHANNEL: 'beta' } });
    const id = await startBuild({ APP_VERSION: '1.10', EXTRA: 'x', BK_CI_MATERIAL_ID: '0123abc' });
    const s = await status(id);
    expect(s.buildParameters).toEqual([
      { key: 'APP_VERSION', value: '1.10', valueType: 'STRING', readOnly: false, defaultValue: '' },
      { key: 'CHANNEL', value: 'beta', valueType: 'STRING', readOnly: false, defaultValue: 'beta' },
      { key: 'BK_CI_MATERIAL_ID', value: '0123abc', valueType: 'STRING', readOnly: true },
    ]);
    expect(s.variables).toMatchObject({ APP_VERSION: '1.10', CHANNEL: 'beta', BK_CI_MATERIAL_ID: '0123abc' });
    expect(s.variables).not.toHaveProperty('EXTRA');
    const [row] = (await histories('')).json.data?.records ?? [];
    expect(row).toMatchObject({ userId: 'alice', buildParameters: s.buildParameters });
  });
});

describe('build_histories', () => {
  it('pages newest first: page 1 and 20 by default, pageSize capped at 100', async () => {
    pipeline({ phases: [{ status: 'RUNNING', ms: 1000 }] });
    for (let i = 0; i < 103; i++) await startBuild();
    const first = await histories('');
    expect(first.status).toBe(200);
    expect(first.json.data).toMatchObject({ count: 103, page: 1, pageSize: 20, totalPages: 6 });
    expect(first.json.data?.records?.map((r) => r.buildNum)).toEqual(Array.from({ length: 20 }, (_, i) => 103 - i));
    const big = await histories('&page=2&pageSize=500');
    expect(big.json.data).toMatchObject({ count: 103, page: 2, pageSize: 100, totalPages: 2 });
    expect(big.json.data?.records?.map((r) => r.buildNum)).toEqual([3, 2, 1]);
    expect(big.json.data?.records?.[0]).toMatchObject({ status: 'RUNNING', executeCount: 1, buildMsg: 'OpenAPI 触发', userId: 'alice' });
  });

  it('filters buildMsg as SQL LIKE %…% (so _ and % match anything, case ignored), startUser and status as IN', async () => {
    pipeline({ phases: [{ status: 'RUNNING', ms: 1000 }] });
    const a = await startBuild({ BK_CI_BUILD_MSG: 'GitHub octo/app run 11 attempt 1 job deploy' });
    const b = await startBuild({ BK_CI_BUILD_MSG: 'GitHub octo/app run 11 attempt 1 job deploy-2' }, 'bob');
    w.clock.t += 5000;
    const c = await startBuild({ BK_CI_BUILD_MSG: 'github octo/app run 110 attempt 1 job deploy' });
    const ids = async (q: string) => ((await histories(q)).json.data?.records ?? []).map((r) => r.id);
    expect(await ids(`&buildMsg=${encodeURIComponent('run 11 attempt 1 job deploy')}`)).toEqual([b, a]);
    expect(await ids(`&buildMsg=${encodeURIComponent('GITHUB octo/app run 11')}`)).toEqual([c, b, a]);
    expect(await ids(`&buildMsg=${encodeURIComponent('run 1_ attempt')}`)).toEqual([b, a]);
    expect(await ids(`&buildMsg=${encodeURIComponent('run 1__ attempt')}`)).toEqual([c]);
    expect(await ids(`&buildMsg=${encodeURIComponent('run 11%deploy-')}`)).toEqual([b]);
    expect(await ids(`&buildMsg=${encodeURIComponent('run 1\\_ attempt')}`)).toEqual([]);
    expect(await ids('&startUser=bob')).toEqual([b]);
    expect(await ids('&startUser=bob&startUser=alice')).toEqual([c, b, a]);
    expect(await ids('&status=SUCCEED')).toEqual([b, a]);
    expect(await ids('&status=RUNNING&status=QUEUE')).toEqual([c]);
    expect(await ids(`&startTimeStartTime=${T0 + 1}`)).toEqual([c]);
    expect(await ids(`&startTimeEndTime=${T0}`)).toEqual([b, a]);
  });

  it('a queued build has no start time yet: a start-time bound leaves it out', async () => {
    pipeline({ phases: [{ status: 'QUEUE', ms: 60_000 }] });
    const id = await startBuild();
    expect((await histories(`&startTimeStartTime=${T0 - 1000}`)).json.data?.count).toBe(0);
    expect((await histories(`&queueTimeStartTime=${T0 - 1000}`)).json.data?.records?.map((r) => r.id)).toEqual([id]);
  });

  it('historyLagMs: a build shows in the history only that long after its start; build_status knows it at once', async () => {
    pipeline({ historyLagMs: 3000 });
    const id = await startBuild({ BK_CI_BUILD_MSG: 'lagging' });
    expect((await histories('&buildMsg=lagging')).json.data?.count).toBe(0);
    expect((await status(id)).id).toBe(id);
    w.clock.t += 2999;
    expect((await histories('&buildMsg=lagging')).json.data?.count).toBe(0);
    w.clock.t += 1;
    expect((await histories('&buildMsg=lagging')).json.data?.records?.map((r) => r.id)).toEqual([id]);
  });

  it('materialCommitId filters the material a checkout recorded (LIKE), not the start values', async () => {
    pipeline({ material: [{ commitFrom: 'BK_CI_MATERIAL_ID' }] });
    const a = await startBuild({ BK_CI_MATERIAL_ID: '0123456789abcdef' });
    await startBuild({ BK_CI_MATERIAL_ID: 'fedcba9876543210' });
    const r = await histories('&materialCommitId=01234567');
    expect(r.json.data?.records?.map((x) => x.id)).toEqual([a]);
    expect(r.json.data?.records?.[0]?.material).toMatchObject([{ newCommitId: '0123456789abcdef', aliasName: 'app' }]);
  });

  it.each([
    ['no pipelineId', 'build_histories', 400, '参数校验失败:request param pipelineId cannot be empty'],
    ['an unknown status', 'build_histories?pipelineId=p-app&status=DONE', 400, '查询参数类型错误'],
    ['a page that is not a number', 'build_histories?pipelineId=p-app&page=two', 400, '查询参数类型错误'],
  ])('%s is bk-ci 400', async (_, path, http, message) => {
    pipeline();
    const r = await call('GET', path);
    expect(r).toEqual({ status: http, json: { status: 400, message } });
  });

  it('is on the BlueKing API Gateway front path too', async () => {
    await behindGateway();
    pipeline();
    const id = await w.emu.builds.start('demo', 'p-app', 'alice', { BK_CI_BUILD_MSG: 'via gateway' });
    expect(id.status).toBe(200);
    const res = await raw(w.emu.url, 'GET', '/v4/apigw-user/projects/demo/build_histories?pipelineId=p-app&buildMsg=via', {
      headers: { 'x-bkapi-authorization': JSON.stringify({ access_token: w.accessToken }) },
    });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ status: 0, data: { count: 1, records: [{ buildMsg: 'via gateway', userId: 'alice' }] } });
  });
});

describe('lost answers after the work is done (after: true)', () => {
  const startsOf = () => [...w.emu.builds.builds.values()].length;

  it.each([
    ['reset', { kind: 'reset' }],
    ['a gateway 504 page', { kind: 'status', status: 504, contentType: 'html' }],
    ['a cut answer', { kind: 'cut', bytes: 10 }],
  ] as const)('%s on build_start: the build exists, the answer is lost', async (_, fault) => {
    pipeline();
    const armed = await control('POST', 'faults', { pattern: 'build_start$', after: true, fault });
    expect(armed.status).toBe(200);
    expect((await control('GET', 'faults')).json).toEqual([{ pattern: 'build_start$', left: 1, skip: 0, after: true, fault }]);
    const answer = await call('POST', 'build_start?pipelineId=p-app', { BK_CI_BUILD_MSG: 'lost-1' }).then(
      (r) => `HTTP ${r.status}`,
      (e: unknown) => String(e),
    );
    expect(answer).not.toBe('HTTP 200');
    expect(startsOf()).toBe(1);
    expect((await control('GET', 'builds')).json).toEqual([
      expect.objectContaining({ pipelineId: 'p-app', num: 1, userId: 'alice', buildMsg: 'lost-1', status: 'QUEUE', endTime: null }),
    ]);
    expect((await histories('&buildMsg=lost-1')).json.data?.count).toBe(1);
  });

  it('behind the BlueKing API Gateway: a 504 page from the gateway after bk-ci started the build', async () => {
    await behindGateway();
    pipeline();
    w.emu.faults.add({
      path: '/v4/apigw-user/projects/demo/build_start',
      after: true,
      fault: { kind: 'status', status: 504, contentType: 'html' },
    });
    const res = await raw(w.emu.url, 'POST', '/v4/apigw-user/projects/demo/build_start?pipelineId=p-app', {
      headers: { 'x-bkapi-authorization': JSON.stringify({ access_token: w.accessToken }), 'content-type': 'application/json' },
      body: JSON.stringify({ BK_CI_BUILD_MSG: 'through the gateway' }),
    });
    expect(res.status).toBe(504);
    expect(res.body).toContain('<title>504');
    expect([...w.emu.builds.builds.values()].map((b) => [b.buildMsg, b.userId])).toEqual([['through the gateway', 'alice']]);
  });

  it('without after, a reset means no build (the fault comes first)', async () => {
    pipeline();
    w.emu.faults.add({ pattern: /build_start$/, fault: { kind: 'reset' } });
    await expect(call('POST', 'build_start?pipelineId=p-app', {})).rejects.toThrow();
    expect(startsOf()).toBe(0);
  });

  it('hang and delay from the TypeScript API: the build exists though no answer came', async () => {
    pipeline();
    w.emu.faults.add({ pattern: /build_start$/, after: true, fault: { kind: 'delay', ms: 50 } });
    expect((await call('POST', 'build_start?pipelineId=p-app', {})).status).toBe(200);
    expect(startsOf()).toBe(1);
    w.emu.faults.add({ pattern: /build_start$/, after: true, fault: { kind: 'hang' } });
    const controller = new AbortController();
    const hung = fetch(`${w.emu.url}${V4}build_start?pipelineId=p-app&access_token=${w.accessToken}`, {
      method: 'POST',
      headers: { 'x-devops-uid': 'alice', 'content-type': 'application/json' },
      body: '{}',
      signal: controller.signal,
    }).then(
      (r) => `HTTP ${r.status}`,
      (e: unknown) => String(e),
    );
    // The request is handled as soon as it is logged: wait for that, not for a time.
    while (w.emu.requests({ method: 'POST' }).length < 2) await new Promise((r) => setTimeout(r, 5));
    expect(startsOf()).toBe(2);
    controller.abort();
    expect(await hung).toMatch(/abort/i);
  });
});

describe('ends bk-ci has', () => {
  it('UNEXEC: never ran (pushed out of a full queue): startTime 0, an endTime, no stage ran', async () => {
    pipeline({ phases: [{ status: 'QUEUE', ms: 3000 }], result: 'UNEXEC' });
    const id = await startBuild();
    w.clock.t += 3000;
    const s = await status(id);
    expect(s).toMatchObject({ status: 'UNEXEC', startTime: 0, endTime: T0 + 3000, currentQueuePosition: 0 });
    expect(s.stageStatus).toEqual([
      { stageId: 'stage-1', name: 'stage-1' },
      { stageId: 'stage-2', name: 'Build' },
      { stageId: 'stage-3', name: 'Release' },
    ]);
    expect(s).not.toHaveProperty('totalTime');
  });

  it('SKIP: ran, ended, every stage skipped', async () => {
    pipeline({
      phases: [
        { status: 'QUEUE', ms: 1000 },
        { status: 'RUNNING', ms: 1000 },
      ],
      result: 'SKIP',
    });
    const id = await startBuild();
    w.clock.t += 2000;
    const s = await status(id);
    expect(s).toMatchObject({ status: 'SKIP', startTime: T0 + 1000, endTime: T0 + 2000, totalTime: 2000, executeTime: 1000 });
    expect((s.stageStatus as { status?: string }[]).map((x) => x.status)).toEqual(['SUCCEED', 'SKIP', 'SKIP']);
  });
});
