// `npm run emulator` started on its own, as a person starts it: it seeds the demo world `npm start`
// uses (emulator/demo-world.ts), prints it with its URL, and the `npm start` line its banner gives
// approves the seeded review and returns at once (review-build's wait is false by default).
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNpm } from '../support/npm-script.ts';

let emulator: ChildProcess;
let banner = '';
let url = '';

beforeAll(async () => {
  emulator = spawn('npm', ['run', '--silent', 'emulator', '--', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
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
    // The build is where the banner says: at the review of its stage Release.
    expect(await control('builds')).toEqual([
      expect.objectContaining({ id, projectId: 'demo', pipelineId: 'p-review', status: 'STAGE_SUCCESS', stage: 'Release' }),
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
      expect.objectContaining({ pipelineId: 'p-long', status: 'RUNNING' }),
      expect.objectContaining({ pipelineId: 'p-fail', status: 'RUNNING' }),
    ]);
  }, 30_000);

  it("the banner's npm start line approves the review and returns at once: no wait unless asked", async () => {
    const line = /^try: npm start -- (.*)$/m.exec(banner)?.[1] ?? '';
    const id = /build-id=(b-\w+)/.exec(line)?.[1] ?? '';
    const before = ((await control('log')) as unknown[]).length;
    const r = await runNpm(['start', '--silent', '--', ...line.split(' ')]);
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
});
