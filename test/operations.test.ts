import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuthError, type IssuedTokens } from '../src/auth.ts';
import { systemClock } from '../src/clock.ts';
import { HttpError, ResponseFormatError, WrapperStatusError } from '../src/http/errors.ts';
import { createCallbacks } from '../src/operations/callbacks.ts';
import { getToken } from '../src/operations/get-token.ts';
import { createProject, getProject, listProjects, updateProject } from '../src/operations/projects.ts';
import { signDetail } from '../src/operations/sign-detail.ts';
import { OperationError } from '../src/outcome.ts';
import { type Emulator, OPENAPI_PREFIX, startEmulator, TOKEN_PATH } from './emulator/server.ts';
import type { Flavour } from './emulator/wire.ts';
import { type ClientSetup, makeClient, memoryLog } from './support/client.ts';

describe.each<Flavour>(['spec', 'bkci'])('operations against the %s flavour', (flavour) => {
  let emu: Emulator;
  let bkToken: string;
  let accessToken: string;
  const clients: { close: () => Promise<void> }[] = [];

  beforeEach(async () => {
    emu = await startEmulator({ flavour });
    ({
      bkToken,
      token: { accessToken },
    } = emu.addUser('alice'));
    emu.seedProject({
      englishName: 'demo',
      projectName: 'Demo',
      description: 'seeded',
      creator: 'alice',
      bgId: 12,
      bgName: 'BG',
      deptId: 34,
      deptName: 'Dept',
      centerId: 56,
      centerName: 'Center',
    });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await emu.close();
  });

  const client = (setup: Partial<ClientSetup> = {}) => {
    const c = makeClient({ baseUrl: emu.url, accessToken, userId: 'alice', ...setup });
    clients.push(c);
    return c;
  };

  describe('the wire', () => {
    it('sends the token verbatim, the headers, and {} on POST', async () => {
      const { api } = client();
      await createCallbacks(api, {
        projectId: 'demo',
        callbackUrl: 'https://hooks.example.com/a?b=c&d',
        region: 'DEVNET',
        events: ['BUILD_START', 'BUILD_END'],
        secretToken: 's e/c+r=t',
      });
      const [req] = emu.requests({ method: 'POST' });
      expect(req?.query.startsWith(`access_token=${accessToken}&`)).toBe(true);
      const q = new URLSearchParams(req?.query);
      expect(q.get('url')).toBe('https://hooks.example.com/a?b=c&d');
      expect(q.get('event')).toBe('BUILD_START,BUILD_END');
      expect(q.get('secretToken')).toBe('s e/c+r=t');
      expect(req?.body).toBe('{}');
      expect(req?.headers).toMatchObject({ accept: 'application/json', 'content-type': 'application/json', 'x-devops-uid': 'alice' });
    });

    it('encodes each path parameter as one segment', async () => {
      for (const id of ['a/b', 'a?b', 'a#b', 'a%2Fb', '../x'])
        emu.seedProject({ englishName: id, projectName: `P ${id}`, creator: 'alice' });
      const { api } = client();
      for (const id of ['a/b', 'a?b', 'a#b', 'a%2Fb', '../x']) {
        const outcome = await getProject(api, id);
        expect((outcome.data as { projectName: string }).projectName).toBe(`P ${id}`);
      }
      const paths = emu.requests().map((r) => r.path.slice(OPENAPI_PREFIX.length));
      expect(paths).toEqual([
        'projects/a%2Fb',
        'projects/a%3Fb',
        'projects/a%23b',
        'projects/a%252Fb',
        'projects%2F..%2Fx'.replace('projects%2F', 'projects/'),
      ]);
    });

    it('keeps a base-url path prefix', async () => {
      const { api } = client({ baseUrl: `${emu.url}/gateway` });
      await expect(getProject(api, 'demo')).rejects.toThrow(/not found/);
      expect(emu.requests()[0]?.path).toBe(`/gateway${OPENAPI_PREFIX}projects/demo`);
    });
  });

  describe('get-token', () => {
    it('gets a token with bk-token, masks it, and keeps it out of data', async () => {
      const { tokens, masked } = client({ accessToken: undefined, bkToken, userId: undefined });
      const outcome = await getToken(tokens as IssuedTokens, Date.now());
      expect(outcome.outputs['access-token']).toMatch(/%2B|%2F|%3D/);
      expect(masked).toContain(outcome.outputs['access-token']);
      expect(outcome.outputs['user-id']).toBe('alice');
      expect(outcome.outputs['expiration-time']).toMatch(/^\d{13}$/);
      expect(JSON.stringify(outcome.data)).not.toContain(outcome.outputs['access-token']);
      expect(emu.requests({ path: TOKEN_PATH })[0]?.headers.cookie).toBe(`bk_token=${bkToken}`);
    });

    it.each(['wrapped', 'bare'] as const)('reads a %s token answer', async (form) => {
      const other = await startEmulator({ flavour, tokenResponse: form });
      const { tokens } = client({ baseUrl: other.url, accessToken: undefined, bkToken: other.addUser('bob').bkToken, userId: undefined });
      expect((await getToken(tokens as IssuedTokens, Date.now())).outputs['user-id']).toBe('bob');
      await other.close();
    });

    it('says what to do when bk-token is refused, or missing', async () => {
      const refused = client({ accessToken: undefined, bkToken: 'stale-ticket', userId: undefined });
      await expect(refused.tokens.current()).rejects.toThrow(/refused bk-token \(HTTP 401: 用户权限验证失败。\).*Log in again/);
      const none = client({ accessToken: undefined, bkToken: undefined, userId: undefined });
      await expect(none.tokens.current()).rejects.toThrow(/without a login ticket.*Set access-token \(with user-id\) or bk-token/);
    });
  });

  describe('projects', () => {
    it('get-project returns the project', async () => {
      const outcome = await getProject(client().api, 'demo');
      expect(outcome.data).toMatchObject({ englishName: 'demo', projectName: 'Demo', bgId: '12' });
    });

    it('get-project fails on a missing project in either dialect', async () => {
      await expect(getProject(client().api, 'ghost')).rejects.toThrow(/project "ghost" was not found/);
    });

    it('list-projects counts', async () => {
      emu.seedProject({ englishName: 'other', projectName: 'Other', creator: 'alice' });
      emu.seedProject({ englishName: 'hidden-from-alice', projectName: 'Not hers', creator: 'bob' });
      const outcome = await listProjects(client().api);
      expect(outcome.outputs.count).toBe('2');
      expect((outcome.data as unknown[]).length).toBe(2);
    });

    it('create-project creates with description "" and reads it back', async () => {
      const outcome = await createProject(client().api, { englishName: 'fresh', projectName: 'Fresh', description: '', bgId: 7 }, 'fail');
      expect(outcome.data).toMatchObject({ englishName: 'fresh', projectName: 'Fresh', bgId: '7', creator: 'alice' });
      expect(JSON.parse(emu.requests({ method: 'POST' })[0]?.body ?? '')).toEqual({
        englishName: 'fresh',
        projectName: 'Fresh',
        description: '',
        bgId: 7,
      });
      expect(emu.requests().map((r) => r.method)).toEqual(['GET', 'POST', 'GET']);
    });

    it('create-project with if-exists: fail, skip, update', async () => {
      const want = { englishName: 'demo', projectName: 'Demo', description: 'wanted' };
      await expect(createProject(client().api, want, 'fail')).rejects.toThrow(/already exists; set if-exists to skip/);
      const skipped = await createProject(client().api, want, 'skip');
      expect(skipped.data).toMatchObject({ description: 'seeded' });
      const updated = await createProject(client().api, want, 'update');
      expect(updated.data).toMatchObject({ description: 'wanted', bgId: '12' });
      expect(emu.requests({ method: 'POST' })).toHaveLength(0);
    });

    it('create-project reports the server refusing a bad project', async () => {
      await expect(createProject(client().api, { englishName: 'x', projectName: 'X', description: '' }, 'fail')).rejects.toThrow(HttpError);
    });

    it('update-project changes what is given and keeps the rest', async () => {
      const outcome = await updateProject(client().api, 'demo', { description: 'new words', centerId: 99 });
      expect(outcome.data).toMatchObject({
        englishName: 'demo',
        description: 'new words',
        bgId: '12',
        bgName: 'BG',
        deptId: '34',
        deptName: 'Dept',
        centerId: '99',
        centerName: 'Center',
      });
      const put = JSON.parse(emu.requests({ method: 'PUT' })[0]?.body ?? '') as Record<string, unknown>;
      expect(put).toMatchObject({ englishName: 'demo', bgId: 12, deptId: 34, centerId: 99 });
      expect(emu.requests().map((r) => r.method)).toEqual(['GET', 'PUT', 'GET']);
    });

    it('update-project on a missing project fails without a PUT', async () => {
      await expect(updateProject(client().api, 'ghost', { description: 'x' })).rejects.toThrow(/not found/);
      expect(emu.requests({ method: 'PUT' })).toHaveLength(0);
    });
  });

  describe('create-callbacks', () => {
    it('registers and reports the events', async () => {
      const outcome = await createCallbacks(client().api, {
        projectId: 'demo',
        callbackUrl: 'https://hooks.example.com/x',
        region: 'OSS',
        events: ['BUILD_END'],
      });
      expect(outcome.outputs).toEqual({ 'success-events': '["BUILD_END"]', 'failure-events': '{}' });
      expect(emu.callbacks).toHaveLength(1);
    });

    it('fails when any event failed, naming each with its reason, outputs kept', async () => {
      const url = `https://hooks.example.com/${'x'.repeat(250)}`;
      const error = await createCallbacks(client().api, {
        projectId: 'demo',
        callbackUrl: url,
        region: 'OSS',
        events: ['BUILD_START', 'BUILD_END'],
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OperationError);
      expect((error as OperationError).message).toMatch(/^2 of 2 callbacks failed: BUILD_START \(.*too long.*\); BUILD_END \(/);
      expect(JSON.parse((error as OperationError).outcome.outputs['failure-events'] ?? '')).toHaveProperty('BUILD_END');
    });

    it('reports a refusal for a user who does not manage the project', async () => {
      emu.seedProject({ englishName: 'bobs', projectName: 'Bob', creator: 'bob' });
      const error = await createCallbacks(client().api, {
        projectId: 'bobs',
        callbackUrl: 'https://h.example/x',
        region: 'OSS',
        events: ['BUILD_END'],
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(flavour === 'bkci' ? 400 : 403);
      expect((error as HttpError).serverMessage).toContain('非项目bobs管理员');
    });
  });

  describe('failures become typed errors with readable text', () => {
    it('HTTP 200 with a non-zero wrapper status', async () => {
      emu.faults.add({ fault: { kind: 'wrapper-status', status: 2119999, message: 'something broke' } });
      const error = await getProject(client().api, 'demo').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WrapperStatusError);
      expect((error as WrapperStatusError).message).toBe(
        `GET ${emu.url}${OPENAPI_PREFIX}projects/demo answered HTTP 200 with error status 2119999: something broke`,
      );
    });

    it('an HTML error page, as a short excerpt with the redacted URL', async () => {
      emu.faults.add({ times: 4, fault: { kind: 'status', status: 503, contentType: 'html' } });
      const error = await getProject(client({ retries: 0 }).api, 'demo').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).message).toBe(
        `GET ${emu.url}${OPENAPI_PREFIX}projects/demo?access_token=*** answered HTTP 503: 503 Error 503 Error openresty`,
      );
      expect((error as Error).message).not.toContain(accessToken);
    });

    it('truncated JSON', async () => {
      emu.faults.add({ fault: { kind: 'truncate' } });
      await expect(getProject(client().api, 'demo')).rejects.toThrow(ResponseFormatError);
    });

    it('a wrong token', async () => {
      const error = await getProject(client({ accessToken: 'bm9wZQ%3D%3D' }).api, 'demo').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthError);
      expect((error as Error).message).toMatch(/rejected the access token as illegal.*exactly as the token endpoint issued it/);
    });

    it('an expired access-token, with the instant in UTC and what to do', async () => {
      const { token } = emu.addUser('alice', -60_000);
      const error = await getProject(client({ accessToken: token.accessToken }).api, 'demo').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthError);
      const utc = new Date(token.expirationTime)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC');
      expect((error as Error).message).toContain(`the access-token expired at ${utc}, 1m ago`);
      expect((error as Error).message).toMatch(/give bk-token instead/);
    });

    it('renews an issued token once when the server says it expired', async () => {
      let serverSkew = 0;
      const skewed = await startEmulator({ flavour, now: () => Date.now() + serverSkew, tokenLifetimeMs: 60_000 });
      const ticket = skewed.addUser('alice').bkToken;
      skewed.seedProject({ englishName: 'demo', projectName: 'Demo', creator: 'alice' });
      const { api, tokens } = client({ baseUrl: skewed.url, accessToken: undefined, bkToken: ticket, renewMarginMs: 0 });
      await getProject(api, 'demo');
      serverSkew = 120_000; // the server's clock runs ahead: the client's token is expired there
      await getProject(api, 'demo');
      expect((tokens as IssuedTokens).renewals).toBe(1);
      expect(skewed.requests({ path: TOKEN_PATH })).toHaveLength(2);
      expect(skewed.requests({ path: OPENAPI_PREFIX }).map((r) => r.path)).toHaveLength(3);
      await skewed.close();
    });
  });

  describe('sign-detail over loopback, 1 s polls', () => {
    const wait = (id: string, timeoutMs: number, setup: Partial<ClientSetup> = {}, downloadUrl = false) => {
      const { api } = client(setup);
      const log = memoryLog();
      return {
        log,
        done: signDetail(
          api,
          { resignId: id, wait: true, downloadUrl, timeoutMs, intervalMs: 1000, start: Date.now() },
          { clock: systemClock, log, signal: new AbortController().signal },
        ),
      };
    };

    it('waits for SUCCESS and reads the download URL', async () => {
      emu.seedSign({ resignId: 's-ok', runningMs: 1500 });
      const outcome = await wait('s-ok', 10_000, {}, true).done;
      expect(outcome.outputs).toMatchObject({ 'sign-status': 'SUCCESS', 'sign-message': 'Sign finished.', polls: '3' });
      expect(outcome.outputs['download-url']).toContain('/artifactory/');
    });

    it('fails on FAIL', async () => {
      emu.seedSign({ resignId: 's-bad', runningMs: 500, result: 'FAIL', failMessage: 'Sign service queue tasks exceed the limit: 15' });
      await expect(wait('s-bad', 10_000).done).rejects.toThrow('re-sign task s-bad failed: Sign service queue tasks exceed the limit: 15');
    });

    it('times out on a task that never ends (bk-ci: an unknown id)', async () => {
      emu.seedSign({ resignId: 's-slow', runningMs: 60_000 });
      const started = Date.now();
      const error = await wait('s-slow', 2500).done.catch((e: unknown) => e);
      expect((error as Error).message).toMatch(/still RUNNING on the server after 2\.\ds \(4 polls, timeout 2\.5s\)/);
      expect(Date.now() - started).toBeLessThan(4000);
    });

    it('renews a token that expires mid-wait', async () => {
      let serverSkew = 0;
      const skewed = await startEmulator({ flavour, now: () => Date.now() + serverSkew, tokenLifetimeMs: 60_000 });
      const ticket = skewed.addUser('alice').bkToken;
      skewed.seedSign({ resignId: 's-long', runningMs: 2500 });
      const { api, tokens, log: clientLog } = client({ baseUrl: skewed.url, accessToken: undefined, bkToken: ticket, renewMarginMs: 0 });
      const log = memoryLog();
      setTimeout(() => (serverSkew = 120_000), 1200);
      const outcome = await signDetail(
        api,
        { resignId: 's-long', wait: true, downloadUrl: false, timeoutMs: 10_000, intervalMs: 1000, start: Date.now() },
        { clock: systemClock, log, signal: new AbortController().signal },
      );
      expect(outcome.outputs['sign-status']).toBe('SUCCESS');
      expect((tokens as IssuedTokens).renewals).toBeGreaterThanOrEqual(1);
      expect(clientLog.text()).toMatch(/access token expired; getting a new one/);
      await skewed.close();
    });
  });
});
