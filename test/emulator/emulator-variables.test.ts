// The emulator's build_variables (docs/bkci/artifacts-and-variables.md): start parameters,
// BK_CI_* built-ins and what steps set, "" for an unknown name, bk-ci's
// refusals for an empty list and for more than 50 names, in both flavours and behind the gateway.
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../emulator/server.ts';
import { seededBuild } from '../support/emu-v4.ts';

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

const SEED = {
  phases: [{ status: 'RUNNING', ms: 10_000 }],
  variables: { DEPLOY_TOKEN: 's3cr3t-value', 'jobs.build.steps.pack.outputs.VERSION': { value: '1.10', at: 4000 } },
};

describe('build_variables', () => {
  it.each([
    ['bkci', 'bkci'],
    ['spec', 'bkci'],
    ['bkci', 'apigw'],
  ] as const)('%s flavour on the %s route: values by name, "" for an unknown one, step outputs once set', async (flavour, route) => {
    const built = await seededBuild(SEED, { flavour, route });
    emu = built.emu;
    const { api, buildId, at } = built;
    const ask = async (names: unknown) => {
      const res = await api.post('build_variables', { buildId, pipelineId: 'p-app' }, JSON.stringify(names));
      expect(res.status).toBe(200);
      return (res.json() as { status: number; data: Record<string, string> }).data;
    };
    const names = ['BK_CI_BUILD_ID', 'BK_CI_PIPELINE_NAME', 'DEPLOY_TOKEN', 'jobs.build.steps.pack.outputs.VERSION', 'NOPE'];
    expect(await ask(names)).toEqual({
      BK_CI_BUILD_ID: buildId,
      BK_CI_PIPELINE_NAME: 'App',
      DEPLOY_TOKEN: 's3cr3t-value',
      'jobs.build.steps.pack.outputs.VERSION': '',
      NOPE: '',
    });
    at(4000);
    expect(await ask(['jobs.build.steps.pack.outputs.VERSION', 'BK_CI_START_USER_ID', 'BK_CI_BUILD_NUM'])).toEqual({
      'jobs.build.steps.pack.outputs.VERSION': '1.10',
      BK_CI_START_USER_ID: 'alice',
      BK_CI_BUILD_NUM: '1',
    });
  });

  it('start parameters are variables; what a step sets wins over them', async () => {
    const built = await seededBuild({ variables: { MODE: 'from-step' } });
    emu = built.emu;
    const res = await built.api.post('build_start', { pipelineId: 'p-app' }, JSON.stringify({ APP_VERSION: '2.0', MODE: 'start' }));
    const second = (res.json() as { data: { id: string } }).data.id;
    const values = await built.api.post('build_variables', { buildId: second }, '["APP_VERSION","MODE"]');
    expect(values.json()).toEqual({ status: 0, data: { APP_VERSION: '2.0', MODE: 'from-step' } });
  });

  it('a stopped build sets nothing after the stop', async () => {
    const built = await seededBuild(SEED);
    emu = built.emu;
    built.at(1000);
    await built.api.post('build_stop', { buildId: built.buildId }, '{}');
    built.at(9000);
    const res = await built.api.post(
      'build_variables',
      { buildId: built.buildId },
      '["jobs.build.steps.pack.outputs.VERSION","DEPLOY_TOKEN"]',
    );
    expect((res.json() as { data: object }).data).toEqual({ 'jobs.build.steps.pack.outputs.VERSION': '', DEPLOY_TOKEN: 's3cr3t-value' });
  });

  it('answers as a java.util.HashMap iterates, not in the order asked', async () => {
    const built = await seededBuild({ variables: { A: '1', B: '2', AA: '3' } });
    emu = built.emu;
    const res = await built.api.post('build_variables', { buildId: built.buildId }, '["AA","B","A"]');
    // "A" hashes to bucket 1, "B" to 2, "AA" (2080) to 0 of a 16-bucket table.
    expect(Object.keys((res.json() as { data: object }).data)).toEqual(['AA', 'A', 'B']);
  });

  it.each([
    ['[]', '请求的参数内容为空'],
    [JSON.stringify(Array.from({ length: 51 }, (_, i) => `V${i}`)), '查询参数请求错误'],
    ['{"names":["A"]}', 'JSON参数错误'],
    ['', 'JSON参数错误'],
  ])("%s is bk-ci's 400: %s", async (body, message) => {
    const built = await seededBuild({});
    emu = built.emu;
    const res = await built.api.post('build_variables', { buildId: built.buildId }, body);
    expect([res.status, res.json()]).toEqual([400, { status: 400, message }]);
  });

  it('50 names are allowed; an unknown build and another pipeline are refused as for logs', async () => {
    const built = await seededBuild({});
    emu = built.emu;
    const fifty = JSON.stringify(Array.from({ length: 50 }, (_, i) => `V${i}`));
    const ok = await built.api.post('build_variables', { buildId: built.buildId }, fifty);
    expect(Object.keys((ok.json() as { data: object }).data)).toHaveLength(50);
    expect((await built.api.post('build_variables', { buildId: 'b-nope' }, '["A"]')).json()).toEqual({
      status: 400,
      message: '参数校验失败:{0} Invalid buildId, please check if projectId & buildId are related',
    });
    expect((await built.api.post('build_variables', { buildId: built.buildId, pipelineId: 'p-x' }, '["A"]')).json()).toEqual({
      status: 400,
      message: '参数校验失败:{0} PipelineId is invalid ',
    });
  });
});
