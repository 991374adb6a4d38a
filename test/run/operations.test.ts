// Each operation's outputs, summary and secrets, end to end: the token masked and nowhere else,
// a re-sign task's outputs, a download URL that fails, a token given as it is, a list too large for
// an output, a project created then updated, callbacks registered and delivered, inputs refused.
// run() in this process, which prints, outputs and writes the summary through the same code as the
// built action, on the clock the emulator shares; test/dist/action.test.ts keeps what needs the
// process (signals, a real deadline, the connection of a wait).
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { OPENAPI_PREFIX, TOKEN_PATH } from '../../emulator/server.ts';
import { unescapeData } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { useWorld } from '../support/world.ts';

afterAll(cleanupRuns);

describe('each operation, end to end', () => {
  const w = useWorld({ project: false });
  let accessToken: string;
  beforeEach(() => {
    accessToken = w.emu.addUser('alice').token.accessToken;
    w.emu.seedProject({ englishName: 'demo', projectName: 'Demo', description: 'seeded', creator: 'alice', bgId: 12 });
  });

  const step = (inputs: Record<string, string>) =>
    runInProcess({ inputs: { 'base-url': w.emu.url, 'bk-token': w.bkToken, ...inputs }, clock: w.clock });

  it('get-token: outputs the token masked, and nothing else holds it', async () => {
    const r = await step({ operation: 'get-token' });
    expect(r.code).toBe(0);
    const token = r.outputs['access-token'] ?? '';
    expect(token).toMatch(/%2B|%2F|%3D/);
    const masks = [...r.stdout.matchAll(/^::add-mask::(.*)$/gm)].map((m) => unescapeData(m[1] ?? ''));
    expect(masks).toContain(token);
    expect(r.outputs['user-id']).toBe('alice');
    expect(r.outputs['expiration-time']).toMatch(/^\d{13}$/);
    const elsewhere = [
      unescapeData(r.stdout.replaceAll(/^::add-mask::.*$/gm, '')),
      r.stderr,
      r.summary,
      r.outputs.data ?? '',
      await readFile(r.outputs['data-file'] ?? '', 'utf8').catch(() => ''),
    ].join('\n');
    expect(elsewhere).not.toContain(token);
    expect(elsewhere).not.toContain(decodeURIComponent(token));
    expect(elsewhere).not.toContain(w.bkToken);
  });

  it('sign-detail: waits for SUCCESS with 1 s polls and outputs everything', async () => {
    w.emu.seedSign({ resignId: 's-1', runningMs: 1200 });
    const r = await step({ operation: 'sign-detail', 'resign-id': 's-1', 'poll-interval': '1s', 'download-url': 'true' });
    expect(r.code).toBe(0);
    expect(r.outputs).toMatchObject({
      'sign-status': 'SUCCESS',
      'sign-message': 'Sign finished.',
      'http-status': '200',
      'user-id': 'alice',
    });
    // How many polls it took depends on how fast the process started (the schedule is
    // run.test.ts's); the output counts the polls the log shows.
    expect(Number(r.outputs.polls)).toBe(r.stdout.match(/^::debug::poll \d+: /gm)?.length);
    expect(r.outputs['download-url']).toContain('/artifactory/');
    expect(JSON.parse(r.outputs.data ?? '')).toEqual({ resignId: 's-1', status: 'SUCCESS', message: 'Sign finished.' });
    expect(JSON.parse(await readFile(r.outputs['data-file'] ?? '', 'utf8'))).toEqual(JSON.parse(r.outputs.data ?? ''));
    expect(r.summary).toMatch(/✅ bk-ci sign-detail/);
    expect(r.summary).toMatch(/\| Status \| SUCCESS \|/);
    expect(r.summary).toMatch(/Status changes/);
  });

  it('sign-detail: a failed download URL is a warning, not a failed step', async () => {
    w.emu.seedSign({ resignId: 's-dl', runningMs: 0 });
    w.emu.faults.add({
      pattern: /\/downloadUrl/,
      times: 10,
      fault: { kind: 'status', status: 500, contentType: 'text', body: 'artifactory is down' },
    });
    const r = await step({ operation: 'sign-detail', 'resign-id': 's-dl', 'download-url': 'true', retries: '0' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^::warning::could not read the download URL of re-sign task s-dl: .*HTTP 500: artifactory is down$/m);
    expect(r.outputs['sign-status']).toBe('SUCCESS');
    expect(r.outputs['download-url']).toBeUndefined();
  });

  it('get-project with access-token and user-id, verbatim in the query', async () => {
    const r = await step({
      operation: 'get-project',
      'project-id': 'demo',
      'bk-token': '',
      'access-token': accessToken,
      'user-id': 'alice',
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.outputs.data ?? '')).toMatchObject({ englishName: 'demo', bgId: '12' });
    expect(w.emu.requests({ path: OPENAPI_PREFIX })[0]?.query).toBe(`access_token=${accessToken}`);
    expect(w.emu.requests({ path: TOKEN_PATH })).toHaveLength(0);
  });

  it('list-projects: count, and data-file when data is over 1 MiB', async () => {
    for (let i = 0; i < 2500; i++)
      w.emu.seedProject({ englishName: `p-${i}`, projectName: `Project ${i}`, creator: 'alice', description: 'd'.repeat(200) });
    const r = await step({ operation: 'list-projects' });
    expect(r.code).toBe(0);
    expect(r.outputs.count).toBe('2501');
    expect(r.outputs.data ?? '').toBe('');
    expect(r.stdout).toMatch(/::warning::the result is larger than 1 MiB.*data-file/);
    expect(JSON.parse(await readFile(r.outputs['data-file'] ?? '', 'utf8'))).toHaveLength(2501);
    expect(r.summary).toMatch(/… and 2451 more/);
  });

  it('create-project from YAML, then update-project keeps what is not given', async () => {
    const created = await step({ operation: 'create-project', project: 'englishName: made\nprojectName: Made\nbgId: 5\ndeptId: 6\n' });
    expect(created.code).toBe(0);
    expect(JSON.parse(created.outputs.data ?? '')).toMatchObject({ englishName: 'made', description: '', bgId: '5' });
    const updated = await step({ operation: 'update-project', 'project-id': 'made', project: '{"description": "now described"}' });
    expect(updated.code).toBe(0);
    expect(JSON.parse(updated.outputs.data ?? '')).toMatchObject({ description: 'now described', bgId: '5', deptId: '6' });
    expect(updated.summary).toMatch(/\| description \| — \| now described \|/);
  });

  it('create-callbacks: success events, and the secret nowhere', async () => {
    const r = await step({
      operation: 'create-callbacks',
      'project-id': 'demo',
      'callback-url': 'https://hooks.example.com/bkci',
      region: 'DEVNET',
      events: 'BUILD_START\nBUILD_END',
      'secret-token': 'callback-secret-42',
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.outputs['success-events'] ?? '')).toEqual(['BUILD_START', 'BUILD_END']);
    expect(r.outputs['failure-events']).toBe('{}');
    const all = [unescapeData(r.stdout.replaceAll(/^::add-mask::.*$/gm, '')), r.stderr, r.summary, JSON.stringify(r.outputs)].join('\n');
    expect(all).not.toContain('callback-secret-42');
    expect(w.emu.callbacks[0]?.secretToken).toBe('callback-secret-42');
  });

  it('create-callbacks: the emulator then delivers events to the URL with the secret', async () => {
    const received: { headers: Record<string, unknown>; body: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const r = await step({
      operation: 'create-callbacks',
      'project-id': 'demo',
      'callback-url': url,
      region: 'IDC',
      events: 'BUILD_END',
      'secret-token': 'hook-secret',
    });
    expect(r.code).toBe(0);
    expect(await w.emu.deliver('demo', 'BUILD_END', { buildId: 'b-1', status: 'SUCCEED' })).toEqual([{ url, status: 200 }]);
    expect(await w.emu.deliver('demo', 'BUILD_START', {})).toEqual([]);
    expect(received).toHaveLength(1);
    expect(received[0]?.headers['x-devops-webhook-token']).toBe('hook-secret');
    expect(JSON.parse(received[0]?.body ?? '')).toEqual({ event: 'BUILD_END', data: { buildId: 'b-1', status: 'SUCCEED' } });
    await new Promise<void>((r2) => receiver.close(() => r2()));
  });

  it('an invalid input fails before any request', async () => {
    const r = await step({
      operation: 'create-callbacks',
      'project-id': 'demo',
      'callback-url': 'https://h.example',
      region: 'mars',
      events: 'BUILD_ENDD',
      timeout: 'forever',
    });
    failedWith(r, /invalid inputs:/);
    expect(r.errors[0]).toMatch(/timeout "forever"/);
    expect(r.errors[0]).toMatch(/No request was sent/);
    expect(w.emu.log).toHaveLength(0);
  });
});
