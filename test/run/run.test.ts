// run() in this process, against the emulator on loopback, on a clock that the step and the
// emulator share: waits take no real time, and every time in a message is exact.
import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { type Emulator, OPENAPI_PREFIX, TOKEN_PATH } from '../../emulator/server.ts';
import type { Flavour } from '../../emulator/wire.ts';
import type { StepResult } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { T0, useWorld, type WorldOptions, worldForTest } from '../support/world.ts';

afterAll(cleanupRuns);

/** Project demo with its organisation, as these tests read it back. */
const DEMO = { description: 'seeded', bgId: 12, bgName: 'BG', deptId: 34, deptName: 'Dept', centerId: 56, centerName: 'Center' };

/** The world (demo with its organisation), and a step as alice with her access token; `bk: true` with her login ticket instead. */
function useStepWorld(flavour: Flavour, options: WorldOptions = {}) {
  const w = useWorld({ flavour, ...options, project: DEMO });
  const emu = (): Emulator => w.emu;
  const step = (inputs: Record<string, string>, o: { bk?: boolean } = {}): Promise<StepResult> =>
    runInProcess({
      inputs: {
        'base-url': emu().url,
        ...(o.bk ? { 'bk-token': w.bkToken } : { 'access-token': w.accessToken, 'user-id': 'alice' }),
        retries: '0',
        ...inputs,
      },
      clock: w.clock,
    });
  return { w, emu, step };
}

describe('operations, the same in both flavours (bkci flavour)', () => {
  const { w, emu, step } = useStepWorld('bkci');

  describe('the wire', () => {
    it('sends the token verbatim, the headers, and {} on POST', async () => {
      const r = await step({
        operation: 'create-callbacks',
        'project-id': 'demo',
        'callback-url': 'https://hooks.example.com/a?b=c&d',
        region: 'DEVNET',
        events: 'BUILD_START, BUILD_END',
        'secret-token': 's e/c+r=t',
      });
      expect(r.code).toBe(0);
      const [req] = emu().requests({ method: 'POST' });
      expect(req?.query.startsWith(`access_token=${w.accessToken}&`)).toBe(true);
      const q = new URLSearchParams(req?.query);
      expect(q.get('url')).toBe('https://hooks.example.com/a?b=c&d');
      expect(q.get('event')).toBe('BUILD_START,BUILD_END');
      expect(q.get('secretToken')).toBe('s e/c+r=t');
      expect(req?.body).toBe('{}');
      expect(req?.headers).toMatchObject({ accept: 'application/json', 'content-type': 'application/json', 'x-devops-uid': 'alice' });
    });

    it('encodes each path parameter as one segment', async () => {
      const ids = ['a/b', 'a?b', 'a#b', 'a%2Fb', '../x'];
      for (const id of ids) emu().seedProject({ englishName: id, projectName: `P ${id}`, creator: 'alice' });
      for (const id of ids) {
        const r = await step({ operation: 'get-project', 'project-id': id });
        expect(JSON.parse(r.outputs.data ?? '{}')).toMatchObject({ projectName: `P ${id}` });
      }
      expect(
        emu()
          .requests()
          .map((r) => r.path.slice(OPENAPI_PREFIX.length)),
      ).toEqual(['projects/a%2Fb', 'projects/a%3Fb', 'projects/a%23b', 'projects/a%252Fb', 'projects/..%2Fx']);
    });

    it('keeps a base-url path prefix', async () => {
      const r = await step({ operation: 'get-project', 'project-id': 'demo', 'base-url': `${emu().url}/gateway` });
      failedWith(r, /not found|HTTP 404/);
      expect(emu().requests()[0]?.path).toBe(`/gateway${OPENAPI_PREFIX}projects/demo`);
    });
  });

  describe('get-token', () => {
    it('gets a token with bk-token, masks it, and keeps it out of data', async () => {
      const r = await step({ operation: 'get-token' }, { bk: true });
      const token = r.outputs['access-token'] ?? '';
      expect(token).toMatch(/%2B|%2F|%3D/);
      expect(r.stdout).toContain(`::add-mask::${token.replace(/%/g, '%25')}`);
      expect(r.outputs).toMatchObject({ 'user-id': 'alice', 'expiration-time': String(T0 + 4 * 3_600_000) });
      expect(r.outputs.data).not.toContain(token);
      expect(emu().requests({ path: TOKEN_PATH })[0]?.headers.cookie).toBe(`bk_token=${w.bkToken}`);
      expect(r.summary).toContain('2026-06-01 04:00:00 UTC (in 4h)');
    });

    it('says what to do when bk-token is refused, or missing', async () => {
      failedWith(
        await step({ operation: 'get-token', 'bk-token': 'stale-ticket' }, { bk: true }),
        /refused bk-token \(HTTP 401: 用户权限验证失败。\).*Log in again/,
      );
      failedWith(
        await step({ operation: 'get-project', 'project-id': 'demo', 'access-token': '', 'user-id': '' }),
        /without a login ticket.*Set access-token \(with user-id\) or bk-token/,
      );
    });
  });

  describe('projects', () => {
    it('get-project outputs the project, its status and user', async () => {
      const r = await step({ operation: 'get-project', 'project-id': 'demo' });
      expect(JSON.parse(r.outputs.data ?? '')).toMatchObject({ englishName: 'demo', projectName: 'Demo', bgId: '12' });
      expect(r.outputs).toMatchObject({ 'http-status': '200', 'user-id': 'alice' });
    });

    it('list-projects counts what the user may see', async () => {
      emu().seedProject({ englishName: 'other', projectName: 'Other', creator: 'alice' });
      emu().seedProject({ englishName: 'hidden-from-alice', projectName: 'Not hers', creator: 'bob' });
      const r = await step({ operation: 'list-projects' });
      expect(r.outputs.count).toBe('2');
      expect(JSON.parse(r.outputs.data ?? '[]')).toHaveLength(2);
      expect(r.stdout).toMatch(/^2 projects$/m);
    });

    it('create-project creates with description "" and reads it back', async () => {
      const r = await step({ operation: 'create-project', project: 'englishName: fresh\nprojectName: Fresh\nbgId: 7' });
      expect(JSON.parse(r.outputs.data ?? '')).toMatchObject({ englishName: 'fresh', projectName: 'Fresh', bgId: '7', creator: 'alice' });
      expect(JSON.parse(emu().requests({ method: 'POST' })[0]?.body ?? '')).toEqual({
        englishName: 'fresh',
        projectName: 'Fresh',
        description: '',
        bgId: 7,
      });
      expect(
        emu()
          .requests()
          .map((q) => q.method),
      ).toEqual(['GET', 'POST', 'GET']);
    });

    it('create-project with if-exists: fail, skip, update', async () => {
      const project = '{"englishName":"demo","projectName":"Demo","description":"wanted"}';
      failedWith(await step({ operation: 'create-project', project }), /already exists; set if-exists to skip/);
      const skipped = await step({ operation: 'create-project', project, 'if-exists': 'skip' });
      expect(JSON.parse(skipped.outputs.data ?? '')).toMatchObject({ description: 'seeded' });
      const updated = await step({ operation: 'create-project', project, 'if-exists': 'update' });
      expect(JSON.parse(updated.outputs.data ?? '')).toMatchObject({ description: 'wanted', bgId: '12' });
      expect(emu().requests({ method: 'POST' })).toHaveLength(0);
    });

    it('create-project reports the server refusing a bad project', async () => {
      failedWith(
        await step({ operation: 'create-project', project: '{"englishName":"xy","projectName":"Demo"}' }),
        /answered HTTP 409 with|项目名或英文名重复|HTTP 4\d\d/,
      );
    });

    it('update-project changes what is given and keeps the rest', async () => {
      const r = await step({ operation: 'update-project', 'project-id': 'demo', project: 'description: new words\ncenterId: 99' });
      expect(JSON.parse(r.outputs.data ?? '')).toMatchObject({
        englishName: 'demo',
        description: 'new words',
        bgId: '12',
        bgName: 'BG',
        deptId: '34',
        deptName: 'Dept',
        centerId: '99',
        centerName: 'Center',
      });
      expect(JSON.parse(emu().requests({ method: 'PUT' })[0]?.body ?? '')).toMatchObject({
        englishName: 'demo',
        bgId: 12,
        deptId: 34,
        centerId: 99,
      });
      expect(
        emu()
          .requests()
          .map((q) => q.method),
      ).toEqual(['GET', 'PUT', 'GET']);
      expect(r.summary).toMatch(/\| centerId \| 56 \| 99 \|/);
    });

    it('update-project on a missing project fails without a PUT', async () => {
      failedWith(await step({ operation: 'update-project', 'project-id': 'ghost', project: 'description: x' }), /not found/);
      expect(emu().requests({ method: 'PUT' })).toHaveLength(0);
    });
  });

  describe('create-callbacks', () => {
    const cb = {
      operation: 'create-callbacks',
      'project-id': 'demo',
      'callback-url': 'https://hooks.example.com/x',
      region: 'OSS',
      events: 'BUILD_END',
    };
    it('registers and reports the events', async () => {
      const r = await step(cb);
      expect(r.outputs).toMatchObject({ 'success-events': '["BUILD_END"]', 'failure-events': '{}' });
      expect(emu().callbacks).toHaveLength(1);
    });

    it('fails when any event failed, naming each with its reason, outputs kept', async () => {
      const r = await step({ ...cb, 'callback-url': `https://hooks.example.com/${'x'.repeat(250)}`, events: 'BUILD_START,BUILD_END' });
      failedWith(r, /2 of 2 callbacks failed: BUILD_START \(.*too long.*\); BUILD_END \(/);
      expect(JSON.parse(r.outputs['failure-events'] ?? '')).toHaveProperty('BUILD_END');
    });
  });

  describe('failures become readable messages', () => {
    it('HTTP 200 with a non-zero wrapper status', async () => {
      emu().faults.add({ fault: { kind: 'wrapper-status', status: 2119999, message: 'something broke' } });
      const r = await step({ operation: 'get-project', 'project-id': 'demo' });
      failedWith(
        r,
        new RegExp(`GET ${emu().url}${OPENAPI_PREFIX}projects/demo answered HTTP 200 with error status 2119999: something broke$`),
      );
      expect(r.outputs['http-status']).toBe('200');
    });

    it('an HTML error page, as a short excerpt with the redacted URL', async () => {
      emu().faults.add({ fault: { kind: 'status', status: 503, contentType: 'html' } });
      const r = await step({ operation: 'get-project', 'project-id': 'demo' });
      failedWith(
        r,
        new RegExp(
          `GET ${emu().url}${OPENAPI_PREFIX}projects/demo\\?access_token=\\*\\*\\* answered HTTP 503: 503 Error 503 Error openresty$`,
        ),
      );
      expect(r.outputs['http-status']).toBe('503');
    });

    it('truncated JSON', async () => {
      emu().faults.add({ fault: { kind: 'truncate' } });
      failedWith(await step({ operation: 'get-project', 'project-id': 'demo' }), /failed: |unexpected body/);
    });

    it('a wrong token', async () => {
      failedWith(
        await step({ operation: 'get-project', 'project-id': 'demo', 'access-token': 'bm9wZQ%3D%3D' }),
        /rejected the access token as illegal.*exactly as the token endpoint issued it/,
      );
    });

    it('an expired access-token: the instant in UTC, how long ago by the step clock, what to do', async () => {
      const { token } = emu().addUser('alice', -90_000);
      const r = await step({ operation: 'get-project', 'project-id': 'demo', 'access-token': token.accessToken });
      failedWith(r, /the access-token expired at 2026-05-31 23:58:30 UTC, 1m30s ago .*give bk-token instead/);
    });

    it('one issued token serves every call of a step', async () => {
      const r = await step({ operation: 'list-projects' }, { bk: true });
      expect(r.code).toBe(0);
      expect(emu().requests({ path: TOKEN_PATH })).toHaveLength(1);
    });
  });

  describe('sign-detail on the shared clock', () => {
    const sign = (inputs: Record<string, string>) => step({ operation: 'sign-detail', 'poll-interval': '1s', ...inputs }, { bk: true });

    it('waits for SUCCESS, polls on the schedule, and reads the download URL', async () => {
      emu().seedSign({ resignId: 's-ok', runningMs: 1500 });
      const r = await sign({ 'resign-id': 's-ok', 'download-url': 'true' });
      expect(r.outputs).toMatchObject({ 'sign-status': 'SUCCESS', 'sign-message': 'Sign finished.', polls: '3', elapsed: '2' });
      expect(r.outputs['download-url']).toContain('/artifactory/');
      expect(w.clock.sleeps).toEqual([1000, 1000]);
      expect(r.summary).toMatch(/\| 2s \| 2026-06-01 00:00:02 UTC \| SUCCESS \|/);
    });

    it('fails on FAIL with the server message', async () => {
      emu().seedSign({ resignId: 's-bad', runningMs: 500, result: 'FAIL', failMessage: 'Sign service queue tasks exceed the limit: 15' });
      failedWith(await sign({ 'resign-id': 's-bad' }), /re-sign task s-bad failed: Sign service queue tasks exceed the limit: 15$/);
    });

    it('times out on a task that never ends (bk-ci: an unknown id), the last poll at the deadline', async () => {
      emu().seedSign({ resignId: 's-slow', runningMs: 60 * 60_000 });
      const r = await sign({ 'resign-id': 's-slow', timeout: '2500ms' });
      failedWith(r, /still RUNNING on the server after 2\.5s \(4 polls, timeout 2\.5s\)/);
      expect(w.clock.sleeps).toEqual([1000, 1000, 500]);
    });

    it('a heartbeat at most every 30 s', async () => {
      emu().seedSign({ resignId: 's-long', runningMs: 95_000 });
      const r = await sign({ 'resign-id': 's-long', 'poll-interval': '5s' });
      expect(r.code).toBe(0);
      expect(r.stdout.match(/^still RUNNING after .*$/gm)).toEqual([
        'still RUNNING after 30s, 7 polls',
        'still RUNNING after 1m, 13 polls',
        'still RUNNING after 1m30s, 19 polls',
      ]);
    });

    it('renews a token that runs low mid-wait, before bk-ci refuses it', async () => {
      emu().seedSign({ resignId: 's-token', runningMs: 4.5 * 3_600_000 });
      const r = await sign({ 'resign-id': 's-token', 'poll-interval': '10m', timeout: '5h' });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^renewed the access token; the new one expires at 2026-06-01 08:00:00 UTC$/m);
      expect(emu().requests({ path: TOKEN_PATH })).toHaveLength(2);
    });
  });
});

describe('request: any OpenAPI call', () => {
  const { w, emu, step } = useStepWorld('bkci');
  const request = (inputs: Record<string, string>) => step({ operation: 'request', ...inputs });

  it('GETs a path with the same token, headers and outputs as every operation', async () => {
    const r = await request({ path: 'v3/projects/demo' });
    expect(r.errors).toEqual([]);
    expect(JSON.parse(r.outputs.data ?? '')).toMatchObject({ englishName: 'demo', bgId: '12' });
    expect(r.outputs).toMatchObject({ 'http-status': '200', 'user-id': 'alice' });
    const [q] = emu().requests();
    expect(q?.path).toBe(`${OPENAPI_PREFIX}projects/demo`);
    expect(q?.query).toBe(`access_token=${w.accessToken}`);
    expect(q?.headers).toMatchObject({ 'x-devops-uid': 'alice', accept: 'application/json' });
    expect(r.summary).toMatch(/\| Request \| GET v3\/projects\/demo \|/);
  });

  it('sends query values as given, a list repeating the parameter, and a POST body ({} when empty)', async () => {
    const r = await request({
      method: 'POST',
      path: 'v3/projects/demo/callbacks/batch',
      query: 'url: https://h.example/cb\nregion: OSS\nevent: [BUILD_START, BUILD_END]',
    });
    expect(r.errors).toEqual([]);
    const [q] = emu().requests({ method: 'POST' });
    expect(q?.query).toBe(`access_token=${w.accessToken}&url=https%3A%2F%2Fh.example%2Fcb&region=OSS&event=BUILD_START&event=BUILD_END`);
    expect(q?.body).toBe('{}');
  });

  it('sends a YAML body as JSON, whole numbers beyond 2^53 to the digit', async () => {
    const r = await request({
      method: 'PUT',
      path: 'v3/projects/demo',
      body: 'englishName: demo\nprojectName: Demo\ndescription: via request\ndeptId: 9007199254740993',
    });
    expect(r.errors).toEqual([]);
    expect(emu().requests({ method: 'PUT' })[0]?.body).toBe(
      '{"englishName":"demo","projectName":"Demo","description":"via request","deptId":9007199254740993}',
    );
    expect(emu().projects.get('demo')?.deptId).toBe(9007199254740993n);
  });

  it('keeps each segment one segment', async () => {
    emu().seedProject({ englishName: 'a%2Fb', projectName: 'Odd', creator: 'alice' });
    const r = await request({ path: 'v3/projects/a%2Fb' });
    expect(r.errors).toEqual([]);
    expect(emu().requests()[0]?.path).toBe(`${OPENAPI_PREFIX}projects/a%252Fb`);
  });

  it.each([
    ['../x', /must start with the API version|"\.\." segments/],
    ['v3/projects/../tokens', /cannot hold "\." or "\.\." segments/],
    ['v3/projects?x=1', /cannot hold "\?" or "#": give query parameters in query/],
    ['v3/projects#x', /cannot hold "\?" or "#"/],
    ['https://evil.example/v3/projects', /must be a path after the API type, not a URL/],
    ['//evil.example/v3', /not a URL/],
    ['v3//projects', /cannot have an empty segment/],
    ['v3/projects/', /cannot have an empty segment/],
    ['projects/demo', /must start with the API version, e.g\. v4\/projects\/demo\/build_histories/],
    ['v3/pro\u0000jects', /control characters/],
  ])('refuses the path %j before sending anything', async (path, message) => {
    failedWith(await request({ path }), message);
    expect(emu().requests()).toHaveLength(0);
  });

  it.each([
    [{ method: 'PATCH', path: 'v3/projects' }, /method must be GET, POST, PUT, DELETE, not "PATCH"/],
    [{ path: '' }, /path is required for operation request/],
    [{ path: 'v3/projects', query: '[1, 2]' }, /query must be a JSON object or a YAML mapping/],
    [{ path: 'v3/projects', query: 'a: {b: 1}' }, /query\.a must be a text, a number, a boolean or a list of those/],
    [{ path: 'v3/projects', body: '{"a": ' }, /body is neither JSON nor YAML/],
  ])('refuses %j', async (inputs, message) => {
    failedWith(await request(inputs), message);
  });

  it('fails on a wrapper status that is not 0, with the status', async () => {
    emu().faults.add({ fault: { kind: 'wrapper-status', status: 2101038, message: '流水线不存在' } });
    const r = await request({ path: 'v4/projects/demo/build_histories', query: '{"pipelineId": "p-1"}' });
    failedWith(r, /answered HTTP 200 with error status 2101038: 流水线不存在$/);
    expect(r.outputs['http-status']).toBe('200');
  });

  it.each([
    ['DELETE', 3],
    ['PUT', 3],
    ['GET', 3],
    ['POST', 1],
  ])('%s on a 503: retried as its method allows (%i attempts)', async (method, attempts) => {
    emu().faults.add({ times: 5, fault: { kind: 'status', status: 503, contentType: 'text', body: 'busy' } });
    const r = await request({ method, path: 'v3/projects/demo', retries: '2' });
    failedWith(r, /answered HTTP 503: busy/);
    expect(emu().requests()).toHaveLength(attempts);
  });
});

describe.each<Flavour>(['spec', 'bkci'])('where the flavours differ: %s', (flavour) => {
  const { emu, step } = useStepWorld(flavour);

  it('a missing project fails the step: bk-ci answers 200 without data, the spec 404', async () => {
    const r = await step({ operation: 'get-project', 'project-id': 'ghost' });
    failedWith(r, /project "ghost" was not found/);
    expect(r.outputs['http-status']).toBe(flavour === 'bkci' ? '200' : '404');
  });

  it('a user outside the project may not list its callbacks, the first thing create-callbacks does', async () => {
    emu().seedProject({ englishName: 'bobs', projectName: 'Bob', creator: 'bob' });
    const r = await step({
      operation: 'create-callbacks',
      'project-id': 'bobs',
      'callback-url': 'https://h.example/x',
      region: 'OSS',
      events: 'BUILD_END',
    });
    failedWith(r, /listing the callbacks needs project membership, and the user is not a member of project bobs .*无（bobs）项目权限/);
    expect(r.outputs['http-status']).toBe(flavour === 'bkci' ? '400' : '403');
  });

  it.each(['wrapped', 'bare'] as const)('reads a %s token answer', async (form) => {
    const other = await worldForTest({ flavour, tokenResponse: form, realTime: true, users: ['bob'], project: false });
    const r = await runInProcess({ inputs: { operation: 'get-token', 'base-url': other.emu.url, 'bk-token': other.bkToken } });
    expect(r.outputs['user-id']).toBe('bob');
  });

  it('renews once when the server says the token expired', async () => {
    const clock = new FakeClock();
    let seen = 0;
    // From the third request on (the PUT), the server's clock runs 700 s ahead: the 600 s token has expired there.
    const { emu: skewed, bkToken: ticket } = await worldForTest({
      flavour,
      clock: () => clock,
      now: () => clock.now() + (seen >= 3 ? 700_000 : 0),
      tokenLifetimeMs: 600_000,
    });
    const counting = setInterval(() => (seen = skewed.log.length), 0);
    skewed.faults.add({ method: 'PUT', fault: { kind: 'delay', ms: 5 } });
    const r = await runInProcess({
      inputs: {
        operation: 'update-project',
        'base-url': skewed.url,
        'bk-token': ticket,
        'project-id': 'demo',
        project: 'description: x',
        retries: '0',
      },
      clock,
    });
    clearInterval(counting);
    expect(r.errors).toEqual([]);
    expect(r.stdout).toMatch(/^bk-ci says the access token expired; getting a new one$/m);
    expect(skewed.requests({ path: TOKEN_PATH })).toHaveLength(2);
    expect(JSON.parse(await readFile(r.outputs['data-file'] ?? '', 'utf8'))).toMatchObject({ description: 'x' });
  });
});
