// Through the BlueKing API Gateway: every operation it publishes, in app state and user state,
// each of its refusals, and no secret of it shown, against the emulator's gateway flavour.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runStep, unescapeData, useInstalledAction } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { useWorld, worldForTest } from '../support/world.ts';

const APP = { 'app-code': 'ci-app', 'app-secret': 'app-secret-0001' };
afterAll(cleanupRuns);

const w = useWorld({ gateway: { ungranted: ['/projects/secret-project'] }, project: { description: 'seeded', bgId: 12 } });
beforeEach(() => {
  w.pipeline();
});

const step = (inputs: Record<string, string>) =>
  runInProcess({
    inputs: { 'base-url': w.emu.url, gateway: 'bk-apigateway', retries: '0', 'poll-interval': '1s', ...inputs },
    clock: w.clock,
  });
describe.each([
  ['app state (apigw-app): app-code, app-secret, user-id', { ...APP, 'user-id': 'alice' }, 'apigw-app'],
  ['user state (apigw-user): bk-token', { 'bk-token': '' }, 'apigw-user'],
])('%s', (_, credentials, type) => {
  const as = (inputs: Record<string, string>) =>
    step({ ...credentials, ...('bk-token' in credentials ? { 'bk-token': w.bkToken } : {}), ...inputs });

  it.each<[string, Record<string, string>, string, string]>([
    ['get-project', { 'project-id': 'demo' }, 'GET', 'projects/demo'],
    ['list-projects', {}, 'GET', 'projects/project_list'],
    ['create-project', { project: 'englishName: made\nprojectName: Made' }, 'POST', 'projects/project_create'],
    ['update-project', { 'project-id': 'demo', project: 'description: via the gateway' }, 'PUT', 'projects/demo'],
    [
      'create-callbacks',
      { 'project-id': 'demo', 'callback-url': 'https://h.example/cb', region: 'OSS', events: 'BUILD_END' },
      'POST',
      'projects/demo/callbacks/batch',
    ],
    ['request', { path: 'v4/projects/demo' }, 'GET', 'projects/demo'],
    ['start-build', { 'project-id': 'demo', 'pipeline-id': 'p-app' }, 'POST', 'projects/demo/build_start'],
  ])('%s works, on the gateway front path', async (operation, inputs, method, front) => {
    const r = await as({ operation, ...inputs });
    expect(r.errors).toEqual([]);
    const sent = w.emu.requests({ method }).find((q) => q.path === `/v4/${type}/${front}`);
    expect(
      sent,
      w.emu
        .requests()
        .map((q) => `${q.method} ${q.path}`)
        .join('\n'),
    ).toBeDefined();
    // No token in the query; the credentials in X-Bkapi-Authorization.
    expect(w.emu.requests().every((q) => !q.query.includes('access_token'))).toBe(true);
    const auth = JSON.parse(String(sent?.headers['x-bkapi-authorization'])) as Record<string, string>;
    if (type === 'apigw-app') {
      expect(auth).toEqual({ bk_app_code: 'ci-app', bk_app_secret: 'app-secret-0001', bk_username: 'alice' });
      expect(sent?.headers['x-devops-uid']).toBe('alice');
    } else expect(auth).toEqual({ bk_token: w.bkToken });
  });

  it('build-status reads a build through the gateway', async () => {
    const started = await as({ operation: 'start-build', 'project-id': 'demo', 'pipeline-id': 'p-app', wait: 'false' });
    const r = await as({ operation: 'build-status', 'project-id': 'demo', 'build-id': started.outputs['build-id'] ?? '' });
    expect(r.errors).toEqual([]);
    expect(r.outputs['build-status']).toBe('SUCCEED');
  });
});

describe('what the gateway does not publish, and what goes together', () => {
  it.each([
    [
      { operation: 'sign-detail', 'resign-id': 's-1', ...APP, 'user-id': 'alice' },
      /operation sign-detail is not published on the bk-apigateway gateway: .*use gateway: bk-ci/,
    ],
    [{ operation: 'get-token', 'bk-token': 'x' }, /operation get-token is not published on the bk-apigateway gateway/],
    [{ operation: 'request', path: 'v3/projects/demo', ...APP }, /bk-ci publishes only v4 on the BlueKing API Gateway/],
    [{ operation: 'get-project', 'project-id': 'demo', 'app-code': 'ci-app' }, /app-code and app-secret go together/],
    [{ operation: 'get-project', 'project-id': 'demo' }, /the BlueKing API Gateway needs credentials/],
    [
      { operation: 'get-project', 'project-id': 'demo', gateway: 'bk-ci', ...APP, 'user-id': 'alice', 'access-token': 't%2B1' },
      /app-secret is for gateway: bk-apigateway/,
    ],
    [{ operation: 'get-project', 'project-id': 'demo', gateway: 'apigw' }, /gateway must be bk-ci or bk-apigateway, not "apigw"/],
  ])('%j is an input error before any request', async (inputs, message) => {
    const r = await step(inputs);
    failedWith(r, message);
    expect(r.errors[0]).toMatch(/No request was sent/);
    expect(w.emu.requests()).toHaveLength(0);
  });
});

describe("the gateway's refusals say what to check", () => {
  it('401 APP_VERIFY_FAILED: app-code and app-secret', async () => {
    const r = await step({
      operation: 'get-project',
      'project-id': 'demo',
      'app-code': 'ci-app',
      'app-secret': 'wrong-secret',
      'user-id': 'alice',
    });
    failedWith(r, /HTTP 401: the BlueKing API Gateway refused the call: APP_VERIFY_FAILED \(1640101\).*check app-code and app-secret$/);
    expect(r.outputs['http-status']).toBe('401');
  });

  it('401 USER_VERIFY_FAILED: the login ticket or token', async () => {
    failedWith(
      await step({ operation: 'get-project', 'project-id': 'demo', 'bk-token': 'stale-ticket' }),
      /USER_VERIFY_FAILED \(1640102\).*check bk-token \(a login ticket\) or access-token/,
    );
  });

  it('403 APP_NO_PERMISSION: ask the operators to grant the resource', async () => {
    w.emu.seedProject({ englishName: 'secret-project', projectName: 'S', creator: 'alice' });
    failedWith(
      await step({ operation: 'get-project', 'project-id': 'secret-project', ...APP, 'user-id': 'alice' }),
      /HTTP 403: .*APP_NO_PERMISSION \(1640301\).*ask the gateway's operators to grant it/,
    );
  });

  it('429 is retried after Retry-After', async () => {
    w.emu.faults.add({
      fault: {
        kind: 'status',
        status: 429,
        body: JSON.stringify({
          code: 1642901,
          code_name: 'RATE_LIMIT_RESTRICTION',
          message: 'Request rate exceeds the limit',
          result: false,
          data: null,
        }),
        headers: { 'retry-after': '2', 'x-bkapi-error-code': '1642901' },
      },
    });
    const r = await step({ operation: 'get-project', 'project-id': 'demo', ...APP, 'user-id': 'alice', retries: '2' });
    expect(r.errors).toEqual([]);
    expect(w.emu.requests()).toHaveLength(2);
    expect(w.clock.sleeps).toEqual([2000]);
    expect(r.stdout).toMatch(/HTTP 429; retry 1 of 2 in 2s/);
  });

  it("the emulator's own rate limit answers 429 with the gateway's body", async () => {
    const { emu: limited } = await worldForTest({ gateway: { rateLimit: 1 }, realTime: true });
    const r = await runInProcess({
      inputs: { operation: 'list-projects', 'base-url': limited.url, gateway: 'bk-apigateway', ...APP, 'user-id': 'alice', retries: '0' },
    });
    const again = await runInProcess({
      inputs: { operation: 'list-projects', 'base-url': limited.url, gateway: 'bk-apigateway', ...APP, 'user-id': 'alice', retries: '0' },
    });
    expect(r.errors).toEqual([]);
    failedWith(again, /HTTP 429: .*RATE_LIMIT_RESTRICTION \(1642901\)/);
  });

  it("bk-ci's own paths are refused when the gateway is in front", async () => {
    const res = await fetch(`${w.emu.url}/ms/openapi/api/apigw/v3/projects/demo`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 1640401, code_name: 'API_NOT_FOUND', result: false, data: null });
  });
});

describe('the built action through the gateway', () => {
  const installed = useInstalledAction({ beforeAll, afterAll });

  it('shows neither app-secret nor the X-Bkapi-Authorization value anywhere, even when the server echoes them', async () => {
    const header = JSON.stringify({ bk_app_code: 'ci-app', bk_app_secret: 'app-secret-0001', bk_username: 'alice' });
    w.emu.faults.add({
      times: Infinity,
      fault: { kind: 'status', status: 500, contentType: 'text', body: `upstream saw ${header} and app-secret-0001` },
    });
    const get = {
      operation: 'get-project',
      'base-url': w.emu.url,
      gateway: 'bk-apigateway',
      ...APP,
      'user-id': 'alice',
      'project-id': 'demo',
    };
    const bad = await runStep(installed(), { inputs: { ...get, retries: '0' } });
    w.emu.faults.clear();
    const good = await runStep(installed(), { inputs: get });
    expect(bad.code).toBe(1);
    expect(good.code).toBe(0);
    for (const r of [bad, good]) {
      const dataFile = r.outputs['data-file'] ? await readFile(r.outputs['data-file'], 'utf8') : '';
      const shown = [
        unescapeData(r.stdout.replace(/^::add-mask::.*$/gm, '')),
        r.stderr,
        r.summary,
        JSON.stringify(r.outputs),
        dataFile,
      ].join('\n');
      for (const secret of ['app-secret-0001', header, JSON.stringify(header).slice(1, -1)]) expect(shown).not.toContain(secret);
      const masks = [...r.stdout.matchAll(/^::add-mask::(.*)$/gm)].map((m) => unescapeData(m[1] ?? ''));
      expect(masks).toContain('app-secret-0001');
      expect(masks).toContain(header);
    }
  });
});
