// The action against a hostile server and a careless user: data never lost, server text never
// obeyed, secrets never shown, the wire read as curl reads it, waits that survive. run() in this
// process, which prints and outputs through the same writer as dist/; the built action where only
// it can show (a newcomer's failures, an old Node); hostile-property sends it random answers.

import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStep, unescapeData, useInstalledAction } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { SkippingClock } from '../support/fake-clock.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { httpAnswer, rawServer } from '../support/raw-server.ts';
import { useWorld } from '../support/world.ts';

const installed = useInstalledAction({ beforeAll, afterAll });
afterAll(cleanupRuns);

/** What the runner would take for a command: `::` at a line's start (after white space), `##[` anywhere. */
function runnerCommands(stdout: string): string[] {
  return stdout.split(/\r?\n/).filter((line) => {
    if (/##\[/.test(line)) return true;
    const m = /^\s*::([^:\s]*)/.exec(line);
    return m !== null && !['add-mask', 'debug', 'warning', 'error'].includes(m[1]?.split(' ')[0] ?? '');
  });
}

/** Lines whose own text (after the command) could start another command once the runner unescapes it. */
function smuggled(stdout: string): string[] {
  return stdout
    .split(/\r?\n/)
    .filter((l) => /^::(debug|warning|error)::/.test(l))
    .map((l) => unescapeData(l.replace(/^::\w+::/, '')))
    .filter((text) => text.split(/\r?\n/).some((line, i) => i > 0 && /^\s*::/.test(line)));
}

describe('data is never lost', () => {
  const world = useWorld({ realTime: true, project: false });
  const step = (inputs: Record<string, string>, env: Record<string, string> = {}) =>
    runInProcess({ inputs: { 'base-url': world.emu.url, 'bk-token': world.bkToken, retries: '0', ...inputs }, processEnv: env });

  it('create-project with if-exists: update applies only the given fields: no default blanks the description', async () => {
    world.emu.seedProject({ englishName: 'demo', projectName: 'Demo', description: 'keep me', creator: 'alice', bgId: 12 });
    const r = await step({ operation: 'create-project', project: '{"englishName":"demo","projectName":"Demo 2"}', 'if-exists': 'update' });
    expect(r.code).toBe(0);
    expect(world.emu.projects.get('demo')).toMatchObject({ projectName: 'Demo 2', description: 'keep me', bgId: 12 });
    const put = JSON.parse(world.emu.requests({ method: 'PUT' })[0]?.body ?? '{}') as Record<string, unknown>;
    expect(put.description).toBe('keep me');
  });

  it('a real create still gets the default description bk-ci requires', async () => {
    const r = await step({ operation: 'create-project', project: 'englishName: fresh\nprojectName: Fresh' });
    expect(r.code).toBe(0);
    expect(JSON.parse(world.emu.requests({ method: 'POST' })[0]?.body ?? '{}')).toMatchObject({ englishName: 'fresh', description: '' });
  });

  it('update-project sends back ids beyond 2^53 to the digit, and bk-ci keeps them', async () => {
    world.emu.seedProject({
      englishName: 'demo',
      projectName: 'Demo',
      creator: 'alice',
      deptId: 9223372036854775807n,
      centerId: 9007199254740993n,
    });
    const r = await step({ operation: 'update-project', 'project-id': 'demo', project: 'description: new' });
    expect(r.errors).toEqual([]);
    const body = world.emu.requests({ method: 'PUT' })[0]?.body ?? '';
    expect(body).toContain('"deptId":9223372036854775807');
    expect(body).toContain('"centerId":9007199254740993');
    expect(world.emu.projects.get('demo')).toMatchObject({ deptId: 9223372036854775807n, centerId: 9007199254740993n, description: 'new' });
    expect(r.outputs.data).toContain('"deptId":"9223372036854775807"');
  });

  it.each([
    ['deptId', ' 56'],
    ['centerId', '+7'],
  ])('update-project stops before the PUT when %s is %j, naming the field', async (field, value) => {
    world.emu.seedProject({ englishName: 'demo', projectName: 'Demo', creator: 'alice' });
    const vo = { englishName: 'demo', projectName: 'Demo', description: 'd', bgId: '1', deptId: '2', centerId: '3', [field]: value };
    world.emu.faults.add({
      method: 'GET',
      pattern: /\/projects\/demo/,
      fault: { kind: 'status', status: 200, body: JSON.stringify({ code: 0, data: vo }) },
    });
    const r = await step({ operation: 'update-project', 'project-id': 'demo', project: 'description: new' });
    failedWith(
      r,
      new RegExp(`project "demo" was not updated: .*${field} is ${JSON.stringify(JSON.stringify(value)).slice(1, -1).replace('+', '\\+')}`),
    );
    expect(world.emu.requests({ method: 'PUT' })).toHaveLength(0);
  });

  it('a create that went through is not reported as a plain failure when the read-back fails', async () => {
    world.emu.faults.add({
      method: 'GET',
      pattern: /\/projects\/made/,
      skip: 1,
      times: Infinity,
      fault: { kind: 'status', status: 500, contentType: 'text', body: 'db down' },
    });
    const r = await step({ operation: 'create-project', project: '{"englishName":"made","projectName":"Made"}' });
    failedWith(r, /^bk-ci create-project failed: project made was created, but reading it back failed: GET .* answered HTTP 500: db down$/);
    expect(world.emu.projects.has('made')).toBe(true);
    expect(r.outputs['http-status']).toBe('500');
    expect(r.summary).toMatch(/project made was created, but reading it back failed/);
  });

  it('an update that went through says so when data-file cannot be written', async () => {
    world.emu.seedProject({ englishName: 'demo', projectName: 'Demo', creator: 'alice' });
    const r = await step(
      { operation: 'update-project', 'project-id': 'demo', project: 'description: new' },
      { RUNNER_TEMP: join(tmpdir(), 'no', 'such', 'dir') },
    );
    failedWith(r, /^bk-ci update-project failed: project demo was updated, but .*ENOENT/);
    expect(world.emu.projects.get('demo')?.description).toBe('new');
  });
});

describe('server text stays text', () => {
  const world = useWorld({ realTime: true, project: false });
  const step = (inputs: Record<string, string>) =>
    runInProcess({ inputs: { 'base-url': world.emu.url, 'bk-token': world.bkToken, retries: '0', ...inputs } });

  it('neither ::cmd:: nor ##[cmd] comes out of a project name, an error page or a heartbeat', async () => {
    world.emu.seedProject({
      englishName: 'demo',
      projectName: 'x ##[error]evil\n::warning::evil ##[set-output name=a]b',
      creator: 'alice',
    });
    const ok = await step({ operation: 'get-project', 'project-id': 'demo' });
    expect(ok.code).toBe(0);
    world.emu.faults.add({
      pattern: /\/projects\/ghost/,
      fault: { kind: 'status', status: 502, contentType: 'text', body: '##[error]bad\r\n::error::worse ##[add-mask]x' },
    });
    const bad = await step({ operation: 'get-project', 'project-id': 'ghost' });
    expect(bad.code).toBe(1);
    for (const r of [ok, bad]) {
      expect(runnerCommands(r.stdout)).toEqual([]);
      expect(smuggled(r.stdout)).toEqual([]);
    }
  });

  it.each([['javascript:alert(1)'], ['/relative/app.ipa'], ['https://ok.example/a\n::warning::x']])(
    'a download URL %j is refused, not set as an output',
    async (url) => {
      world.emu.seedSign({ resignId: 's-url', runningMs: 0 });
      world.emu.faults.add({
        pattern: /\/downloadUrl/,
        fault: { kind: 'status', status: 200, body: JSON.stringify({ status: 0, data: url }) },
      });
      const r = await step({ operation: 'sign-detail', 'resign-id': 's-url', 'download-url': 'true' });
      failedWith(r, /gave a download URL for re-sign task s-url that is not an absolute http\(s\) URL/);
      expect(r.outputs['download-url']).toBeUndefined();
      expect(r.outputs['sign-status']).toBe('SUCCESS');
      expect(runnerCommands(r.stdout)).toEqual([]);
    },
  );
});

describe('secrets never show, not even in part', () => {
  const world = useWorld({ realTime: true, project: false });
  const step = (inputs: Record<string, string>) =>
    runInProcess({
      inputs: { 'base-url': world.emu.url, 'access-token': world.accessToken, 'user-id': 'alice', retries: '0', ...inputs },
    });

  /** Every 8-character piece of the secret: none may show. */
  const pieces = (secret: string): string[] => Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(i, i + 8));

  it.each([0, 250, 290, 299, 400])('a server echoing the token after %i characters shows no part of it', async (pad) => {
    world.emu.faults.add({
      times: Infinity,
      fault: {
        kind: 'status',
        status: 400,
        contentType: 'text',
        body: `${'e'.repeat(pad)} GET /x?access_token=${world.accessToken}&b=${decodeURIComponent(world.accessToken)} tail`,
      },
    });
    const r = await step({ operation: 'get-project', 'project-id': 'demo' });
    expect(r.code).toBe(1);
    const shown = unescapeData(r.stdout.replace(/^::add-mask::.*$/gm, '')) + r.summary;
    for (const piece of [...pieces(world.accessToken), ...pieces(decodeURIComponent(world.accessToken))])
      expect(shown).not.toContain(piece);
  });

  it('a secret with " and \\ in it is scrubbed from data, data-file and the summary in its JSON-escaped form', async () => {
    const secret = 'cb"sec\\ret-42';
    world.emu.seedProject({ englishName: 'demo', projectName: 'Demo', creator: 'alice' });
    world.emu.faults.add({
      pattern: /\/callbacks\/batch/,
      fault: {
        kind: 'status',
        status: 200,
        body: JSON.stringify({ status: 0, data: { successEvents: [`name ${secret}`], failureEvents: {} } }),
      },
    });
    const r = await step({
      operation: 'create-callbacks',
      'project-id': 'demo',
      'callback-url': 'https://hooks.example.com/x',
      region: 'DEVNET',
      events: 'BUILD_END',
      'secret-token': secret,
    });
    expect(r.code).toBe(0);
    const file = await readFile(r.outputs['data-file'] ?? '', 'utf8');
    for (const text of [r.outputs.data ?? '', file, r.summary, unescapeData(r.stdout.replace(/^::add-mask::.*$/gm, ''))]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(JSON.stringify(secret).slice(1, -1));
    }
    expect(r.outputs.data).toContain('name ***');
  });

  it('a callback-url with credentials is refused, and not shown with them', async () => {
    const r = await step({
      operation: 'create-callbacks',
      'project-id': 'demo',
      'callback-url': 'https://bob:hunter2@hooks.example/cb',
      region: 'DEVNET',
      events: 'BUILD_END',
    });
    failedWith(r, /callback-url must not hold a user name or password.*https:\/\/\*\*\*@hooks\.example\/cb/);
    expect(r.stdout + r.summary).not.toContain('hunter2');
    expect(world.emu.requests()).toHaveLength(0);
  });
});

// In-process: the same transport and parsing as dist/, without a process start per case.
describe('the wire, read like curl reads it', () => {
  const project = JSON.stringify({ code: 0, data: { englishName: 'demo', projectName: 'Wire' } });
  const cases: [string, () => Buffer][] = [
    [
      'gzip with Content-Length',
      () => httpAnswer('200 OK', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, gzipSync(project)),
    ],
    ['deflate with Content-Length', () => httpAnswer('200 OK', { 'content-encoding': 'deflate' }, deflateSync(project))],
    ['br with Content-Length', () => httpAnswer('200 OK', { 'content-encoding': 'br' }, brotliCompressSync(project))],
    [
      'a UTF-8 byte order mark before the JSON',
      () => httpAnswer('200 OK', { 'content-type': 'application/json;charset=UTF-8' }, `\ufeff${project}`),
    ],
    [
      'an unasked-for 100 Continue first',
      () => Buffer.concat([Buffer.from('HTTP/1.1 100 Continue\r\n\r\n'), httpAnswer('200 OK', {}, project)]),
    ],
    [
      '103 Early Hints first',
      () => Buffer.concat([Buffer.from('HTTP/1.1 103 Early Hints\r\nlink: </x>; rel=preload\r\n\r\n'), httpAnswer('200 OK', {}, project)]),
    ],
  ];
  it.each(cases)('%s', async (_, answer) => {
    const server = await rawServer(answer);
    const r = await runInProcess({
      inputs: {
        operation: 'get-project',
        'base-url': server.url,
        'access-token': 'tok%2B1',
        'user-id': 'alice',
        'project-id': 'demo',
        retries: '0',
      },
    });
    await server.close();
    expect(r.errors).toEqual([]);
    expect(JSON.parse(r.outputs.data ?? '{}')).toEqual({ englishName: 'demo', projectName: 'Wire' });
  });

  it.each([
    ['Long.MAX_VALUE', '9223372036854775807', /expires at 9223372036854775807 \(not a valid time\)/],
    ['seconds instead of milliseconds', '4102444800', /^$/],
    ['an instant already past', '1000000000000', /which is not a time still to come/],
  ])('a token whose expirationTime is %s: no crash, the raw value shown, one token for the whole step', async (_, value, warning) => {
    // A bk-ci that issues such tokens; its project appears once it is created.
    let created = false;
    const server = await rawServer((req) => {
      if (req.target.startsWith('/ms/auth/'))
        return httpAnswer('200 OK', {}, `{"status":0,"data":{"userId":"alice","expirationTime":${value},"accessToken":"tok%2Bx"}}`);
      if (req.method === 'POST') created = true;
      const project = JSON.stringify({ code: 0, data: { englishName: 'made', projectName: 'M' } });
      return httpAnswer('200 OK', {}, req.method === 'POST' ? '{"code":0,"data":true}' : created ? project : '{"code":0}');
    });
    const r = await runInProcess({ inputs: { operation: 'get-token', 'base-url': server.url, 'bk-token': 'bk-1234' } });
    expect(r.code).toBe(0);
    expect(r.outputs['expiration-time']).toBe(value);
    expect(r.stdout).not.toMatch(/Invalid time value/);
    expect(
      r.stdout
        .split('\n')
        .filter((l) => l.startsWith('::warning::'))
        .join('\n'),
    ).toMatch(warning);
    // Three openapi calls, one token: no renewal on every request.
    const before = server.requests.length;
    const c = await runInProcess({
      inputs: {
        operation: 'create-project',
        'base-url': server.url,
        'bk-token': 'bk-1234',
        project: '{"englishName":"made","projectName":"M"}',
      },
    });
    await server.close();
    expect(c.errors, c.stdout).toEqual([]);
    expect(server.requests.slice(before).filter((q) => q.target.startsWith('/ms/auth/'))).toHaveLength(1);
  });

  it('an "expired in" instant beyond year 275760 is shown as it is, not a crash', async () => {
    const server = await rawServer(() =>
      httpAnswer(
        '400 Bad Request',
        { 'content-type': 'text/plain' },
        'Verification failed : Access token expired in: 99999999999999999999',
      ),
    );
    const r = await runInProcess({
      inputs: { operation: 'get-project', 'base-url': server.url, 'access-token': 'tok%2B1', 'user-id': 'alice', 'project-id': 'demo' },
    });
    await server.close();
    failedWith(r, /the access-token expired at 99999999999999999999 \(not a valid time\) \(HTTP 400: .*\)\. bk-ci tokens live/);
  });

  it.each([
    ['user-id', { 'user-id': '张三' }, /user-id holds "张" at position 1, which is not Latin-1/],
    ['user-id', { 'user-id': 'ali\nce' }, /user-id holds a control character/],
    ['app-code', { 'app-code': 'app\r\nX-Evil: 1' }, /app-code holds a control character/],
    ['bk-token', { 'bk-token': 'abc;def=1' }, /bk-token holds ";" at position 4, which would end the cookie/],
    ['access-token', { 'access-token': 'tok\u00e9\u4e2d' }, /access-token holds a character at position 5, which is not Latin-1/],
  ])('%s that cannot be a header value is refused before any request', async (_, inputs, message) => {
    const server = await rawServer(() => httpAnswer('500 No', {}, ''));
    const r = await runInProcess({
      inputs: {
        operation: 'get-project',
        'base-url': server.url,
        'project-id': 'demo',
        'user-id': 'alice',
        'access-token': 'tok%2B1',
        ...inputs,
      },
    });
    await server.close();
    failedWith(r, message);
    expect(r.errors[0]).toMatch(/No request was sent/);
    expect(server.requests).toHaveLength(0);
    expect(r.errors[0]).not.toContain('中');
  });

  it('HTTPS_PROXY without a scheme gets a message that names the variable', async () => {
    const r = await runInProcess({
      inputs: {
        operation: 'get-project',
        'base-url': 'https://devops.example.com',
        'project-id': 'demo',
        'user-id': 'alice',
        'access-token': 'tok%2B1',
      },
      env: { HTTPS_PROXY: 'proxy.corp:3128' },
    });
    failedWith(
      r,
      /the environment variable HTTPS_PROXY is "proxy\.corp:3128", which is not a proxy URL: write it with its scheme, e\.g\. http:\/\/proxy\.corp:3128/,
    );
  });
});

// In-process, on a clock that skips sleeps: the schedule is real, the waiting is not.
describe('waits survive what a wait meets; the deadline holds', () => {
  const clock = new SkippingClock();
  const world = useWorld({ now: () => clock.now(), onHold: () => clock.lapse(), project: false });
  const step = (inputs: Record<string, string>) =>
    runInProcess({ inputs: { 'base-url': world.emu.url, 'bk-token': world.bkToken, retries: '0', ...inputs }, clock });

  it('polls that fail with 503, a reset and a timeout cost a poll each, not the step', async () => {
    world.emu.seedSign({ resignId: 's-flaky', runningMs: 2500 });
    world.emu.faults.add(
      { pattern: /\/detail/, fault: { kind: 'status', status: 503, contentType: 'html' } },
      { pattern: /\/detail/, fault: { kind: 'reset' } },
      { pattern: /\/detail/, fault: { kind: 'hang' } },
    );
    const r = await step({
      operation: 'sign-detail',
      'resign-id': 's-flaky',
      'poll-interval': '1s',
      'request-timeout': '1s',
      timeout: '20s',
    });
    expect(r.errors).toEqual([]);
    expect(r.outputs['sign-status']).toBe('SUCCESS');
    expect(r.stdout).toMatch(/a poll failed \(GET .* answered HTTP 503.*\); waiting on/);
    expect(r.stdout).toMatch(/bk-ci answers again, after \d/);
  });

  it('a wait whose polls all fail ends at the deadline, saying what failed', async () => {
    world.emu.seedSign({ resignId: 's-down', runningMs: 0 });
    world.emu.faults.add({
      pattern: /\/detail/,
      times: Infinity,
      fault: { kind: 'status', status: 503, contentType: 'text', body: 'gateway down' },
    });
    const r = await step({ operation: 'sign-detail', 'resign-id': 's-down', 'poll-interval': '1s', timeout: '2s' });
    failedWith(
      r,
      /could not be read after 2(\.\d)?s \(\d+ polls, timeout 2s\)\. .*The polls of the last 2(\.\d)?s failed; the last one: GET .* answered HTTP 503: gateway down\./,
    );
    const reads = world.emu.requests({ path: '/detail' }).length;
    expect(reads).toBeGreaterThanOrEqual(3);
    expect(r.errors[0]).toContain(`(${reads} polls, timeout 2s)`);
  });

  it('no request starts after the deadline: a slow existence check leaves the POST unsent', async () => {
    world.emu.faults.add({ method: 'GET', pattern: /\/projects\/late/, fault: { kind: 'delay', ms: 1300 } });
    const r = await step({ operation: 'create-project', project: '{"englishName":"late","projectName":"Late"}', timeout: '1s' });
    failedWith(r, /the step's timeout passed before POST .*\/projects could be sent; it was not sent/);
    expect(world.emu.requests({ method: 'POST' })).toHaveLength(0);
    expect(world.emu.projects.has('late')).toBe(false);
  });

  it('a one-poll wait says "1 poll", and a sub-second elapsed is not 0', async () => {
    world.emu.seedSign({ resignId: 's-now', runningMs: 0 });
    const r = await step({ operation: 'sign-detail', 'resign-id': 's-now' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/SUCCESS after \S+, 1 poll$/m);
    expect(Number(r.outputs.elapsed)).toBeGreaterThan(0);
    expect(r.outputs.elapsed).toMatch(/^0\.\d{1,3}$/);
  });
});

describe('failures a newcomer meets', () => {
  it('an input error names the operation and writes the job summary', async () => {
    const r = await runStep(installed(), {
      inputs: { operation: 'get-project', 'base-url': 'https://devops.example.com', 'access-token': 'tok%2B1', 'user-id': 'alice' },
    });
    failedWith(r, /^bk-ci get-project failed: invalid input: project-id is required for operation get-project\nNo request was sent\.$/);
    expect(r.summary).toMatch(/❌ bk-ci get-project/);
    expect(r.summary).toMatch(/project-id is required/);
    expect(r.summary).toMatch(/devops\.example\.com/);
  });

  it('an unknown operation is named as "action"', async () => {
    const r = await runStep(installed(), { inputs: { operation: 'get-projects', 'base-url': 'https://devops.example.com' } });
    failedWith(r, /^bk-ci action failed: invalid input: operation "get-projects" is not one of/);
    expect(r.summary).toMatch(/❌ bk-ci action/);
  });

  it('a Node older than 24 says so in one line', async () => {
    const preload = join(tmpdir(), `old-node-${process.pid}.mjs`);
    await writeFile(
      preload,
      "Object.defineProperty(process.versions, 'node', { value: '20.11.1' });\nObject.defineProperty(process, 'version', { value: 'v20.11.1' });\n",
    );
    const r = await runStep(installed(), {
      inputs: { operation: 'get-project', 'base-url': 'https://devops.example.com', 'project-id': 'x' },
      env: { NODE_OPTIONS: `--import=${preload}` },
    });
    await rm(preload, { force: true });
    expect(r.code).toBe(1);
    expect(r.stdout.trim().split('\n')).toEqual([
      '::error::bk-ci action needs Node 24 or newer (runs.using: node24 in its action.yml), but this step runs on Node v20.11.1: update the runner, or run the action with Node 24.',
    ]);
  });
});
