// build_detail (ModelRecord) and the reviews a build waits for: stage reviews with groups and
// manual-review steps, decided through the control API (POST /__emulator/reviews) and the
// TypeScript API, read over loopback in the bkci flavour and behind the BlueKing API Gateway.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { pipelineSchema } from '../../emulator/pipeline-seed.ts';
import { raw } from '../support/raw-http.ts';
import { doorOptions, startWorld, T0, type World } from '../support/world.ts';

const HOUR = 3_600_000;
let w: World;
let front: 'bkci' | 'gateway';
const open = async (how: 'bkci' | 'gateway') => {
  front = how;
  w = await startWorld({ ...doorOptions(how === 'gateway' ? 'apigw' : 'bkci'), users: ['alice'] });
};
afterEach(() => w.emu.close());

type Json = Record<string, unknown>;
async function get(path: string): Promise<{ status: number; json: { status: number; message?: string; data?: Json } }> {
  const res =
    front === 'gateway'
      ? await raw(w.emu.url, 'GET', `/v4/apigw-user/projects/demo/${path}`, {
          headers: { 'x-bkapi-authorization': JSON.stringify({ access_token: w.accessToken }) },
        })
      : await raw(w.emu.url, 'GET', `/ms/openapi/api/apigw/v4/projects/demo/${path}&access_token=${w.accessToken}`, {
          headers: { 'x-devops-uid': 'alice' },
        });
  return { status: res.status, json: res.json() as { status: number; data?: Json } };
}
const control = async (name: string, body: unknown) => {
  const res = await raw(w.emu.url, 'POST', `/__emulator/${name}`, { body: JSON.stringify(body) });
  return { status: res.status, json: res.json() as Json };
};
const seed = (s: Partial<z.input<typeof pipelineSchema>>) => w.emu.seedPipeline({ projectId: 'demo', pipelineId: 'p-app', ...s });
const startBuild = (values: Record<string, string> = {}) =>
  String((JSON.parse(w.emu.builds.start('demo', 'p-app', 'alice', values).body) as { data: { id: string } }).data.id);
const detail = async (id: string) => {
  const r = await get(`build_detail?buildId=${id}&executeCount=1`);
  expect(r.status).toBe(200);
  return r.json.data as Json & { model: { stages: Stage[] }; status: string };
};
const status = async (id: string) => (await get(`build_status?buildId=${id}`)).json.data as Json & { stageStatus: { status?: string }[] };
interface Element {
  '@type': string;
  id: string;
  stepId?: string;
  name: string;
  status?: string;
  errorType?: string;
  errorCode?: number;
  errorMsg?: string;
  reviewUsers?: string[];
}
interface Stage {
  id: string;
  name: string;
  status?: string;
  checkIn?: Json & { status?: string; reviewGroups: Json[]; timeout: number };
  containers: { id: string; containerHashId: string; jobId?: string; name: string; status?: string; elements: Element[] }[];
}
const steps = (d: { model: { stages: Stage[] } }) =>
  d.model.stages.slice(1).flatMap((s) => s.containers.flatMap((c) => c.elements.map((e) => `${e.name}:${e.status ?? '-'}`)));

const REVIEWED = {
  stages: ['Build', 'Release'],
  phases: [
    { status: 'RUNNING', ms: 1000, stage: 'Build' },
    {
      status: 'STAGE_SUCCESS',
      stage: 'Release',
      review: {
        groups: [
          { name: 'QA', reviewers: ['carol', 'erin'] },
          { name: 'Ops', reviewers: ['dave'], groups: ['ops-team'] },
        ],
        params: [{ key: 'REGION', value: 'eu', valueType: 'STRING' as const }],
        timeout: 2,
      },
    },
    { status: 'RUNNING', ms: 1000 },
  ],
};

describe.each(['bkci', 'gateway'] as const)('build_detail (%s)', (how) => {
  beforeEach(() => open(how));

  it('is a ModelRecord: the trigger stage, then stages, jobs and steps with their ids, as the build stands', async () => {
    seed({
      name: 'App',
      stages: ['Build', 'Deploy'],
      jobs: {
        Build: [
          { name: 'Linux', jobId: 'linux', steps: ['Checkout', { name: 'Compile', stepId: 'compile', atomCode: 'run' }] },
          { name: 'macOS', steps: ['Sign'] },
        ],
      },
      phases: [
        { status: 'QUEUE', ms: 1000 },
        { status: 'RUNNING', ms: 1000 },
      ],
    });
    const id = startBuild({ BK_CI_BUILD_MSG: 'release 1.10' });
    const queued = await detail(id);
    expect(queued).toMatchObject({ id, pipelineId: 'p-app', pipelineName: 'App', userId: 'alice', triggerUser: 'alice', status: 'QUEUE' });
    expect(queued).toMatchObject({ startTime: 0, buildNum: 1, executeCount: 1, buildMsg: 'release 1.10', errorInfoList: [] });
    expect(queued).not.toHaveProperty('endTime');
    const stages = queued.model.stages;
    expect(stages.map((s) => [s.id, s.name])).toEqual([
      ['stage-1', 'stage-1'],
      ['stage-2', 'Build'],
      ['stage-3', 'Deploy'],
    ]);
    expect(stages[1]?.containers.map((c) => [c.id, c.jobId, c.name])).toEqual([
      ['1', 'linux', 'Linux'],
      ['2', undefined, 'macOS'],
    ]);
    expect(stages[1]?.containers[0]?.containerHashId).toMatch(/^c-[0-9a-f]{32}$/);
    const compile = stages[1]?.containers[0]?.elements[1];
    expect(compile).toMatchObject({ name: 'Compile', stepId: 'compile' });
    expect(compile?.id).toMatch(/^e-[0-9a-f]{32}$/);
    expect(stages[2]?.containers[0]?.elements.map((e) => e.name)).toEqual(['Deploy']);
    expect(steps(queued)).toEqual(['Checkout:-', 'Compile:-', 'Sign:-', 'Deploy:-']);
    w.clock.t += 1500;
    const running = await detail(id);
    expect(running).toMatchObject({ status: 'RUNNING', startTime: T0 + 1000 });
    expect(running.model.stages.map((s) => s.status)).toEqual(['SUCCEED', 'RUNNING', undefined]);
    expect(steps(running)).toEqual(['Checkout:RUNNING', 'Compile:-', 'Sign:RUNNING', 'Deploy:-']);
    w.clock.t += 1000;
    const done = await detail(id);
    expect(done).toMatchObject({ status: 'SUCCEED', endTime: T0 + 2000 });
    expect(steps(done)).toEqual(['Checkout:SUCCEED', 'Compile:SUCCEED', 'Sign:SUCCEED', 'Deploy:SUCCEED']);
    expect(done.stageStatus).toEqual((await status(id)).stageStatus);
  });

  it('a failed build marks the step that failed, with its error from errorInfoList', async () => {
    seed({
      stages: ['Build', 'Release'],
      jobs: { Build: [{ name: 'Linux', steps: ['Checkout', 'Deploy', 'Notify'] }] },
      phases: [{ status: 'RUNNING', ms: 1000 }],
      result: 'FAILED',
      errorInfoList: [{ taskName: 'Deploy', errorCode: 2199001, errorMsg: 'host unreachable' }],
    });
    const id = startBuild();
    w.clock.t += 1000;
    const d = await detail(id);
    expect(d.model.stages.map((s) => s.status)).toEqual(['SUCCEED', 'FAILED', undefined]);
    expect(steps(d)).toEqual(['Checkout:SUCCEED', 'Deploy:FAILED', 'Notify:-', 'Release:-']);
    const deploy = d.model.stages[1]?.containers[0]?.elements[1];
    expect(deploy).toMatchObject({ errorType: 'USER', errorCode: 2199001, errorMsg: 'host unreachable' });
    expect(d.errorInfoList).toEqual([
      {
        stageId: 'stage-2',
        containerId: '1',
        taskId: deploy?.id,
        taskName: 'Deploy',
        atomCode: 'run',
        errorType: 'USER',
        errorCode: 2199001,
        errorMsg: 'host unreachable',
      },
    ]);
  });

  it('an unknown build is v4 400; a stopped build names who stopped it', async () => {
    seed({ phases: [{ status: 'RUNNING', ms: 10_000 }] });
    expect((await get('build_detail?buildId=b-nope')).json).toMatchObject({ status: 400 });
    const id = startBuild();
    w.emu.builds.stop('demo', id, null, 'bob');
    const d = await detail(id);
    expect(d).toMatchObject({ status: 'CANCELED', cancelUserId: 'bob', endTime: T0 });
  });
});

describe.each(['bkci', 'gateway'] as const)('stage reviews with groups (%s)', (how) => {
  beforeEach(() => open(how));
  const release = (d: { model: { stages: Stage[] } }) => d.model.stages[2] as Stage;

  it('pauses the stage: STAGE_SUCCESS without endTime, PAUSE, REVIEWING; group by group to REVIEW_PROCESSED and on', async () => {
    seed(REVIEWED);
    const id = startBuild();
    const before = await detail(id);
    expect(release(before).checkIn).toMatchObject({ timeout: 2, reviewParams: [{ key: 'REGION', value: 'eu' }] });
    expect(release(before).checkIn).not.toHaveProperty('status');
    w.clock.t += 1000;
    const s = await status(id);
    expect(s).toMatchObject({ status: 'STAGE_SUCCESS', endTime: null });
    expect(s.stageStatus.map((x) => x.status)).toEqual(['SUCCEED', 'SUCCEED', 'PAUSE']);
    const paused = await detail(id);
    const groups = release(paused).checkIn?.reviewGroups ?? [];
    expect(release(paused)).toMatchObject({ status: 'PAUSE', checkIn: { status: 'REVIEWING', timeout: 2 } });
    expect(groups).toEqual([
      { id: expect.stringMatching(/^[0-9a-f]{32}$/), name: 'QA', reviewers: ['carol', 'erin'], groups: [] },
      { id: expect.stringMatching(/^[0-9a-f]{32}$/), name: 'Ops', reviewers: ['dave'], groups: ['ops-team'] },
    ]);
    expect(groups[0]?.id).toBe(release(before).checkIn?.reviewGroups[0]?.id);

    w.clock.t += 500;
    expect(await control('reviews', { buildId: id, action: 'approve', user: 'erin', suggest: 'QA ok' })).toMatchObject({ status: 200 });
    const half = await detail(id);
    expect(half.status).toBe('STAGE_SUCCESS');
    expect(release(half)).toMatchObject({ status: 'PAUSE', checkIn: { status: 'REVIEWING' } });
    expect(release(half).checkIn?.reviewGroups).toMatchObject([
      { name: 'QA', status: 'PROCESS', operator: 'erin', reviewTime: T0 + 1500, suggest: 'QA ok' },
      { name: 'Ops' },
    ]);
    expect(release(half).checkIn?.reviewGroups[1]).not.toHaveProperty('status');

    const last = await control('reviews', { buildId: id, action: 'approve', user: 'dave' });
    expect(last.json).toEqual({ decided: 'stage review group 2: PROCESS' });
    const on = await detail(id);
    expect(on.status).toBe('RUNNING');
    expect(release(on)).toMatchObject({ status: 'RUNNING', checkIn: { status: 'REVIEW_PROCESSED' } });
    w.clock.t += 1000;
    expect(await status(id)).toMatchObject({ status: 'SUCCEED', endTime: T0 + 2500 });
  });

  it('a rejection: REVIEW_ABORT on the group and checkIn, the build runs on briefly, then ends STAGE_SUCCESS with endTime', async () => {
    seed(REVIEWED);
    const id = startBuild();
    w.clock.t += 1000;
    w.emu.builds.builds.get(id);
    expect(await control('reviews', { buildId: id, action: 'reject', user: 'carol', suggest: 'not today' })).toMatchObject({ status: 200 });
    const during = await detail(id);
    expect(during).toMatchObject({ status: 'RUNNING' });
    expect(release(during)).toMatchObject({ status: 'CANCELED', checkIn: { status: 'REVIEW_ABORT' } });
    expect(release(during).checkIn?.reviewGroups[0]).toMatchObject({ status: 'ABORT', operator: 'carol', suggest: 'not today' });
    w.clock.t += 1000;
    const s = await status(id);
    expect(s).toMatchObject({ status: 'STAGE_SUCCESS', endTime: T0 + 2000 });
    expect(s.stageStatus.map((x) => x.status)).toEqual(['SUCCEED', 'SUCCEED', 'CANCELED']);
    expect(release(await detail(id)).checkIn?.status).toBe('REVIEW_ABORT');
  });

  it('a timeout: rejected by SYSTEM with suggest TIMEOUT, on the first group while it is pending', async () => {
    seed(REVIEWED);
    const id = startBuild();
    w.clock.t += 1000 + 2 * HOUR - 1;
    expect((await status(id)).status).toBe('STAGE_SUCCESS');
    w.clock.t += 1;
    const d = await detail(id);
    expect(d.status).toBe('RUNNING');
    expect(release(d).checkIn).toMatchObject({ status: 'REVIEW_ABORT' });
    expect(release(d).checkIn?.reviewGroups[0]).toMatchObject({
      status: 'ABORT',
      operator: 'SYSTEM',
      suggest: 'TIMEOUT',
      reviewTime: T0 + 1000 + 2 * HOUR,
    });
    w.clock.t += 1000;
    expect(await status(id)).toMatchObject({ status: 'STAGE_SUCCESS', endTime: T0 + 2000 + 2 * HOUR });
  });

  it('a timeout after the first group approved leaves the second pending, as bk-ci does (reviewGroup(null) is the first)', async () => {
    seed(REVIEWED);
    const id = startBuild();
    w.clock.t += 1000;
    w.emu.builds.builds.get(id);
    await control('reviews', { buildId: id, action: 'approve', user: 'carol' });
    w.clock.t += 2 * HOUR;
    const d = await detail(id);
    expect(release(d).checkIn?.status).toBe('REVIEW_ABORT');
    expect(release(d).checkIn?.reviewGroups.map((g) => g.status)).toEqual(['PROCESS', undefined]);
  });
});

describe('manual-review steps (bkci)', () => {
  beforeEach(() => open('bkci'));
  const STEP = {
    stages: ['Build'],
    jobs: {
      Build: [
        {
          name: 'Linux',
          steps: ['Checkout', { name: 'Approve', stepId: 'approve', reviewers: ['bob'], desc: 'ship it?' }, 'Publish'],
        },
      ],
    },
    phases: [
      { status: 'RUNNING', ms: 1000 },
      { status: 'RUNNING', step: 'Approve' },
      { status: 'RUNNING', ms: 1000 },
    ],
  };
  const approve = (d: { model: { stages: Stage[] } }) => d.model.stages[1]?.containers[0]?.elements[1] as Element;

  it('waits REVIEWING (the build RUNNING) until PROCESS: the step SUCCEED, the build goes on', async () => {
    seed(STEP);
    const id = startBuild();
    w.clock.t += 1000;
    const waiting = await detail(id);
    expect(waiting.status).toBe('RUNNING');
    expect(approve(waiting)).toMatchObject({
      '@type': 'manualReviewUserTask',
      stepId: 'approve',
      status: 'REVIEWING',
      reviewUsers: ['bob'],
      desc: 'ship it?',
    });
    expect(steps(waiting)).toEqual(['Checkout:SUCCEED', 'Approve:REVIEWING', 'Publish:-']);
    w.clock.t += 3 * HOUR;
    expect(approve(await detail(id)).status).toBe('REVIEWING');
    expect((await control('reviews', { buildId: id, action: 'approve', user: 'bob', suggest: 'go' })).json).toEqual({
      decided: 'manual-review step: PROCESS',
    });
    const on = await detail(id);
    expect(steps(on)).toEqual(['Checkout:SUCCEED', 'Approve:SUCCEED', 'Publish:RUNNING']);
    expect(approve(on)).toMatchObject({ suggest: 'go' });
    w.clock.t += 1000;
    expect((await detail(id)).status).toBe('SUCCEED');
  });

  it('ABORT: the step REVIEW_ABORT, the build ends FAILED', async () => {
    seed(STEP);
    const id = startBuild();
    w.clock.t += 1000;
    await control('reviews', { buildId: id, action: 'reject', user: 'bob' });
    const d = await detail(id);
    expect(d).toMatchObject({ status: 'FAILED', endTime: T0 + 1000 });
    expect(steps(d)).toEqual(['Checkout:SUCCEED', 'Approve:REVIEW_ABORT', 'Publish:-']);
    expect((await status(id)).stageStatus.map((s) => s.status)).toEqual(['SUCCEED', 'FAILED']);
  });

  it('the control endpoint refuses what it cannot do, and changes nothing', async () => {
    seed(STEP);
    const id = startBuild();
    expect(await control('reviews', { buildId: id, action: 'approve' })).toMatchObject({
      status: 400,
      json: { message: expect.stringMatching(/waits for no review now \(status RUNNING\)/) },
    });
    expect(await control('reviews', { buildId: 'b-none', action: 'approve' })).toMatchObject({ status: 400 });
    expect(await control('reviews', { buildId: id, action: 'maybe' })).toMatchObject({ status: 400, json: { message: /action/ } });
    expect(w.emu.builds.builds.get(id)?.decisions).toEqual([]);
  });

  it('a seed that names a review step it does not have is refused', async () => {
    const r = await control('pipelines', { projectId: 'demo', pipelineId: 'p-x', phases: [{ status: 'RUNNING', step: 'Nope' }] });
    expect(r).toMatchObject({ status: 400, json: { message: /phases\.0\.step: no manual-review step Nope/ } });
    expect(() => seed({ phases: [{ status: 'STAGE_SUCCESS', review: { groups: [{ name: 'g', reviewers: ['a'] }] } }] })).toThrow(
      /a review needs its stage/,
    );
  });
});
