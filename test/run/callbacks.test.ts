// create-callbacks keeps the requested callbacks registered and enabled, and with replace-events
// exactly the requested ones, against bk-ci's circuit breaker and its upsert that never re-enables.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failedWith } from '../support/expect-step.ts';
import { SkippingClock } from '../support/fake-clock.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { doorOptions, GATEWAY_APP, useWorld } from '../support/world.ts';

afterAll(cleanupRuns);

/** A receiver on loopback that records what bk-ci delivers. */
let receiver: Server;
let receiverUrl: string;
const delivered: { event: string; token: string | undefined }[] = [];
beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      delivered.push({
        event: (JSON.parse(body) as { event: string }).event,
        token: req.headers['x-devops-webhook-token'] as string | undefined,
      });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

describe.each([
  ['bkci', {}],
  ['spec', {}],
  ['bkci behind the BlueKing API Gateway', GATEWAY_APP],
] as const)('%s', (name, extra) => {
  const door = name === 'spec' ? 'spec' : 'gateway' in extra ? 'apigw' : 'bkci';
  const w = useWorld({ ...doorOptions(door), realTime: true, users: ['alice', 'vic'], project: { viewers: ['vic'] } });
  beforeEach(() => {
    delivered.length = 0;
  });

  const step = (inputs: Record<string, string> = {}) =>
    runInProcess({
      inputs: {
        operation: 'create-callbacks',
        'base-url': w.emu.url,
        ...('gateway' in extra ? extra : { 'access-token': w.accessToken }),
        'user-id': 'alice',
        'project-id': 'demo',
        'callback-url': receiverUrl,
        region: 'DEVNET',
        events: 'BUILD_START,BUILD_END',
        'secret-token': 'hook-secret',
        retries: '0',
        ...inputs,
      },
      // The pause between pages passes at once.
      clock: new SkippingClock(),
    });
  const methods = () => w.emu.requests().map((q) => q.method);
  const disable = (event: string) => {
    const cb = w.emu.callbacks.find((c) => c.event === event);
    if (cb) cb.enable = false;
  };

  it('a callback the circuit breaker disabled is re-enabled, and then receives a delivered event', async () => {
    expect((await step()).errors).toEqual([]);
    disable('BUILD_END');
    expect(await w.emu.deliver('demo', 'BUILD_END', {})).toEqual([]);
    const r = await step();
    expect(r.errors).toEqual([]);
    expect(r.outputs).toMatchObject({
      'reenabled-events': '["BUILD_END"]',
      'removed-events': '[]',
      'success-events': '["BUILD_START","BUILD_END"]',
    });
    expect(r.summary).toMatch(/\| BUILD_END \| re-enabled \| bk-ci had disabled it after failed deliveries/);
    expect(r.stdout).toMatch(/re-enabling BUILD_END: bk-ci had disabled them after failed deliveries/);
    expect(w.emu.callbacks.every((c) => c.enable)).toBe(true);
    expect(await w.emu.deliver('demo', 'BUILD_END', { buildId: 'b-1' })).toEqual([{ url: receiverUrl, status: 200 }]);
    expect(delivered).toEqual([{ event: 'BUILD_END', token: 'hook-secret' }]);
  });

  it('only this URL’s disabled callbacks for the given events are deleted: not another URL’s, not another event’s', async () => {
    await step({ events: 'BUILD_START,BUILD_END' });
    await step({ 'callback-url': 'https://other.example/hook', events: 'BUILD_END' });
    for (const c of w.emu.callbacks) c.enable = false;
    const r = await step({ events: 'BUILD_END' });
    expect(r.errors).toEqual([]);
    expect(r.outputs['reenabled-events']).toBe('["BUILD_END"]');
    expect(w.emu.requests({ method: 'DELETE' })).toHaveLength(1);
    expect(w.emu.callbacks.map((c) => `${c.url === receiverUrl ? 'ours' : 'other'} ${c.event} ${c.enable}`).sort()).toEqual([
      'other BUILD_END false',
      'ours BUILD_END true',
      'ours BUILD_START false',
    ]);
  });

  it('a re-run with nothing to change deletes nothing', async () => {
    await step();
    const before = w.emu.requests().length;
    const r = await step();
    expect(r.outputs).toMatchObject({ 'reenabled-events': '[]', 'removed-events': '[]' });
    expect(methods().slice(before)).toEqual(['GET', 'POST']);
  });

  it('replace-events removes exactly the stale events of this URL; other URLs are never touched', async () => {
    await step({ events: 'BUILD_START,BUILD_END,PROJECT_UPDATE' });
    await step({ 'callback-url': 'https://other.example/hook', events: 'BUILD_END' });
    const r = await step({ events: 'BUILD_END', 'replace-events': 'true' });
    expect(r.errors).toEqual([]);
    expect(JSON.parse(r.outputs['removed-events'] ?? '')).toEqual(expect.arrayContaining(['BUILD_START', 'PROJECT_UPDATE']));
    expect(w.emu.callbacks.map((c) => `${c.url === receiverUrl ? 'ours' : 'other'} ${c.event}`).sort()).toEqual([
      'other BUILD_END',
      'ours BUILD_END',
    ]);
    // Without replace-events, nothing of ours is removed.
    await step({ events: 'BUILD_START' });
    expect(
      w.emu.callbacks
        .filter((c) => c.url === receiverUrl)
        .map((c) => c.event)
        .sort(),
    ).toEqual(['BUILD_END', 'BUILD_START']);
  });

  it('a list failure deletes nothing and registers nothing', async () => {
    await step();
    disable('BUILD_END');
    w.emu.faults.add({ method: 'GET', fault: { kind: 'status', status: 500, contentType: 'text', body: 'list broke' } });
    failedWith(await step({ 'replace-events': 'true', events: 'BUILD_END' }), /HTTP 500: list broke/);
    expect(methods().filter((m) => m === 'DELETE' || m === 'POST')).toEqual(['POST']);
    expect(w.emu.callbacks).toHaveLength(2);
  });

  it('listing needs a member, deleting a manager: the message says which right is missing', async () => {
    w.emu.seedProject({ englishName: 'theirs', projectName: 'Theirs', creator: 'bob' });
    failedWith(
      await step({ 'project-id': 'theirs' }),
      /listing the callbacks needs project membership, and the user is not a member of project theirs \(bk-ci (2101133|403)/,
    );
    await step();
    disable('BUILD_END');
    failedWith(
      await step({ 'user-id': 'vic', ...('gateway' in extra ? {} : { 'access-token': w.accessTokens.vic ?? '' }) }),
      /deleting a callback needs a manager of project demo, and the user is not one \(bk-ci (2101104|403).*not deleted: BUILD_END; nothing was registered/,
    );
  });

  it('a delete that fails half way says what was and was not deleted; a re-run converges', async () => {
    await step({ events: 'BUILD_START,BUILD_END,PROJECT_UPDATE' });
    w.emu.faults.add({ method: 'DELETE', skip: 1, fault: { kind: 'status', status: 500, contentType: 'text', body: 'db busy' } });
    const r = await step({ events: 'BUILD_END', 'replace-events': 'true' });
    failedWith(
      r,
      /deleted the callbacks of .* for (BUILD_START|PROJECT_UPDATE), but .*HTTP 500: db busy\. Deleted so far: (BUILD_START|PROJECT_UPDATE); not deleted: (BUILD_START|PROJECT_UPDATE) \(the deletion of (BUILD_START|PROJECT_UPDATE) was sent and its outcome is unknown: it may have been applied\); nothing was registered\. Running the step again finishes the job\./,
    );
    const again = await step({ events: 'BUILD_END', 'replace-events': 'true' });
    expect(again.errors).toEqual([]);
    expect(w.emu.callbacks.filter((c) => c.url === receiverUrl).map((c) => c.event)).toEqual(['BUILD_END']);
  });

  it('bk-ci refuses the registration after a disabled callback was deleted: the step says it is not registered now; a re-run converges', async () => {
    await step();
    disable('BUILD_END');
    w.emu.faults.add({ method: 'POST', fault: { kind: 'wrapper-status', status: 2101001, message: 'db busy' } });
    const r = await step();
    failedWith(
      r,
      /db busy.*\. Deleted before it: BUILD_END; the disabled callbacks for BUILD_END were deleted to be created again and are not registered now: run the step again\.$/,
    );
    expect(r.summary).toMatch(/callbacks deleted, not re-created/);
    expect(w.emu.callbacks.filter((c) => c.url === receiverUrl).map((c) => c.event)).toEqual(['BUILD_START']);
    const again = await step();
    expect(again.errors).toEqual([]);
    expect(
      w.emu.callbacks
        .filter((c) => c.url === receiverUrl && c.enable)
        .map((c) => c.event)
        .sort(),
    ).toEqual(['BUILD_END', 'BUILD_START']);
  });

  it('a registration that fails with nothing deleted says only why', async () => {
    await step();
    w.emu.faults.add({ method: 'POST', fault: { kind: 'status', status: 500, contentType: 'text', body: 'db busy' } });
    const r = await step();
    failedWith(r, /HTTP 500: db busy$/);
    expect(r.errors[0]).not.toMatch(/Deleted before it/);
  });

  it('a batch answered without a result fails the step, saying so', async () => {
    w.emu.faults.add({ method: 'POST', fault: { kind: 'status', status: 200, body: JSON.stringify({ status: 0, data: null }) } });
    const r = await step();
    failedWith(r, /failed: bk-ci answered the callback batch without a result$/);
  });

  it('an event the batch reports failed fails the step, naming it; the summary and outputs say which failed and which registered', async () => {
    w.emu.faults.add({
      method: 'POST',
      fault: { kind: 'patch', data: { successEvents: ['BUILD_START'], failureEvents: { BUILD_END: 'region closed' } } },
    });
    const r = await step();
    failedWith(r, /failed: 1 of 2 callbacks failed: BUILD_END \(region closed\)$/);
    expect(r.outputs).toMatchObject({ 'success-events': '["BUILD_START"]', 'failure-events': '{"BUILD_END":"region closed"}' });
    expect(r.summary).toMatch(/^\| BUILD_START \| registered \| — \|$/m);
    expect(r.summary).toMatch(/^\| BUILD_END \| failed \| region closed \|$/m);
  });

  it('replace-events says what it removed, in the log and in the summary; the data output holds the batch', async () => {
    await step({ events: 'BUILD_START,BUILD_END' });
    const r = await step({ events: 'BUILD_END', 'replace-events': 'true' });
    expect(r.errors).toEqual([]);
    expect(r.stdout).toMatch(/removed BUILD_START: no longer in events \(replace-events\)/);
    expect(r.stdout).not.toMatch(/re-enabling/);
    expect(r.summary).toMatch(/^\| BUILD_START \| removed \| not in events \(replace-events\) \|$/m);
    expect(JSON.parse(r.outputs.data ?? '')).toEqual({ successEvents: ['BUILD_END'], failureEvents: {} });
  });

  it('a disabled callback deleted and then left out by the batch is said as deleted, not re-created', async () => {
    await step();
    disable('BUILD_END');
    w.emu.faults.add({ method: 'POST', fault: { kind: 'patch', data: { successEvents: ['BUILD_START'], failureEvents: {} } } });
    const r = await step();
    expect(r.outputs['reenabled-events']).toBe('[]');
    expect(r.summary).toMatch(
      /^\| BUILD_END \| deleted, not re-created \| bk-ci had disabled it; it was deleted to be created again, and is not registered now \|$/m,
    );
  });

  it('a callback another deploy deleted first is fine', async () => {
    await step();
    disable('BUILD_END');
    w.emu.faults.add({
      method: 'DELETE',
      fault: { kind: 'status', status: 400, body: JSON.stringify({ status: 2101136, message: '回调记录(1)不存在' }) },
    });
    const r = await step();
    expect(r.errors).toEqual([]);
    expect(r.outputs['reenabled-events']).toBe('["BUILD_END"]');
  });

  it('pages through every callback of the project', async () => {
    for (let i = 0; i < 130; i++)
      w.emu.callbacks.push({
        id: 1000 + i,
        projectId: 'demo',
        url: `https://x.example/${i}`,
        event: 'BUILD_END',
        region: 'DEVNET',
        secretToken: null,
        creator: 'alice',
        enable: true,
        createdAt: i,
      });
    await step();
    disable('BUILD_START');
    const r = await step();
    expect(r.outputs['reenabled-events']).toBe('["BUILD_START"]');
    expect(w.emu.requests({ method: 'GET' }).length).toBeGreaterThanOrEqual(4);
  });
});
