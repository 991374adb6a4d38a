import { beforeEach, describe, expect, it } from 'vitest';
import { OPENAPI_PREFIX, startEmulator, TOKEN_PATH } from '../../emulator/server.ts';
import type { Flavour } from '../../emulator/wire.ts';
import { raw } from '../support/raw-http.ts';
import { useWorld } from '../support/world.ts';

const P = OPENAPI_PREFIX;

describe.each<Flavour>(['spec', 'bkci'])('emulator, %s flavour', (flavour) => {
  const w = useWorld({ flavour, realTime: true, project: false });
  const bk = flavour === 'bkci';

  const call = (method: string, path: string, opts: { token?: string | null; uid?: string | null; body?: string; query?: string } = {}) => {
    const t = opts.token === undefined ? w.accessToken : opts.token;
    const query = [t === null ? '' : `access_token=${t}`, opts.query ?? ''].filter(Boolean).join('&');
    const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
    if (opts.uid !== null) headers['x-devops-uid'] = opts.uid ?? 'alice';
    return raw(w.emu.url, method, `${P}${path}${query ? `?${query}` : ''}`, {
      headers,
      ...(opts.body === undefined ? {} : { body: opts.body }),
    });
  };

  describe('token endpoint', () => {
    it('issues a percent-encoded token to a valid bk_token cookie', async () => {
      const res = await raw(w.emu.url, 'GET', TOKEN_PATH, { headers: { cookie: `bk_token=${w.bkToken}` } });
      expect(res.status).toBe(200);
      const body = res.json() as Record<string, unknown>;
      const info = (bk ? body.data : body) as { userId: string; accessToken: string; expirationTime: number };
      if (bk) expect(body.status).toBe(0);
      expect(info.userId).toBe('alice');
      expect(String(info.expirationTime)).toMatch(/^\d{13}$/);
      for (const encoded of ['%2B', '%2F', '%3D']) expect(info.accessToken).toContain(encoded);
    });

    it('answers the other form when asked', async () => {
      const other = await startEmulator({ flavour, tokenResponse: bk ? 'bare' : 'wrapped' });
      const t = other.addUser('bob').bkToken;
      const body = (await raw(other.url, 'GET', TOKEN_PATH, { headers: { cookie: `bk_token=${t}` } })).json() as Record<string, unknown>;
      expect('accessToken' in body).toBe(bk);
      expect('data' in body).toBe(!bk);
      await other.close();
    });

    it.each([
      ['no cookie', {}],
      ['an unknown ticket', { cookie: 'bk_token=nope' }],
    ])('is 401 JSON with %s', async (_, headers) => {
      const res = await raw(w.emu.url, 'GET', TOKEN_PATH, { headers });
      expect(res.status).toBe(401);
      expect(res.json()).toEqual({ status: 401, data: '', result: bk, message: '用户权限验证失败。' });
    });

    it('limits requests per user when asked, with an HTML 429', async () => {
      const limited = await startEmulator({ flavour, tokenRateLimit: 2 });
      const t = limited.addUser('carol').bkToken;
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await raw(limited.url, 'GET', TOKEN_PATH, { headers: { cookie: `bk_token=${t}` } })).status);
      expect(statuses).toEqual([200, 200, 429]);
      const page = await raw(limited.url, 'GET', TOKEN_PATH, { headers: { cookie: `bk_token=${t}` } });
      expect(page.headers['content-type']).toMatch(/text\/html/);
      await limited.close();
    });
  });

  describe('access token checks (spec section 5)', () => {
    const expectAuthFailure = (res: { status: number; body: string; json: () => unknown }, text: RegExp) => {
      if (bk) {
        expect(res.status).toBe(400);
        expect(() => res.json()).toThrow();
        expect(res.body).toMatch(text);
      } else {
        expect(res.status).toBe(401);
        expect(res.json()).toMatchObject({ status: 401, data: '', result: false });
        expect((res.json() as { message: string }).message).toMatch(text);
      }
    };

    it('rejects a missing token', async () =>
      expectAuthFailure(await call('GET', 'projects', { token: null }), /^Request accessToken is empty\.$/));
    it('rejects an empty token', async () =>
      expectAuthFailure(await call('GET', 'projects', { token: '' }), /^Request accessToken is empty\.$/));
    it('rejects an illegal token', async () =>
      expectAuthFailure(await call('GET', 'projects', { token: 'bm9wZQ%3D%3D' }), /Access token illegal/));
    it('rejects a token decoded by the client (+ becomes a space)', async () =>
      expectAuthFailure(await call('GET', 'projects', { token: decodeURIComponent(w.accessToken) }), /Access token illegal/));

    it('rejects an expired token, with the instant', async () => {
      const { token: old } = w.emu.addUser('dave', -5000);
      const res = await call('GET', 'projects', { token: old.accessToken, uid: 'dave' });
      expectAuthFailure(res, new RegExp(`Access token expired in: ${old.expirationTime}$`));
      if (bk) expect(res.body).toMatch(/^Verification failed : /);
    });

    it('accepts the token verbatim and double-encoded (bk-ci decodes twice on the way to auth)', async () => {
      expect((await call('GET', 'projects')).status).toBe(200);
      expect((await call('GET', 'projects', { token: encodeURIComponent(w.accessToken) })).status).toBe(200);
    });

    it('needs X-DEVOPS-UID', async () => {
      const res = await call('GET', 'projects', { uid: null });
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ status: 400 });
    });

    it('needs a body on POST and PUT', async () => {
      w.emu.seedProject({ englishName: 'p1', projectName: 'P1', creator: 'alice' });
      expect((await call('POST', 'projects')).status).toBe(400);
      expect((await call('PUT', 'projects/p1')).status).toBe(400);
      expect(
        (await call('POST', 'projects/p1/callbacks/batch', { query: 'url=https%3A%2F%2Fx.example&region=DEVNET&event=BUILD_END' })).status,
      ).toBe(400);
    });
  });

  describe('projects', () => {
    const create = (body: Record<string, unknown>) => call('POST', 'projects', { body: JSON.stringify(body) });
    const okStatus = (body: Record<string, unknown>) => (bk ? body.code : body.status);

    it("creates (data true), gets and lists, in the flavour's wrapper", async () => {
      const res = await create({ englishName: 'demo-1', projectName: 'Demo', description: 'd', bgId: 12 });
      expect(res.status).toBe(bk ? 200 : 201);
      const body = res.json() as Record<string, unknown>;
      expect(okStatus(body)).toBe(0);
      expect(body.data).toBe(true);
      if (bk) expect(body).toMatchObject({ result: true, request_id: expect.any(String) });

      const got = (await call('GET', 'projects/demo-1')).json() as { data: Record<string, unknown> };
      expect(got.data).toMatchObject({ englishName: 'demo-1', projectCode: 'demo-1', projectName: 'Demo', bgId: '12', creator: 'alice' });

      const list = (await call('GET', 'projects')).json() as { data: unknown[] };
      expect(Array.isArray(list.data)).toBe(true);
      expect(list.data).toHaveLength(1);
    });

    it('answers a missing project as the flavour does', async () => {
      const res = await call('GET', 'projects/nothing-here');
      if (bk) {
        expect(res.status).toBe(200);
        const body = res.json() as Record<string, unknown>;
        expect(body.code).toBe(0);
        expect('data' in body).toBe(false);
      } else {
        expect(res.status).toBe(404);
        expect(res.json()).toMatchObject({ status: 404 });
      }
    });

    it('refuses duplicates', async () => {
      await create({ englishName: 'dup', projectName: 'Dup', description: '' });
      const sameEnglish = await create({ englishName: 'dup', projectName: 'Other', description: '' });
      const sameName = await create({ englishName: 'dup-2', projectName: 'Dup', description: '' });
      if (bk) {
        expect([sameEnglish.status, sameName.status]).toEqual([400, 400]);
        expect(sameEnglish.json()).toMatchObject({ status: 2119007 });
        expect(sameName.json()).toMatchObject({ status: 2119002 });
      } else {
        expect([sameEnglish.status, sameName.status]).toEqual([409, 409]);
      }
    });

    it.each([
      ['a missing description', { englishName: 'ok-name', projectName: 'X' }],
      ['an English name with a capital first', { englishName: 'Bad', projectName: 'X', description: '' }],
      ['a one-letter English name', { englishName: 'a', projectName: 'X', description: '' }],
      ['a 33-character English name', { englishName: `a${'b'.repeat(32)}`, projectName: 'X', description: '' }],
      ['a string id', { englishName: 'ok-name', projectName: 'X', description: '', bgId: '12' }],
    ])('refuses %s with 400', async (_, body) => {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(w.emu.projects.has('ok-name')).toBe(false);
    });

    it('PUT resets organisation fields it is not given, and needs englishName = path id', async () => {
      w.emu.seedProject({
        englishName: 'org',
        projectName: 'Org',
        description: 'old',
        creator: 'alice',
        bgId: 5,
        bgName: 'BG',
        deptId: 7,
        deptName: 'Dept',
        centerId: 9,
        centerName: 'C',
      });
      const without = await call('PUT', 'projects/org', { body: JSON.stringify({ projectName: 'Org', description: 'new' }) });
      expect(without.status).toBe(bk ? 400 : 403);
      expect(w.emu.projects.get('org')?.description).toBe('old');

      const res = await call('PUT', 'projects/org', {
        body: JSON.stringify({ englishName: 'org', projectName: 'Org', description: 'new' }),
      });
      expect(res.status).toBe(200);
      const p = w.emu.projects.get('org');
      expect(p).toMatchObject({ description: 'new', bgId: 0, bgName: '', deptId: null, deptName: '', centerId: null, centerName: '' });
    });

    it('PUT on a missing project is 404', async () => {
      const res = await call('PUT', 'projects/ghost', {
        body: JSON.stringify({ englishName: 'ghost', projectName: 'G', description: '' }),
      });
      expect(res.status).toBe(404);
    });

    it('PUT by a user who is not a member is refused', async () => {
      w.emu.seedProject({ englishName: 'theirs', projectName: 'Theirs', creator: 'bob' });
      const res = await call('PUT', 'projects/theirs', {
        body: JSON.stringify({ englishName: 'theirs', projectName: 'T', description: '' }),
      });
      expect(res.status).toBe(bk ? 400 : 403);
    });
  });

  describe('callbacks', () => {
    beforeEach(() => {
      w.emu.seedProject({ englishName: 'cb', projectName: 'CB', creator: 'alice' });
    });
    const batch = (query: string, uid = 'alice') => call('POST', 'projects/cb/callbacks/batch', { body: '{}', query, uid });
    const url = encodeURIComponent('https://hooks.example.com/bkci');

    it('registers several events in one request, upserting on (project, url, event)', async () => {
      const res = await batch(`url=${url}&region=DEVNET&event=BUILD_START,BUILD_END&secretToken=s1`);
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ status: 0, data: { successEvents: ['BUILD_START', 'BUILD_END'], failureEvents: {} } });
      await batch(`url=${url}&region=DEVNET&event=BUILD_END&secretToken=s2`);
      expect(w.emu.callbacks).toHaveLength(2);
      expect(w.emu.callbacks.find((c) => c.event === 'BUILD_END')?.secretToken).toBe('s2');
    });

    it('fails the whole batch on one unknown event, saving nothing', async () => {
      const res = await batch(`url=${url}&region=DEVNET&event=BUILD_START,BUILD_FINISH`);
      expect(res.status).toBe(400);
      expect(w.emu.callbacks).toHaveLength(0);
    });

    it('refuses an unknown region and a missing url', async () => {
      expect((await batch(`url=${url}&region=MARS&event=BUILD_END`)).status).toBe(400);
      expect((await batch('region=DEVNET&event=BUILD_END')).status).toBe(400);
    });

    it('reports events it cannot save (URL over 255 characters) in failureEvents', async () => {
      const long = encodeURIComponent(`https://hooks.example.com/${'x'.repeat(250)}`);
      const res = await batch(`url=${long}&region=IDC&event=BUILD_END`);
      expect(res.status).toBe(200);
      expect((res.json() as { data: { failureEvents: Record<string, string> } }).data.failureEvents.BUILD_END).toMatch(/too long/);
    });

    it('needs a project manager', async () => {
      const res = await batch(`url=${url}&region=DEVNET&event=BUILD_END`, 'mallory');
      expect(res.status).toBe(bk ? 400 : 403);
      if (bk) expect(res.json()).toMatchObject({ status: 2101104 });
    });
  });

  describe('re-sign tasks', () => {
    it('follows the seeded schedule', async () => {
      let now = 1_000_000;
      const timed = await startEmulator({ flavour, now: () => now });
      const { token: t } = timed.addUser('alice');
      timed.seedSign({ resignId: 's-ok', runningMs: 3000 });
      timed.seedSign({ resignId: 's-bad', runningMs: 1000, result: 'FAIL', failMessage: '[errorCode=2122006]IPA包签名失败' });
      const detail = async (id: string) =>
        (
          (
            await raw(timed.url, 'GET', `${P}sign/ipa/${id}/detail?access_token=${t.accessToken}`, { headers: { 'x-devops-uid': 'alice' } })
          ).json() as { data: unknown }
        ).data;
      expect(await detail('s-ok')).toEqual({ resignId: 's-ok', status: 'RUNNING', message: 'Sign is running...' });
      now += 3000;
      expect(await detail('s-ok')).toEqual({ resignId: 's-ok', status: 'SUCCESS', message: 'Sign finished.' });
      expect(await detail('s-bad')).toEqual({ resignId: 's-bad', status: 'FAIL', message: '[errorCode=2122006]IPA包签名失败' });
      await timed.close();
    });

    it('answers an unknown id as the flavour does', async () => {
      const res = await call('GET', 'sign/ipa/s-unknown/detail');
      if (bk) expect(res.json()).toEqual({ status: 0, data: { resignId: 's-unknown', status: 'RUNNING', message: 'Sign is running...' } });
      else expect(res.status).toBe(404);
    });

    it('gives a download URL, with or without the trailing slash', async () => {
      w.emu.seedSign({ resignId: 's-dl', projectId: 'demo' });
      for (const path of ['sign/ipa/s-dl/downloadUrl', 'sign/ipa/s-dl/downloadUrl/']) {
        const body = (await call('GET', path)).json() as { data: string };
        expect(body.data).toMatch(/\/artifactory\/api\/service\/artifactories\/file\/download\/local\?filePath=bk-archive%2Fdemo%2F/);
      }
      expect((await call('GET', 'sign/ipa/s-none/downloadUrl')).status).toBe(bk ? 400 : 404);
    });
  });

  describe('routing and the request log', () => {
    it('answers an unknown route 404 and a wrong method 405', async () => {
      expect((await call('GET', 'nothing/here')).status).toBe(404);
      expect((await call('DELETE', 'projects')).status).toBe(405);
    });

    it('decodes each path segment once: an encoded slash stays inside the id', async () => {
      w.emu.seedProject({ englishName: 'a/b', projectName: 'Slash', creator: 'alice' });
      const res = await call('GET', `projects/${encodeURIComponent('a/b')}`);
      expect((res.json() as { data: { projectName: string } }).data.projectName).toBe('Slash');
    });

    it('logs method, raw path, raw query, headers and body', async () => {
      await call('POST', 'projects', { body: '{"englishName":"logged","projectName":"L","description":""}' });
      const [entry] = w.emu.requests({ method: 'POST' });
      expect(entry).toMatchObject({
        method: 'POST',
        path: `${P}projects`,
        query: `access_token=${w.accessToken}`,
        body: '{"englishName":"logged","projectName":"L","description":""}',
      });
      expect(entry?.headers['x-devops-uid']).toBe('alice');
    });
  });

  describe('fault injection', () => {
    it.each([
      [422, 'json'],
      [423, 'json'],
      [429, 'html'],
      [500, 'json'],
      [503, 'html'],
      [502, 'text'],
    ] as const)('answers %i with a %s body', async (status, contentType) => {
      w.emu.faults.add({ pattern: /\/projects/, fault: { kind: 'status', status, contentType, headers: { 'retry-after': '7' } } });
      const res = await call('GET', 'projects');
      expect(res.status).toBe(status);
      expect(res.headers['retry-after']).toBe('7');
      expect(res.headers['content-type']).toContain(
        contentType === 'json' ? 'application/json' : contentType === 'html' ? 'text/html' : 'text/plain',
      );
      expect((await call('GET', 'projects')).status).toBe(200);
    });

    it('applies a rule as many times as asked, to the method asked', async () => {
      w.emu.faults.add({ method: 'POST', times: 2, fault: { kind: 'status', status: 500 } });
      expect((await call('GET', 'projects')).status).toBe(200);
      const body = '{"englishName":"f1","projectName":"F","description":""}';
      expect((await call('POST', 'projects', { body })).status).toBe(500);
      expect((await call('POST', 'projects', { body })).status).toBe(500);
      expect((await call('POST', 'projects', { body })).status).toBe(bk ? 200 : 201);
    });

    it('answers 200 with a failing wrapper status', async () => {
      w.emu.faults.add({ fault: { kind: 'wrapper-status', status: 2119999, message: 'boom' } });
      const res = await call('GET', 'projects');
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ status: 2119999, message: 'boom' });
    });

    it('cuts JSON short', async () => {
      w.emu.faults.add({ fault: { kind: 'truncate' } });
      const res = await call('GET', 'sign/ipa/x/detail');
      expect(() => res.json()).toThrow();
    });

    it('resets the connection', async () => {
      w.emu.faults.add({ fault: { kind: 'reset' } });
      await expect(call('GET', 'projects')).rejects.toThrow(/socket hang up|ECONNRESET/);
    });

    it('hangs until the emulator closes', async () => {
      w.emu.faults.add({ fault: { kind: 'hang' } });
      const pending = call('GET', 'projects');
      const first = await Promise.race([
        pending.then(
          () => 'answered',
          () => 'failed',
        ),
        new Promise((r) => setTimeout(() => r('hanging'), 300)),
      ]);
      expect(first).toBe('hanging');
      await w.emu.close();
      await expect(pending).rejects.toThrow();
    });

    it('can be armed over HTTP, for workflows', async () => {
      const res = await raw(w.emu.url, 'POST', '/__emulator/faults', {
        body: JSON.stringify({ pattern: '/projects', fault: { kind: 'status', status: 503 } }),
      });
      expect(res.status).toBe(200);
      expect((await call('GET', 'projects')).status).toBe(503);
    });
  });
});
