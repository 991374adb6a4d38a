import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, OPENAPI_PREFIX, startEmulator, TOKEN_PATH } from '../../emulator/server.ts';
import type { Flavour } from '../../emulator/wire.ts';
import { cleanupSteps, installAction, runStep, unescapeData } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { signRunningFor } from '../support/sign-reads.ts';

let actionDir: string;
beforeAll(async () => {
  actionDir = await installAction();
  expect(existsSync(join(actionDir, 'node_modules'))).toBe(false);
});
afterAll(async () => {
  await rm(actionDir, { recursive: true, force: true });
  await cleanupSteps();
});

// What only the built action can show: dist/ without node_modules, signals, one connection for a
// wait, real timing. Behaviour is tested in-process in run.test.ts; bk-ci's flavour is enough here.
describe.each<Flavour>(['bkci'])('the built action, %s flavour', (flavour) => {
  let emu: Emulator;
  let bkToken: string;
  let accessToken: string;
  beforeEach(async () => {
    emu = await startEmulator({ flavour });
    ({
      bkToken,
      token: { accessToken },
    } = emu.addUser('alice'));
    emu.seedProject({ englishName: 'demo', projectName: 'Demo', description: 'seeded', creator: 'alice', bgId: 12 });
  });
  afterEach(() => emu.close());

  const step = (inputs: Record<string, string>, extra: Partial<Parameters<typeof runStep>[1]> = {}) =>
    runStep(actionDir, { inputs: { 'base-url': emu.url, 'bk-token': bkToken, ...inputs }, ...extra });

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
    expect(elsewhere).not.toContain(bkToken);
  });

  it('sign-detail: waits for SUCCESS with 1 s polls and outputs everything', async () => {
    emu.seedSign({ resignId: 's-1', runningMs: 1200 });
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

  it('sign-detail: a server that hangs cannot hold the step past the deadline by more than one request-timeout', async () => {
    emu.seedSign({ resignId: 's-hang', runningMs: 600_000 });
    emu.faults.add({ pattern: /\/detail/, times: Infinity, fault: { kind: 'hang' } });
    // Counted from the step's first output, not from the spawn: how long Node takes to start on
    // a busy machine is not the step holding on past its deadline.
    const spawned = Date.now();
    let started: number | undefined;
    const r = await step(
      { operation: 'sign-detail', 'resign-id': 's-hang', timeout: '2s', 'request-timeout': '1s', 'poll-interval': '1s', retries: '5' },
      {
        echo: () => {
          started ??= Date.now();
        },
      },
    );
    failedWith(r, /got no complete answer within request-timeout \(1s\)/);
    expect(r.durationMs - ((started ?? spawned) - spawned)).toBeLessThan(2000 + 1000 + 700);
  });

  it('sign-detail: the token request and every poll share one connection', async () => {
    const done = signRunningFor(emu, 's-ka', 2);
    const r = await step({ operation: 'sign-detail', 'resign-id': 's-ka', 'poll-interval': '1s' }).finally(done);
    expect(r.code).toBe(0);
    const polls = Number(r.outputs.polls);
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(emu.requests()).toHaveLength(polls + 1);
    expect(new Set(emu.requests().map((q) => q.remotePort)).size).toBe(1);
  });

  it('sign-detail: a failed download URL is a warning, not a failed step', async () => {
    emu.seedSign({ resignId: 's-dl', runningMs: 0 });
    emu.faults.add({
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

  it.each(['SIGINT', 'SIGTERM'] as const)('sign-detail: %s mid-wait stops within 2 s with a cancelled summary', async (signal) => {
    emu.seedSign({ resignId: 's-4', runningMs: 600_000 });
    let signalledAt = 0;
    const r = await step(
      { operation: 'sign-detail', 'resign-id': 's-4', 'poll-interval': '1s' },
      {
        onSpawn: (kill, out) => {
          const timer = setInterval(() => {
            if (out().includes('RUNNING (')) {
              clearInterval(timer);
              setTimeout(() => {
                signalledAt = Date.now();
                kill(signal);
              }, 1200);
            }
          }, 20);
        },
      },
    );
    const exitAfter = Date.now() - signalledAt;
    expect(exitAfter).toBeLessThan(2000);
    failedWith(r, /cancelled after \d(\.\d)?s, last status RUNNING/);
    expect(r.summary).toMatch(/cancelled after/);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'start-build: %s mid-wait stops the build it started, within 2 s, and says so',
    async (signal) => {
      emu.seedPipeline({ projectId: 'demo', pipelineId: 'p-long', phases: [{ status: 'RUNNING', ms: 600_000 }] });
      let signalledAt = 0;
      const r = await step(
        { operation: 'start-build', 'project-id': 'demo', 'pipeline-id': 'p-long', 'poll-interval': '1s' },
        {
          onSpawn: (kill, out) => {
            const timer = setInterval(() => {
              if (out().includes('RUNNING')) {
                clearInterval(timer);
                signalledAt = Date.now();
                kill(signal);
              }
            }, 20);
          },
        },
      );
      expect(Date.now() - signalledAt).toBeLessThan(2000);
      const id = r.outputs['build-id'] ?? '';
      failedWith(r, new RegExp(`cancelled after .*, last status RUNNING; the build ${id} was stopped in bk-ci \\(stop-on-cancel\\)$`));
      expect(emu.requests({ path: '/build_stop' })).toHaveLength(1);
      const build = emu.builds.builds.get(id);
      expect(build && emu.builds.state(build).status).toBe('CANCELED');
      expect(r.summary).toMatch(/\| Stopped \| the build b-\w+ was stopped in bk-ci/);
      expect(r.outputs['build-status']).toBe('CANCELED');
    },
  );

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
    expect(emu.requests({ path: OPENAPI_PREFIX })[0]?.query).toBe(`access_token=${accessToken}`);
    expect(emu.requests({ path: TOKEN_PATH })).toHaveLength(0);
  });

  it('list-projects: count, and data-file when data is over 1 MiB', async () => {
    for (let i = 0; i < 2500; i++)
      emu.seedProject({ englishName: `p-${i}`, projectName: `Project ${i}`, creator: 'alice', description: 'd'.repeat(200) });
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
    expect(updated.summary).toMatch(/\| description \| +\| now described \|/);
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
    expect(emu.callbacks[0]?.secretToken).toBe('callback-secret-42');
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
    expect(await emu.deliver('demo', 'BUILD_END', { buildId: 'b-1', status: 'SUCCEED' })).toEqual([{ url, status: 200 }]);
    expect(await emu.deliver('demo', 'BUILD_START', {})).toEqual([]);
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
    expect(emu.log).toHaveLength(0);
  });
});
