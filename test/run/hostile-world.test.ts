// A hostile world: servers, inputs and runners that misbehave, each reached through the built
// action or run() in process against the emulator, by the way a user would meet it.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_PREFIX, TOKEN_PATH } from '../../emulator/server.ts';
import { runStep, useInstalledAction } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { SkippingClock } from '../support/fake-clock.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { useWorld, worldForTest } from '../support/world.ts';

const installed = useInstalledAction({ beforeAll, afterAll });
afterAll(cleanupRuns);

const w = useWorld({ realTime: true, project: false });

const NOWHERE = join(tmpdir(), 'bkci-no', 'such', 'dir');

describe('a local failure is told as local', () => {
  it('a data file that cannot be written while a list arrives is not a broken connection: the list is asked for once', async () => {
    for (let i = 0; i < 1200; i++) w.emu.seedProject({ englishName: `p-${i}`, projectName: `P ${i}`, creator: 'alice' });
    const r = await runStep(installed(), {
      inputs: { operation: 'list-projects', 'base-url': w.emu.url, 'bk-token': w.bkToken },
      env: { RUNNER_TEMP: NOWHERE },
    });
    failedWith(r, /^bk-ci list-projects failed: could not write the data file .* on the runner: ENOENT/);
    expect(r.stdout).not.toMatch(/retry \d of/);
    expect(w.emu.requests({ method: 'GET', path: `${OPENAPI_PREFIX}projects` })).toHaveLength(1);
  });

  it('callbacks registered, then GITHUB_OUTPUT cannot be written: the failure says the callbacks were registered', async () => {
    w.emu.seedProject({ englishName: 'demo', projectName: 'Demo', creator: 'alice' });
    const r = await runInProcess({
      inputs: {
        operation: 'create-callbacks',
        'base-url': w.emu.url,
        'bk-token': w.bkToken,
        'project-id': 'demo',
        'callback-url': 'https://hooks.example.com/bkci',
        events: 'BUILD_END',
        region: 'DEVNET',
      },
      processEnv: { GITHUB_OUTPUT: join(NOWHERE, 'output') },
    });
    failedWith(r, /^bk-ci create-callbacks failed: registered 1 of 1 callbacks for demo, but could not write GITHUB_OUTPUT on the runner/);
    expect(w.emu.callbacks).toHaveLength(1);
    expect(w.emu.requests({ method: 'POST' }).filter((q) => q.path.includes('callbacks'))).toHaveLength(1);
  });
});

describe('an input that cannot mean what was written is refused before any request', () => {
  const step = (inputs: Record<string, string>) => runInProcess({ inputs: { 'base-url': w.emu.url, 'bk-token': w.bkToken, ...inputs } });

  it.each([
    [
      'request with a body and the default method GET',
      { operation: 'request', path: 'v4/projects/demo', body: '{"projectName":"x"}' },
      /body is given but method is GET \(the default\)/,
    ],
    [
      'request with the token in query',
      { operation: 'request', path: 'v4/projects', query: 'access_token: other' },
      /query.access_token cannot be given/,
    ],
    [
      'a YAML tag the parser would drop with its value',
      { operation: 'request', method: 'POST', path: 'v4/x', body: 'a: !<x> 1' },
      /body is neither JSON nor YAML: Unresolved tag/,
    ],
  ])('%s', async (_, inputs, message) => {
    const r = await step(inputs);
    failedWith(r, message);
    expect(r.errors[0]).toMatch(/No request was sent\.$/);
    expect(w.emu.requests()).toEqual([]);
  });
});

describe('every loop that asks a server for more makes progress or stops', () => {
  it('a callbacks list that ignores page and sends no count is asked twice, paced, and nothing is deleted', async () => {
    const { emu: quirky, bkToken } = await worldForTest({ callbackPaging: 'ignores-page', realTime: true, users: ['bob'] });
    for (let i = 0; i < 150; i++)
      quirky.callbacks.push({
        id: i + 1,
        projectId: 'demo',
        url: `https://hooks.example.com/${i % 3}`,
        event: 'BUILD_END',
        region: 'DEVNET',
        secretToken: null,
        creator: 'bob',
        enable: i % 2 === 0,
        createdAt: i,
      });
    const clock = new SkippingClock();
    const r = await runInProcess({
      inputs: {
        operation: 'create-callbacks',
        'base-url': quirky.url,
        'bk-token': bkToken,
        'project-id': 'demo',
        'callback-url': 'https://hooks.example.com/1',
        region: 'DEVNET',
        events: 'BUILD_END',
      },
      clock,
    });
    failedWith(
      r,
      /the callbacks of project demo may be incomplete: page 2 brought nothing that earlier pages had not \(100 items seen before\), so the server ignores "page"; stopped after 2 requests; 100 read; nothing was deleted or registered/,
    );
    const lists = quirky.requests({ method: 'GET' }).filter((q) => q.path.endsWith('/callbacks'));
    expect(lists).toHaveLength(2);
    expect(clock.skipped).toBeGreaterThanOrEqual(200);
    expect(quirky.requests({ method: 'DELETE' })).toEqual([]);
    expect(quirky.callbacks).toHaveLength(150);
  });
});

describe('an answer is checked against the question', () => {
  const step = (inputs: Record<string, string>) => runInProcess({ inputs: { 'base-url': w.emu.url, 'bk-token': w.bkToken, ...inputs } });
  const answer = (pattern: RegExp, body: string, method = 'GET') =>
    w.emu.faults.add({ method: method as 'GET', pattern, times: Infinity, fault: { kind: 'status', status: 200, body } });

  it('a body that gives a key twice is refused, once, not read one way here and another there', async () => {
    answer(/\/projects\/demo$/, '{"code":0,"data":{"englishName":"demo","projectName":"Demo","projectName":"Evil"}}');
    const r = await step({ operation: 'get-project', 'project-id': 'demo' });
    failedWith(r, /gives the key "projectName" twice in one object; JSON readers differ on which one counts/);
    expect(w.emu.requests({ path: `${OPENAPI_PREFIX}projects/demo` })).toHaveLength(1);
  });

  it('a list item that gives a key twice is refused too', async () => {
    answer(
      /\/projects$/,
      '{"code":0,"data":[{"englishName":"a","projectName":"A"},{"englishName":"b","englishName":"c","projectName":"B"}]}',
    );
    const r = await step({ operation: 'list-projects' });
    failedWith(r, /gives the key "englishName" twice/);
  });

  it('an answer about another project is not merged and written back over this one', async () => {
    w.emu.seedProject({ englishName: 'demo', projectName: 'Demo', creator: 'alice' });
    answer(/\/projects\/demo$/, JSON.stringify({ code: 0, data: { englishName: 'other', projectName: 'Other', description: 'theirs' } }));
    const r = await step({ operation: 'update-project', 'project-id': 'demo', project: 'projectName: Demo 2' });
    failedWith(r, /bk-ci answered about project "other" when asked for project "demo": the answer is not used/);
    expect(w.emu.requests({ method: 'PUT' })).toEqual([]);
  });

  it('a user id from the token endpoint that a header cannot carry is refused at once, not retried as a network error', async () => {
    w.emu.faults.add({
      path: TOKEN_PATH,
      times: Infinity,
      fault: {
        kind: 'status',
        status: 200,
        body: JSON.stringify({ status: 0, data: { userId: 'alice\r\nX-Evil: 1', accessToken: 'tok-1234', expirationTime: 4102444800000 } }),
      },
    });
    const r = await step({ operation: 'get-project', 'project-id': 'demo' });
    failedWith(r, /userId holds a character an HTTP header cannot carry/);
    expect(w.emu.requests({ path: TOKEN_PATH })).toHaveLength(1);
    expect(w.emu.requests({ path: `${OPENAPI_PREFIX}projects/demo` })).toEqual([]);
  });

  it('an input body that gives a key twice is refused before any request', async () => {
    const r = await step({ operation: 'request', method: 'POST', path: 'v4/x', body: '{"a":1,"a":2}' });
    failedWith(r, /body .*gives the key "a" twice in one object/);
    expect(w.emu.requests()).toEqual([]);
  });
});

describe('half-done work is told truly', () => {
  const register = () =>
    runInProcess({
      inputs: {
        operation: 'create-callbacks',
        'base-url': w.emu.url,
        'bk-token': w.bkToken,
        'project-id': 'demo',
        'callback-url': 'https://hooks.example.com/bkci',
        region: 'DEVNET',
        events: 'BUILD_END,BUILD_START',
      },
    });
  const disabled = (id: number, event: string) => ({
    id,
    projectId: 'demo',
    url: 'https://hooks.example.com/bkci',
    event,
    region: 'DEVNET',
    secretToken: null,
    creator: 'alice',
    enable: false,
    createdAt: id,
  });

  it('callbacks deleted before a batch bk-ci refused are said, and reenabled-events lists only what was created again', async () => {
    w.emu.seedProject({ englishName: 'demo', projectName: 'Demo', creator: 'alice' });
    w.emu.callbacks.push(disabled(1, 'BUILD_END'), disabled(2, 'BUILD_START'));
    w.emu.faults.add({
      method: 'POST',
      pattern: /callbacks\/batch/,
      fault: { kind: 'wrapper-status', status: 2101001, message: 'db busy' },
    });
    const r = await register();
    failedWith(
      r,
      /^bk-ci create-callbacks failed: deleted the callbacks of https:\/\/hooks.example.com\/bkci for BUILD_(END|START), BUILD_(END|START), but .*db busy.*\. Deleted before it: .*the disabled callbacks for .* were deleted to be created again and are not registered now: run the step again\.$/,
    );
    expect(r.outputs['reenabled-events']).toBe('[]');
    expect(r.summary).toMatch(/deleted, not re-created/);
    expect(w.emu.callbacks).toEqual([]);
    // A re-run converges: nothing left to delete, both registered.
    const again = await register();
    expect(again.code).toBe(0);
    expect(w.emu.callbacks.map((c) => [c.event, c.enable]).sort()).toEqual([
      ['BUILD_END', true],
      ['BUILD_START', true],
    ]);
  });

  it('callbacks deleted before a batch whose answer was lost: it may have been applied, never "not registered now"', async () => {
    w.emu.seedProject({ englishName: 'demo', projectName: 'Demo', creator: 'alice' });
    w.emu.callbacks.push(disabled(1, 'BUILD_END'), disabled(2, 'BUILD_START'));
    // bk-ci registers both, and the connection drops before its answer.
    w.emu.faults.add({ method: 'POST', pattern: /callbacks\/batch/, after: true, fault: { kind: 'reset' } });
    const r = await register();
    expect(w.emu.callbacks.map((c) => [c.event, c.enable]).sort()).toEqual([
      ['BUILD_END', true],
      ['BUILD_START', true],
    ]);
    failedWith(r, /deleted to be created again; the registration was sent and its outcome is unknown, so it may have been applied/);
    expect(r.stdout).not.toMatch(/not registered now/);
    expect(r.summary).not.toMatch(/not registered now/);
  });

  it('callbacks deleted before a batch answered 500: it may have been applied, never "not registered now"', async () => {
    w.emu.seedProject({ englishName: 'demo', projectName: 'Demo', creator: 'alice' });
    w.emu.callbacks.push(disabled(1, 'BUILD_END'));
    w.emu.faults.add({
      method: 'POST',
      pattern: /callbacks\/batch/,
      fault: { kind: 'status', status: 500, contentType: 'text', body: 'db busy' },
    });
    const r = await register();
    failedWith(
      r,
      /HTTP 500: db busy\. .*the registration was sent and its outcome is unknown, so it may have been applied: look at the project's callbacks/,
    );
    expect(r.stdout + r.summary).not.toMatch(/not registered now/);
    expect(r.summary).toMatch(/callbacks deleted, their re-creation unknown/);
  });

  it('a deletion whose answer was lost: it may have been applied', async () => {
    w.emu.seedProject({ englishName: 'demo', projectName: 'Demo', creator: 'alice' });
    w.emu.callbacks.push(disabled(1, 'BUILD_END'));
    w.emu.faults.add({ method: 'DELETE', after: true, times: Infinity, fault: { kind: 'reset' } });
    const r = await register();
    expect(w.emu.callbacks).toEqual([]);
    failedWith(r, /not deleted: BUILD_END \(the deletion of BUILD_END was sent and its outcome is unknown: it may have been applied\)/);
  });

  it('a project write cancelled while it was on its way says it may have been applied', async () => {
    w.emu.seedProject({ englishName: 'demo', projectName: 'Demo', creator: 'alice' });
    w.emu.faults.add({ method: 'PUT', pattern: /\/projects\/demo$/, fault: { kind: 'hang' } });
    const r = await runStep(installed(), {
      inputs: {
        operation: 'update-project',
        'base-url': w.emu.url,
        'bk-token': w.bkToken,
        'project-id': 'demo',
        project: 'description: new',
      },
      onSpawn: (kill) => {
        const timer = setInterval(() => {
          if (w.emu.requests({ method: 'PUT' }).length > 0) {
            clearInterval(timer);
            kill('SIGINT');
          }
        }, 10);
      },
    });
    failedWith(
      r,
      /^bk-ci update-project failed: cancelled after .* while PUT http:\/\/.*\/projects\/demo was on its way: bk-ci may have applied it; check before running the step again$/,
    );
  });
});

describe('time relative to what the server grants', () => {
  // Tokens of 30 seconds, as some installations issue.
  const t = useWorld({ tokenLifetimeMs: 30_000, users: ['bob'], project: false });
  const sign = (bkToken: string, inputs: Record<string, string>) =>
    runInProcess({
      inputs: { operation: 'sign-detail', 'base-url': t.emu.url, 'bk-token': bkToken, 'poll-interval': '5s', retries: '0', ...inputs },
      clock: t.clock,
    });
  const detail = (): number[] =>
    t.emu
      .requests({ method: 'GET' })
      .filter((q) => q.path.includes('/detail'))
      .map((q) => q.time);

  it('a 30-second token is renewed when a fifth of its life is left, not before every poll', async () => {
    t.emu.seedSign({ resignId: 's-1', runningMs: 120_000 });
    const r = await sign(t.bkToken, { 'resign-id': 's-1' });
    expect(r.code, r.stdout).toBe(0);
    const polls = detail().length;
    const tokens = t.emu.requests({ path: TOKEN_PATH }).length;
    expect(polls).toBeGreaterThanOrEqual(24);
    // One token lasts 24 s of 5 s polls: five or so in two minutes, not one a poll.
    expect(tokens).toBeGreaterThanOrEqual(2);
    expect(tokens).toBeLessThanOrEqual(Math.ceil(120 / 24) + 1);
  });

  it('no poll comes sooner than the Retry-After of a failed one', async () => {
    t.emu.seedSign({ resignId: 's-2', runningMs: 60_000 });
    t.emu.faults.add({
      pattern: /\/detail/,
      times: 2,
      fault: { kind: 'status', status: 503, contentType: 'text', body: 'busy', headers: { 'retry-after': '20' } },
    });
    const r = await sign(t.bkToken, { 'resign-id': 's-2' });
    expect(r.code, r.stdout).toBe(0);
    const [first = 0, second = 0, third = 0] = detail();
    expect(second - first).toBeGreaterThanOrEqual(20_000);
    expect(third - second).toBeGreaterThanOrEqual(20_000);
  });

  it('a retry the server asks to delay longer than the action waits is not sent sooner: not at all', async () => {
    t.emu.faults.add({
      pattern: /\/projects\/demo$/,
      times: Infinity,
      fault: { kind: 'status', status: 429, contentType: 'text', body: 'slow down', headers: { 'retry-after': '120' } },
    });
    const r = await runInProcess({
      inputs: { operation: 'get-project', 'base-url': t.emu.url, 'bk-token': t.bkToken, 'project-id': 'demo', retries: '3' },
      clock: t.clock,
    });
    failedWith(r, /HTTP 429: slow down/);
    expect(r.stdout).toMatch(/not retried: the server asks to wait 2m \(Retry-After\), longer than the action waits for a retry \(1m\)/);
    expect(t.emu.requests({ path: `${OPENAPI_PREFIX}projects/demo` })).toHaveLength(1);
  });
});

describe('everything shown is bounded, with a note', () => {
  it('a re-sign message of 300,000 characters is cut in the output, the annotation and the summary, each saying so', async () => {
    const long = `queue full ${'x'.repeat(300_000)} end`;
    w.emu.seedSign({ resignId: 's-long', runningMs: 0, result: 'FAIL', failMessage: long });
    const r = await runInProcess({
      inputs: { operation: 'sign-detail', 'base-url': w.emu.url, 'bk-token': w.bkToken, 'resign-id': 's-long', wait: 'false' },
    });
    expect(r.code).toBe(1);
    expect(r.outputs['sign-message']?.length).toBeLessThan(70 * 1024);
    expect(r.outputs['sign-message']).toMatch(/^queue full x+… \(\d+ more characters\)$/);
    expect(r.errors[0]?.length).toBeLessThan(9000);
    expect(r.errors[0]).toMatch(/… \(\d+ more characters\)$/);
    expect(r.summary.length).toBeLessThan(20_000);
    expect(r.summary).toMatch(/more characters/);
  });
});
