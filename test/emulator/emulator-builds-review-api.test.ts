// bk-ci's own review endpoints on the emulator: manual_start_build_stage (stage reviews, group by
// group) and manual_review (manual-review steps, acted on moments later), with bk-ci's refusals,
// directly and behind the BlueKing API Gateway; and a status answer about another build.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { pipelineSchema } from '../../emulator/pipeline-seed.ts';
import { raw } from '../support/raw-http.ts';
import { doorOptions, startWorld, T0, type World } from '../support/world.ts';

const USERS = ['alice', 'carol', 'dave', 'bob'];
let w: World;
let front: 'bkci' | 'gateway';
const open = async (how: 'bkci' | 'gateway') => {
  front = how;
  w = await startWorld({ ...doorOptions(how === 'gateway' ? 'apigw' : 'bkci'), users: USERS });
};
afterEach(() => w.emu.close());

type Answer = { status: number; json: { status: number; message?: string; data?: unknown } };
async function call(method: string, path: string, user: string, body?: unknown): Promise<Answer> {
  const bodyText = body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) };
  const res =
    front === 'gateway'
      ? await raw(w.emu.url, method, `/v4/apigw-user/projects/demo/${path}`, {
          headers: { 'x-bkapi-authorization': JSON.stringify({ access_token: w.accessTokens[user] }), 'content-type': 'application/json' },
          ...bodyText,
        })
      : await raw(w.emu.url, method, `/ms/openapi/api/apigw/v4/projects/demo/${path}&access_token=${w.accessTokens[user]}`, {
          headers: { 'x-devops-uid': user, 'content-type': 'application/json' },
          ...bodyText,
        });
  return { status: res.status, json: res.json() as Answer['json'] };
}
const seed = (s: Partial<z.input<typeof pipelineSchema>>) => w.emu.seedPipeline({ projectId: 'demo', pipelineId: 'p-app', ...s });
const startBuild = () => String((JSON.parse(w.emu.builds.start('demo', 'p-app', 'alice', {}).body) as { data: { id: string } }).data.id);
interface Detail {
  status: string;
  endTime?: number;
  cancelUserId?: string;
  model: {
    stages: {
      id: string;
      status?: string;
      checkIn?: {
        status?: string;
        reviewGroups: { id: string; status?: string; operator?: string; suggest?: string; params?: unknown[] }[];
        reviewParams: { key: string; value?: unknown }[];
      };
      containers: { elements: { id: string; stepId?: string; name: string; status?: string; errorMsg?: string; suggest?: string }[] }[];
    }[];
  };
}
const detail = async (id: string) => (await call('GET', `build_detail?buildId=${id}`, 'alice')).json.data as Detail;

const STAGE_REVIEW = {
  stages: ['Build', 'Release'],
  phases: [
    { status: 'RUNNING', ms: 1000 },
    {
      status: 'STAGE_SUCCESS',
      stage: 'Release',
      review: {
        groups: [
          { name: 'QA', reviewers: ['carol'] },
          { name: 'Ops', reviewers: ['dave'] },
        ],
        params: [{ key: 'REGION', value: 'eu' }],
      },
    },
    { status: 'RUNNING', ms: 1000 },
  ],
};
const stage = (id: string, q = '') => `manual_start_build_stage?buildId=${id}&stageId=stage-3${q}`;

describe.each(['bkci', 'gateway'] as const)('manual_start_build_stage (%s)', (how) => {
  beforeEach(() => open(how));

  it('approves group by group: the first without an id, the next only with its id and by its reviewers', async () => {
    seed(STAGE_REVIEW);
    const id = startBuild();
    w.clock.t += 1000;
    const groups = (await detail(id)).model.stages[2]?.checkIn?.reviewGroups ?? [];
    const [qa, ops] = groups.map((g) => g.id);
    expect(await call('POST', stage(id), 'dave', { reviewParams: [] })).toMatchObject({
      status: 403,
      json: { status: 2101008, message: '流水线: 用户无stage-3权限' },
    });
    const first = await call('POST', stage(id), 'carol', {
      reviewParams: [
        { key: 'REGION', value: 'us' },
        { key: 'OTHER', value: 'x' },
      ],
      suggest: 'QA ok',
    });
    expect(first).toEqual({ status: 200, json: { status: 0, data: true } });
    const half = await detail(id);
    expect(half.status).toBe('STAGE_SUCCESS');
    expect(half.model.stages[2]?.checkIn?.reviewGroups[0]).toMatchObject({
      status: 'PROCESS',
      operator: 'carol',
      suggest: 'QA ok',
      params: [{ key: 'REGION', value: 'us' }],
    });
    expect(half.model.stages[2]?.checkIn?.reviewParams).toMatchObject([{ key: 'REGION', value: 'us' }]);
    expect(await call('POST', stage(id), 'dave', { reviewParams: [] })).toMatchObject({
      status: 403,
      json: { status: 2101073, message: 'Stage[stage-3]的审核组ID[Flow 1]不存在' },
    });
    expect(await call('POST', stage(id), 'dave', { reviewParams: [], id: qa })).toMatchObject({ status: 403, json: { status: 2101073 } });
    expect(await call('POST', stage(id), 'dave', { reviewParams: [], id: 'nope' })).toMatchObject({
      status: 403,
      json: { message: 'Stage[stage-3]的审核组ID[nope]不存在' },
    });
    expect(await call('POST', stage(id), 'carol', { reviewParams: [], id: ops })).toMatchObject({ status: 403, json: { status: 2101008 } });
    expect(await call('POST', stage(id, '&pipelineId=p-app&cancel=false'), 'dave', { reviewParams: [], id: ops })).toMatchObject({
      status: 200,
    });
    const on = await detail(id);
    expect(on.status).toBe('RUNNING');
    expect(on.model.stages[2]?.checkIn?.status).toBe('REVIEW_PROCESSED');
    expect(await call('POST', stage(id), 'dave', { reviewParams: [], id: ops })).toMatchObject({
      status: 400,
      json: { status: 2101167, message: '构建中Stage[stage-3]未处于等待把关状态' },
    });
  });

  it('cancel=true rejects: REVIEW_ABORT, and the build ends STAGE_SUCCESS with endTime; no body is no error', async () => {
    seed(STAGE_REVIEW);
    const id = startBuild();
    w.clock.t += 1000;
    expect(await call('POST', stage(id, '&cancel=true'), 'carol')).toMatchObject({ status: 200 });
    const d = await detail(id);
    expect(d.model.stages[2]?.checkIn).toMatchObject({
      status: 'REVIEW_ABORT',
      reviewGroups: [{ status: 'ABORT', operator: 'carol' }, {}],
    });
    w.clock.t += 1000;
    expect(await detail(id)).toMatchObject({ status: 'STAGE_SUCCESS', endTime: T0 + 2000 });
  });

  it("refuses as bk-ci: stage not paused 2101167, unknown stage 404 2101166, unknown build v4's 400, missing stageId", async () => {
    seed(STAGE_REVIEW);
    const id = startBuild();
    expect(await call('POST', stage(id), 'carol', { reviewParams: [] })).toMatchObject({ status: 400, json: { status: 2101167 } });
    expect(await call('POST', `manual_start_build_stage?buildId=${id}&stageId=stage-1`, 'carol')).toMatchObject({
      status: 400,
      json: { status: 2101167 },
    });
    expect(await call('POST', `manual_start_build_stage?buildId=${id}&stageId=stage-9`, 'carol')).toMatchObject({
      status: 404,
      json: { status: 2101166, message: '构建中Stage[stage-9]不存在' },
    });
    expect(await call('POST', 'manual_start_build_stage?buildId=b-nope&stageId=stage-3', 'carol')).toMatchObject({
      status: 400,
      json: { status: 400, message: '参数校验失败:{0} Invalid buildId, please check if projectId & buildId are related' },
    });
    expect(await call('POST', `manual_start_build_stage?buildId=${id}`, 'carol')).toMatchObject({
      status: 400,
      json: { message: '参数校验失败:request param stageId cannot be empty' },
    });
    expect(await call('POST', stage(id, '&pipelineId=p-other'), 'carol')).toMatchObject({
      status: 400,
      json: { message: '参数校验失败:{0} PipelineId is invalid ' },
    });
    expect(w.emu.builds.builds.get(id)?.decisions).toEqual([]);
  });
});

const STEP_REVIEW = {
  stages: ['Build'],
  jobs: { Build: [{ name: 'Linux', steps: ['Checkout', { name: 'Approve', stepId: 'approve', reviewers: ['bob'] }, 'Publish'] }] },
  phases: [
    { status: 'RUNNING', ms: 1000 },
    { status: 'RUNNING', step: 'Approve' },
    { status: 'RUNNING', ms: 1000 },
  ],
  decisionDelayMs: 2000,
};
const approveStep = (d: Detail) => d.model.stages[1]?.containers[0]?.elements[1];

describe.each(['bkci', 'gateway'] as const)('manual_review (%s)', (how) => {
  beforeEach(() => open(how));

  it('PROCESS by a reviewer: accepted at once, acted on moments later (the step still REVIEWING right after)', async () => {
    seed(STEP_REVIEW);
    const id = startBuild();
    w.clock.t += 1000;
    const r = await call('POST', `manual_review?buildId=${id}&stepId=approve`, 'bob', { status: 'PROCESS', suggest: 'go', params: [] });
    expect(r).toEqual({ status: 200, json: { status: 0, data: true } });
    const right = await detail(id);
    expect(right.status).toBe('RUNNING');
    expect(approveStep(right)?.status).toBe('REVIEWING');
    w.clock.t += 2000;
    const later = await detail(id);
    expect(approveStep(later)).toMatchObject({ status: 'SUCCEED', suggest: 'go' });
    w.clock.t += 1000;
    expect((await detail(id)).status).toBe('SUCCEED');
  });

  it('ABORT by elementId: the step REVIEW_ABORT, the build FAILED, the reviewer its cancel user; a later decision before it is acted on wins', async () => {
    seed(STEP_REVIEW);
    const id = startBuild();
    w.clock.t += 1000;
    const element = approveStep(await detail(id))?.id ?? '';
    expect(await call('POST', `manual_review?buildId=${id}&elementId=${element}`, 'bob', { status: 'PROCESS' })).toMatchObject({
      status: 200,
    });
    w.clock.t += 500;
    expect(await call('POST', `manual_review?buildId=${id}&elementId=${element}`, 'bob', { status: 'ABORT' })).toMatchObject({
      status: 200,
    });
    w.clock.t += 1500;
    const d = await detail(id);
    expect(d).toMatchObject({ status: 'FAILED', endTime: T0 + 3000, cancelUserId: 'bob' });
    expect(approveStep(d)?.status).toBe('REVIEW_ABORT');
    expect(await call('POST', `manual_review?buildId=${id}&elementId=${element}`, 'bob', { status: 'PROCESS' })).toMatchObject({
      status: 400,
      json: { status: 2101279, message: `插件【ID:${element}】不存在或者不是可审核状态` },
    });
  });

  it('status missing: bk-ci stores "null" and the engine fails the step; the build ends FAILED with the error shown', async () => {
    seed(STEP_REVIEW);
    const id = startBuild();
    w.clock.t += 1000;
    expect(await call('POST', `manual_review?buildId=${id}&stepId=approve`, 'bob', { suggest: 'forgot the status' })).toMatchObject({
      status: 200,
    });
    w.clock.t += 2000;
    const d = await detail(id);
    expect(d.status).toBe('FAILED');
    expect(approveStep(d)).toMatchObject({ status: 'FAILED', errorMsg: expect.stringContaining('ManualReviewAction.null') });
  });

  it('refuses as bk-ci: no elementId nor stepId, a user not in the list, a step that is not reviewable', async () => {
    seed(STEP_REVIEW);
    const id = startBuild();
    expect(await call('POST', `manual_review?buildId=${id}`, 'bob', { status: 'PROCESS' })).toEqual({
      status: 400,
      json: { status: 400, message: '请求的参数内容为空', data: 'Invalid elementId&stepId' },
    });
    expect(await call('POST', `manual_review?buildId=${id}&stepId=approve`, 'carol', { status: 'PROCESS' })).toMatchObject({
      status: 400,
      json: { status: 2101018, message: '流水线: 用户(carol)不在审核人员名单中' },
    });
    expect(await call('POST', `manual_review?buildId=${id}&stepId=approve`, 'bob', { status: 'PROCESS' })).toMatchObject({
      status: 400,
      json: { status: 2101279 },
    });
    expect(await call('POST', `manual_review?buildId=${id}&stepId=nothing`, 'bob', { status: 'PROCESS' })).toMatchObject({
      status: 400,
      json: { status: 2101279, message: '插件【ID:】不存在或者不是可审核状态' },
    });
    expect(await call('POST', `manual_review?buildId=${id}&stepId=approve`, 'bob', { status: 'LATER' })).toMatchObject({ status: 400 });
    w.clock.t += 1000;
    expect(await call('POST', `build_stop?buildId=${id}`, 'alice')).toMatchObject({ status: 200 });
    expect(await call('POST', `manual_review?buildId=${id}&stepId=approve`, 'bob', { status: 'PROCESS' })).toMatchObject({
      status: 400,
      json: { status: 2101279 },
    });
    expect(w.emu.builds.builds.get(id)?.decisions).toEqual([]);
  });
});

describe('a status answer about another build (bkci)', () => {
  beforeEach(() => open('bkci'));

  it('answerAsBuild makes build_status answer with that id', async () => {
    seed({ answerAsBuild: 'b-someone-else' });
    const id = startBuild();
    const r = await call('GET', `build_status?buildId=${id}`, 'alice');
    expect(r.json).toMatchObject({ status: 0, data: { id: 'b-someone-else', buildNum: 1 } });
  });

  it('answerAsBuild naming a build that exists answers with all of that build', async () => {
    seed({ phases: [{ status: 'RUNNING', ms: 1000 }] });
    const first = startBuild();
    w.clock.t += 1000;
    seed({ phases: [{ status: 'RUNNING', ms: 1000 }], answerAsBuild: first });
    const second = startBuild();
    const r = await call('GET', `build_status?buildId=${second}`, 'alice');
    expect(r.json).toMatchObject({ status: 0, data: { id: first, buildNum: 1, status: 'SUCCEED', variables: { BK_CI_BUILD_ID: first } } });
  });

  it('a patch fault sets fields in the answer data, through the control API: another id, a status nobody knows', async () => {
    seed({});
    const id = startBuild();
    const armed = await raw(w.emu.url, 'POST', '/__emulator/faults', {
      body: JSON.stringify({ pattern: 'build_status$', times: 2, fault: { kind: 'patch', data: { id: 'b-other', status: 'WARPING' } } }),
    });
    expect(armed.status).toBe(200);
    for (let i = 0; i < 2; i++)
      expect((await call('GET', `build_status?buildId=${id}`, 'alice')).json).toMatchObject({
        data: { id: 'b-other', status: 'WARPING', buildNum: 1 },
      });
    expect((await call('GET', `build_status?buildId=${id}`, 'alice')).json).toMatchObject({ data: { id, status: 'QUEUE' } });
    w.emu.faults.add({ pattern: /build_status$/, fault: { kind: 'patch', data: { id: 'b-x' } } });
    expect((await call('GET', 'build_status?buildId=b-nope', 'alice')).json).toEqual({
      status: 400,
      message: '参数校验失败:{0} Invalid buildId, please check if projectId & buildId are related',
    });
  });

  it('a review pipeline seeded through the control API walks like one seeded in code', async () => {
    const seeded = await raw(w.emu.url, 'POST', '/__emulator/pipelines', {
      body: JSON.stringify({ projectId: 'demo', pipelineId: 'p-app', ...STAGE_REVIEW }),
    });
    expect(seeded.status).toBe(200);
    const id = startBuild();
    w.clock.t += 1000;
    expect(await call('POST', stage(id), 'carol', { reviewParams: [] })).toMatchObject({ status: 200 });
    const decided = await raw(w.emu.url, 'POST', '/__emulator/reviews', {
      body: JSON.stringify({ buildId: id, action: 'approve', user: 'dave' }),
    });
    expect(decided.json()).toEqual({ decided: 'stage review group 2: PROCESS' });
    expect((await detail(id)).status).toBe('RUNNING');
  });

  it('build_start takes no body as {}', async () => {
    seed({});
    expect(await call('POST', 'build_start?pipelineId=p-app', 'alice')).toMatchObject({ status: 200, json: { data: { num: 1 } } });
  });
});
