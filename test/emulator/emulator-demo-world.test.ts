// `npm run emulator` started on its own, as a person starts it: it seeds the demo world `npm start`
// uses (emulator/demo-world.ts), prints it with its URL, refuses over HTTP what bk-ci refuses, and
// the `npm start` line its banner gives approves the seeded review and returns at once
// (review-build's wait is false by default). One emulator serves the whole file; both scripts run
// as their npm scripts run them, without npm (npm's own part, its signals, is
// emulator-control.test.ts's and npm-start.test.ts's).
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript, spawnScript } from '../support/npm-script.ts';

let emulator: ChildProcess;
let banner = '';
let url = '';

beforeAll(async () => {
  emulator = spawnScript('emulator', ['--port', '0']);
  let err = '';
  emulator.stderr?.on('data', (c: Buffer) => {
    err += c.toString();
  });
  await new Promise<void>((resolve, reject) => {
    emulator.stdout?.on('data', (c: Buffer) => {
      banner += c.toString();
      if (/^control: /m.test(banner)) resolve();
    });
    emulator.on('exit', () => reject(new Error(`npm run emulator exited: ${banner}${err}`)));
  });
  url = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(banner)?.[1] ?? '';
}, 30_000);

afterAll(async () => {
  if (emulator.exitCode !== null) return;
  const exited = new Promise((resolve) => emulator.on('exit', resolve));
  emulator.kill('SIGTERM');
  await exited;
});

const control = async (path: string): Promise<unknown> => (await fetch(`${url}/__emulator/${path}`)).json();

describe('npm run emulator on its own', () => {
  it("seeds the pipelines the README's build examples need and says so in its banner, with its URL", async () => {
    expect(url).not.toBe('');
    const id = /build (b-\w+) of p-review waits for its review$/m.exec(banner)?.[1] ?? '';
    expect(banner).toContain(
      `seeded: pipelines "p-review" (pauses at a review of stage Release by admin), "p-long" (runs 10 min), "p-fail" (fails after 2 s); build ${id} of p-review waits for its review\n`,
    );
    expect(banner).toMatch(
      /^seeded: project "demo"; re-sign task "s-5f1c9e7a" RUNNING for 4 s from now, then SUCCESS; pipeline "p-demo": /m,
    );
    const bkToken = /^bk-token: (\S+)$/m.exec(banner)?.[1];
    expect(banner).toContain(
      `try: npm start -- base-url=${url} bk-token=${bkToken} operation=review-build project-id=demo build-id=${id} decision=approve\n`,
    );
    // The builds are where the banner says: one at the review of its stage Release, one ended with
    // its files, one failed (its flaky test passes when retried).
    const ended = /build (b-\w+) of p-demo ended SUCCEED an hour ago, with its files/.exec(banner)?.[1];
    const failed =
      /build (b-\w+) of p-fail FAILED an hour ago \(3 tests failed, a flaky test\): retry-build runs its failed jobs again/.exec(
        banner,
      )?.[1];
    expect(await control('builds')).toEqual([
      expect.objectContaining({ id, projectId: 'demo', pipelineId: 'p-review', status: 'STAGE_SUCCESS', stage: 'Release' }),
      expect.objectContaining({ id: ended, pipelineId: 'p-demo', status: 'SUCCEED' }),
      expect.objectContaining({ id: failed, pipelineId: 'p-fail', status: 'FAILED' }),
    ]);
    // The long and the failing pipeline start (bk-ci's own front door, with the printed token).
    const accessToken = /^access-token: (\S+)$/m.exec(banner)?.[1] ?? '';
    for (const pipelineId of ['p-long', 'p-fail']) {
      const res = await fetch(
        `${url}/ms/openapi/api/apigw/v4/projects/demo/build_start?pipelineId=${pipelineId}&access_token=${accessToken}`,
        { method: 'POST', headers: { 'content-type': 'application/json', 'X-DEVOPS-UID': 'admin' }, body: '{}' },
      );
      expect(res.status, pipelineId).toBe(200);
    }
    expect(await control('builds')).toEqual([
      expect.objectContaining({ pipelineId: 'p-review' }),
      expect.objectContaining({ pipelineId: 'p-demo' }),
      expect.objectContaining({ pipelineId: 'p-fail', status: 'FAILED' }),
      expect.objectContaining({ pipelineId: 'p-long', status: 'RUNNING' }),
      expect.objectContaining({ pipelineId: 'p-fail', status: 'RUNNING' }),
    ]);
  }, 30_000);

  it("the banner's npm start line approves the review and returns at once: no wait unless asked", async () => {
    const line = /^try: npm start -- (.*)$/m.exec(banner)?.[1] ?? '';
    const id = /build-id=(b-\w+)/.exec(line)?.[1] ?? '';
    const before = ((await control('log')) as unknown[]).length;
    const r = await runScript('start', line.split(' '));
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain(`── the action against ${url} `);
    expect(r.out).toMatch(/^approved the review of stage 'Release' \(group 'QA'\) as admin; bk-ci applies it moments later$/m);
    expect(r.out).toMatch(/^conclusion=running$/m);
    expect(r.out).toMatch(/^build-id=(b-\w+)$/m);
    expect(r.out).toContain('| wait | no |');
    expect(r.out).not.toMatch(/waiting for build/);
    // One read of the build's model, the decision, and nothing after it: no poll of the build.
    const paths = ((await control('log')) as { method: string; path: string }[]).slice(before).map((q) => `${q.method} ${q.path}`);
    expect(paths.filter((p) => !p.includes('/auth/'))).toEqual([
      expect.stringMatching(/^GET .*\/v4\/projects\/demo\/build_detail$/),
      expect.stringMatching(/^POST .*\/v4\/projects\/demo\/manual_start_build_stage$/),
    ]);
    expect(r.out).toContain(id);
  }, 60_000);
  it("refuses what bk-ci refuses, in bk-ci's own status and message: a duplicate project, an unknown event, an unknown project", async () => {
    const post = async (name: string, body: unknown) => {
      const res = await fetch(`${url}/__emulator/${name}`, { method: 'POST', body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    expect(await post('projects', { englishName: 'demo', projectName: 'Another' })).toEqual({
      status: 400,
      body: { status: 2119007, message: '英文名已经存在', detail: 'project demo exists' },
    });
    expect(await post('projects', { englishName: 'other', projectName: 'Demo project' })).toMatchObject({
      status: 400,
      body: { status: 2119002, message: '项目名或英文名重复' },
    });
    expect(await post('deliver', { projectId: 'demo', event: 'BUILD_STRAT' })).toMatchObject({
      status: 400,
      body: {
        status: 400,
        message: '查询参数请求错误',
        detail: expect.stringMatching(/^BUILD_STRAT is not one of bk-ci's callback events: /),
      },
    });
    expect(await post('callbacks/disable', { projectId: 'nope', url: 'https://hooks.example.com/x' })).toEqual({
      status: 404,
      body: { status: 404, message: 'ProjectId [nope] not find, please check it.' },
    });
    expect(await post('deliver', { projectId: 'nope', event: 'BUILD_END' })).toMatchObject({ status: 404 });
    // The OpenAPI itself: a batch with one unknown name fails whole, before anything is saved.
    const { access, user } = { access: /access-token: (\S+)/.exec(banner)?.[1] ?? '', user: 'admin' };
    const batch = await fetch(
      `${url}/ms/openapi/api/apigw/v3/projects/demo/callbacks/batch?url=https%3A%2F%2Fhooks.example.com%2Fx&region=DEVNET&event=BUILD_END,BUILD_STRAT&access_token=${access}`,
      { method: 'POST', headers: { 'x-devops-uid': user, 'content-type': 'application/json' }, body: '{}' },
    );
    expect({ status: batch.status, body: await batch.json() }).toEqual({
      status: 400,
      body: { status: 400, message: '查询参数请求错误' },
    });
  }, 20_000);
});
