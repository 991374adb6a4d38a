// The emulator as a product: its control API refuses what it cannot take, faults match exactly
// or by an explicit pattern, and `npm run emulator` behaves as a command-line tool should.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, OPENAPI_PREFIX, startEmulator } from '../../emulator/server.ts';
import { ROOT } from '../support/dist-runner.ts';
import { raw } from '../support/raw-http.ts';
import { worldForTest } from '../support/world.ts';

describe('the control API', () => {
  let emu: Emulator;
  beforeEach(async () => {
    emu = await startEmulator();
  });
  afterEach(() => emu.close());
  const control = (method: string, name: string, body?: unknown) =>
    raw(emu.url, method, `/__emulator/${name}`, body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) });

  it.each([
    ['users', { userId: 5 }, /userId: Invalid input: expected string/],
    ['users', { userId: 'bob', extra: 1 }, /Unrecognized key/],
    ['projects', { englishName: 'demo' }, /projectName: Invalid input/],
    ['projects', { englishName: 'demo', projectName: 'D', bgId: 'twelve' }, /bgId/],
    ['signs', { resignId: 's-1', result: 'DONE' }, /result: Invalid option/],
    ['signs', { resignId: 's-1', runningMs: -1 }, /runningMs/],
    ['faults', { fault: { kind: 'explode' } }, /fault\.kind: Invalid discriminator value/],
    ['faults', { pattern: '(', fault: { kind: 'reset' } }, /pattern is not a valid regular expression/],
    ['faults', { path: '/a', pattern: 'b', fault: { kind: 'reset' } }, /give path or pattern, not both/],
    ['faults', { paht: '/a', fault: { kind: 'reset' } }, /Unrecognized key: "paht"/],
    ['deliver', { projectId: 'demo' }, /event: Invalid input/],
    ['pipelines', { projectId: 'demo', pipelineId: 'x-1' }, /pipelineId: Invalid string/],
    ['pipelines', { projectId: 'demo', pipelineId: 'p-1', phases: [{ status: 'RUNNING' }] }, /phases\.0\.ms/],
    ['projects', '{not json', /the body is not JSON/],
  ])('POST %s %j is a 400 that says what is wrong, and nothing is seeded', async (name, body, message) => {
    const before = { projects: emu.projects.size, faults: emu.faults.list().length };
    const res = await control('POST', name, body);
    expect(res.status).toBe(400);
    expect(String((res.json() as { message: string }).message)).toMatch(message);
    expect({ projects: emu.projects.size, faults: emu.faults.list().length }).toEqual(before);
  });

  it('an unknown endpoint is a 404 that lists the real ones', async () => {
    const res = await control('POST', 'fault', {});
    expect(res.status).toBe(404);
    expect(String((res.json() as { message: string }).message)).toMatch(
      /there are: POST users, POST projects, .*GET faults, DELETE faults/,
    );
  });

  it('every endpoint the 404 lists has its section in emulator/README.md, and the README names none it lacks', async () => {
    const listed = String(((await control('GET', 'nothing')).json() as { message: string }).message)
      .replace(/^.*there are: /, '')
      .split(', ');
    expect(listed.length).toBeGreaterThan(15);
    const readme = await readFile(join(ROOT, 'emulator/README.md'), 'utf8');
    const documented = new Set([...readme.matchAll(/`(GET|POST|DELETE) \/__emulator\/([a-z/-]+)`/g)].map((m) => `${m[1]} ${m[2]}`));
    expect([...documented].filter((name) => !name.includes('github/')).sort()).toEqual([...listed].sort());
  });

  it('seeds over HTTP: a user, a project with a Long id, a re-sign task', async () => {
    const user = (await control('POST', 'users', { userId: 'bob' })).json() as { bkToken: string };
    expect(user.bkToken).toMatch(/\w{8,}/);
    expect((await control('POST', 'projects', { englishName: 'big', projectName: 'Big', deptId: '9223372036854775807' })).status).toBe(200);
    expect(emu.projects.get('big')?.deptId).toBe(9223372036854775807n);
    expect((await control('POST', 'signs', { resignId: 's-9', runningMs: 0 })).status).toBe(200);
  });

  it('lists the armed faults and clears them', async () => {
    await control('POST', 'faults', { method: 'GET', pattern: '/projects/', times: 2, fault: { kind: 'status', status: 503 } });
    await control('POST', 'faults', { path: `${OPENAPI_PREFIX}projects/demo`, times: null, fault: { kind: 'reset' } });
    expect((await control('GET', 'faults')).json()).toEqual([
      { method: 'GET', pattern: '\\/projects\\/', left: 2, skip: 0, fault: { kind: 'status', status: 503 } },
      { path: `${OPENAPI_PREFIX}projects/demo`, left: null, skip: 0, fault: { kind: 'reset' } },
    ]);
    expect((await control('DELETE', 'faults')).status).toBe(200);
    expect((await control('GET', 'faults')).json()).toEqual([]);
  });
});

describe('builds over HTTP (v4)', () => {
  it('walks a build: QUEUE, RUNNING, a review pause, the end; stop; an unknown id', async () => {
    const { emu, clock, accessToken: token } = await worldForTest({ project: false });
    const v4 = (method: string, path: string, query: string, body?: string) =>
      raw(emu.url, method, `/ms/openapi/api/apigw/v4/projects/demo/${path}?access_token=${token}&${query}`, {
        headers: { 'x-devops-uid': 'alice', 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body }),
      });
    expect(
      (
        await raw(emu.url, 'POST', '/__emulator/pipelines', {
          body: JSON.stringify({
            projectId: 'demo',
            pipelineId: 'p-1',
            phases: [
              { status: 'QUEUE', ms: 1000 },
              { status: 'RUNNING', ms: 1000 },
              { status: 'STAGE_SUCCESS', ms: 1000, stage: 'Release' },
            ],
            required: ['V'],
          }),
        })
      ).status,
    ).toBe(200);
    expect((await v4('POST', 'build_start', 'pipelineId=p-1', '{}')).json()).toMatchObject({
      status: 2101254,
      message: '构建入参[V]必填，不能为空',
    });
    const started = (await v4('POST', 'build_start', 'pipelineId=p-1', '{"V":"1"}')).json() as { data: { id: string; num: number } };
    expect(started.data.num).toBe(1);
    const status = async () =>
      (
        (await v4('GET', 'build_status', `buildId=${started.data.id}`)).json() as {
          data: { status: string; endTime: number | null; currentQueuePosition: number };
        }
      ).data;
    expect(await status()).toMatchObject({ status: 'QUEUE', endTime: null, currentQueuePosition: 1 });
    clock.t += 1000;
    expect(await status()).toMatchObject({ status: 'RUNNING' });
    clock.t += 1000;
    expect(await status()).toMatchObject({ status: 'STAGE_SUCCESS', endTime: null });
    clock.t += 1000;
    expect(await status()).toMatchObject({ status: 'SUCCEED', endTime: clock.t });
    expect((await v4('POST', 'build_stop', `buildId=${started.data.id}`, '{}')).json()).toMatchObject({ status: 2101182 });
    const unknown = await v4('GET', 'build_status', 'buildId=b-nope');
    expect(unknown.status).toBe(400);
    expect(unknown.json()).toMatchObject({
      status: 400,
      message: '参数校验失败:{0} Invalid buildId, please check if projectId & buildId are related',
    });
  });
});

describe('callbacks over HTTP', () => {
  it('list (paged, no secret), disable through the control API, delivery only when enabled, delete', async () => {
    const { emu, accessToken: token } = await worldForTest({ realTime: true });
    const v3 = (method: string, path: string, query = '') =>
      raw(emu.url, method, `${OPENAPI_PREFIX}projects/demo/${path}?access_token=${token}${query}`, {
        headers: { 'x-devops-uid': 'alice' },
        ...(method === 'POST' ? { body: '{}' } : {}),
      });
    await v3('POST', 'callbacks/batch', '&url=https://h.example/cb&region=OSS&event=BUILD_START,BUILD_END&secretToken=s3cret');
    const page = (await v3('GET', 'callbacks', '&page=1&pageSize=1')).json() as {
      data: { count: number; records: Record<string, unknown>[] };
    };
    expect(page.data.count).toBe(2);
    expect(page.data.records).toHaveLength(1);
    expect(page.data.records[0]).toMatchObject({ callBackUrl: 'https://h.example/cb', secretToken: null, enable: true });
    const disabled = await raw(emu.url, 'POST', '/__emulator/callbacks/disable', {
      body: JSON.stringify({ projectId: 'demo', url: 'https://h.example/cb', event: 'BUILD_END' }),
    });
    expect(disabled.json()).toEqual({ disabled: ['BUILD_END'] });
    expect(await emu.deliver('demo', 'BUILD_END', {})).toEqual([]);
    const id = String(emu.callbacks.find((c) => c.event === 'BUILD_END')?.id);
    expect((await v3('DELETE', `callbacks/${id}`)).json()).toEqual({ status: 0, data: true });
    expect((await v3('DELETE', `callbacks/${id}`)).json()).toMatchObject({ status: 2101136 });
    expect(emu.callbacks.map((c) => c.event)).toEqual(['BUILD_START']);
  });
});

describe('fault matching: exact path, or an explicit pattern', () => {
  it.each([
    [{ path: '/ms/openapi/api/apigw/v3/projects/demo' }, '/ms/openapi/api/apigw/v3/projects/demo', true],
    [{ path: '/ms/openapi/api/apigw/v3/projects/demo' }, '/ms/openapi/api/apigw/v3/projects/demo2', false],
    [{ path: '/projects/demo' }, '/ms/openapi/api/apigw/v3/projects/demo', false],
    [{ pattern: /\/projects\/demo$/ }, '/ms/openapi/api/apigw/v3/projects/demo', true],
    [{ pattern: /\/projects\/demo$/ }, '/ms/openapi/api/apigw/v3/projects/demo/x', false],
    [{}, '/anything', true],
  ])('%j on %s: %s', async (rule, path, hit) => {
    const emu = await startEmulator();
    emu.faults.add({ ...rule, fault: { kind: 'reset' } });
    expect(emu.faults.take('GET', path) !== undefined).toBe(hit);
    await emu.close();
  });
});

// Each case is a process of its own on a port of its own: they run at the same time.
describe.concurrent('npm run emulator', () => {
  /**
   * Starts it as a person would, through npm, or (`node`) the command npm runs, with this Node: the
   * same program without npm's own start-up, for what npm plays no part in. Resolves with its URL
   * once it listens.
   */
  function start(args: string[], via: 'npm' | 'node' = 'node') {
    const child =
      via === 'npm'
        ? spawn('npm', ['run', '--silent', 'emulator', '--', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
        : spawn(process.execPath, ['emulator/cli.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    const url = new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      child.on('exit', () => reject(new Error(`exited: ${out}${err}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, url, exited, output: () => out + err };
  }

  const refused = async (url: string): Promise<boolean> => {
    for (let i = 0; i < 40; i++) {
      const ok = await fetch(`${url}/__emulator/faults`).then(
        () => true,
        () => false,
      );
      if (!ok) return true;
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  };

  it.for(['SIGTERM', 'SIGINT'] as const)(
    'ends with no server left listening when npm gets %s',
    { timeout: 20_000 },
    async (signal, { expect }) => {
      const e = start(['--port', '0', '--no-seed'], 'npm');
      const url = await e.url;
      expect((await fetch(`${url}/__emulator/faults`)).status).toBe(200);
      e.child.kill(signal);
      await e.exited;
      expect(await refused(url)).toBe(true);
    },
  );

  it('a busy port is one line naming the port and what to do, not a stack trace', async ({ expect }) => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const e = start(['--port', String(port)]);
      e.url.catch(() => undefined);
      expect(await e.exited).toBe(1);
      expect(e.output().trim()).toBe(
        `port ${port} on 127.0.0.1 is already in use (another emulator, or another server, listens there): stop it, or choose another port with --port N (--port 0 picks a free one)`,
      );
    } finally {
      holder.close();
    }
  }, 20_000);

  it('a mistyped flag prints the usage, not a stack trace, and exits 2', async ({ expect }) => {
    const e = start(['--prot', '8080']);
    e.url.catch(() => undefined);
    expect(await e.exited).toBe(2);
    expect(e.output()).toMatch(/Unknown option '--prot'/);
    expect(e.output()).toMatch(/usage: npm run emulator -- \[options\]/);
    expect(e.output()).not.toMatch(/\n\s+at /);
  }, 20_000);
});
