// A newcomer's first hour: the mistakes people make on day one, with the exact words that name the
// cause, and outputs that mean what action.yml says. run() in this process, which prints, outputs
// and writes the summary through the same code as the built action, on the clock the emulator
// shares; test/dist/first-hour.test.ts keeps what needs processes (npm start, and an unknown
// input found in the step's real environment).
import { marked } from 'marked';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../src/operations/registry.ts';
import { readActionYml } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { REVIEW_PIPELINE } from '../support/review-pipeline.ts';
import { useWorld, worldForTest } from '../support/world.ts';

afterAll(cleanupRuns);

const warnings = (stdout: string): string[] => [...stdout.matchAll(/^::warning::(.*)$/gm)].map((m) => m[1] ?? '');

/** Alice, and her project demo with a description to keep. */
function useDemo() {
  const w = useWorld({ project: false });
  beforeEach(() => {
    w.emu.seedProject({ englishName: 'demo', projectName: 'Demo', description: 'seeded', creator: 'alice' });
  });
  return w;
}

describe('the mistakes of a first hour', () => {
  const w = useDemo();
  const step = (inputs: Record<string, string>) =>
    runInProcess({ inputs: { 'base-url': w.emu.url, 'bk-token': w.bkToken, ...inputs }, clock: w.clock });

  describe('a mistyped project field is named, with the field meant, before any request', () => {
    it.each([
      ['update-project', 'descripton', { 'project-id': 'demo', project: '{"descripton": "new"}' }, 'did you mean description?'],
      ['create-project', 'bgid', { project: 'englishName: app\nprojectName: App\nbgid: 12' }, 'did you mean bgId?'],
      ['create-project', 'logoAddr', { project: 'englishName: app\nprojectName: App\nlogoAddr: x' }, 'did you mean logoAddress?'],
    ])('%s with project.%s', async (operation, field, inputs, hint) => {
      const r = await step({ operation, ...inputs });
      failedWith(r, new RegExp(`^bk-ci ${operation} failed: invalid input: project\\.${field} is not a field of a bk-ci project`));
      expect(r.errors[0]).toContain(`bk-ci would ignore it: ${hint}`);
      expect(r.errors[0]).toContain('No request was sent.');
      expect(w.emu.requests()).toEqual([]);
      expect(w.emu.projects.get('demo')?.description).toBe('seeded');
    });

    it('a field nothing resembles lists the fields there are', async () => {
      const r = await step({ operation: 'update-project', 'project-id': 'demo', project: '{"colour": "blue"}' });
      failedWith(
        r,
        /project\.colour is not a field of a bk-ci project, and bk-ci would ignore it: the fields are englishName, projectName, description, /,
      );
    });
  });

  it('a failure in the job summary reads as Markdown: its problems a list, its lines lines, no ⏎ and no stray escapes', async () => {
    const r = await step({ operation: 'update-project', 'project-id': 'demo', project: '{"descripton": "x"}', retries: 'eleven' });
    expect(r.code).toBe(1);
    expect(r.summary).not.toContain('⏎');
    expect(r.summary).toContain(
      '**Failed:** invalid inputs:\n\n- retries must be a whole number from 0 to 10\n- project.descripton is not a field of a bk-ci project, and bk-ci would ignore it: did you mean description?\n\nNo request was sent.',
    );
    const html = marked.parse(r.summary, { gfm: true, async: false });
    expect([...html.matchAll(/<li>/g)]).toHaveLength(2);
    expect(html).toContain('<p>No request was sent.</p>');
  });

  describe('inputs the operation does not read are warned about, once, each named', () => {
    it('resign-id and build-id given to get-project', async () => {
      const r = await step({ operation: 'get-project', 'project-id': 'demo', 'resign-id': 's-1', 'build-id': 'b-1' });
      expect(r.code).toBe(0);
      expect(warnings(r.stdout)).toEqual([
        'operation get-project does not read these inputs, so they were ignored: resign-id (read by sign-detail); build-id (read by build-status, review-build, retry-build, download-artifacts). Remove them, or check the operation.',
      ]);
    });

    it('access-token beside bk-token: the step says which one it uses, once', async () => {
      const r = await step({ operation: 'get-project', 'project-id': 'demo', 'access-token': 'from-an-old-secret', 'user-id': 'alice' });
      expect(r.code, r.stdout).toBe(0);
      expect(warnings(r.stdout)).toEqual([
        'access-token and bk-token are both set: the token is issued from bk-token (and renewed when it runs out), and access-token is not used. Remove one of them.',
      ]);
      expect(w.emu.requests().some((q) => q.query.includes('from-an-old-secret'))).toBe(false);
    });

    it('a value other than its default counts as given; the default the runner fills in does not', async () => {
      const given = await step({ operation: 'list-projects', wait: 'false', 'if-exists': 'fail' });
      expect(given.code).toBe(0);
      expect(warnings(given.stdout)).toEqual([
        'operation list-projects does not read this input, so it was ignored: wait (read by sign-detail, start-build, build-status, review-build, retry-build). Remove it, or check the operation.',
      ]);
      const quiet = await step({ operation: 'get-project', 'project-id': 'demo' });
      expect(warnings(quiet.stdout)).toEqual([]);
    });
  });

  describe('durations read as they were written', () => {
    it('a 90 s timeout is 1m30s in the summary of start-build and sign-detail', async () => {
      w.pipeline({ pipelineId: 'p-demo', phases: [{ status: 'RUNNING', ms: 200 }] });
      const build = await step({
        operation: 'start-build',
        'project-id': 'demo',
        'pipeline-id': 'p-demo',
        timeout: '90s',
        'poll-interval': '1s',
      });
      expect(build.code, build.stdout).toBe(0);
      expect(build.summary).toContain('| wait | yes, up to 1m30s |');
      w.emu.seedSign({ resignId: 's-1' });
      const sign = await step({ operation: 'sign-detail', 'resign-id': 's-1', timeout: '90', 'poll-interval': '1500ms' });
      expect(sign.code).toBe(0);
      expect(sign.summary).toContain('| wait | yes, up to 1m30s |');
      expect(sign.summary).toContain('| poll-interval | 1.5s |');
      expect(sign.stdout).toContain('timeout 1m30s, a poll every 1.5s');
    });

    it('the bounds of a duration input are said in the units that fit', async () => {
      const r = await step({ operation: 'get-project', 'project-id': 'demo', 'request-timeout': '20m' });
      failedWith(r, /invalid input: request-timeout must be between 1s and 10m, not 20m/);
    });
  });
});

describe('outputs mean what action.yml says, for every operation that sets them', () => {
  const w = useDemo();
  let described: Record<string, string>;
  beforeEach(async () => {
    // Each build archives a file: what download brings in.
    const artifacts = [{ path: 'app/App.ipa', size: 1000 }];
    w.pipeline({ pipelineId: 'p-demo', phases: [{ status: 'RUNNING', ms: 100 }], artifacts });
    w.pipeline({ ...REVIEW_PIPELINE, artifacts });
    described = Object.fromEntries(
      Object.entries((await readActionYml()).outputs).map(([name, o]) => [name, (o as { description: string }).description]),
    );
  });

  const step = (inputs: Record<string, string>) =>
    runInProcess({ inputs: { 'base-url': w.emu.url, 'bk-token': w.bkToken, 'poll-interval': '1s', ...inputs }, clock: w.clock });

  /** The operations an output's description names first ("sign-detail, start-build: …"); none: every operation. */
  const setBy = (description: string): string[] | undefined => {
    const m = /^([a-z-]+(?:, [a-z-]+)*)(?: with [^:]+)?: /.exec(description);
    const names = m?.[1]?.split(', ');
    return names?.every((n) => (OPERATION_NAMES as readonly string[]).includes(n)) ? names : undefined;
  };

  /** What makes a build's variables, artifacts and downloaded outputs appear. */
  const SEEN = { variables: 'BK_CI_BUILD_ID', artifacts: 'true', download: '**' };
  /** A build of p-review, waiting for its stage review: what review-build decides. */
  const waitingForReview = async (): Promise<string> => {
    const r = await step({ operation: 'start-build', 'project-id': 'demo', 'pipeline-id': 'p-review', wait: 'false', logs: 'none' });
    return r.outputs['build-id'] ?? '';
  };

  /** A run of each operation that succeeds, with what makes its conditional outputs appear. */
  const RUNS: [string, Record<string, string>][] = [
    ['get-token', {}],
    ['sign-detail', { 'resign-id': 's-now', 'download-url': 'true' }],
    ['get-project', { 'project-id': 'demo' }],
    ['list-projects', {}],
    ['create-project', { project: '{"englishName": "app", "projectName": "App"}' }],
    ['update-project', { 'project-id': 'demo', project: '{"description": "changed"}' }],
    [
      'create-callbacks',
      {
        'project-id': 'demo',
        'callback-url': 'https://hooks.example.com/bkci',
        region: 'DEVNET',
        events: 'BUILD_END',
        'replace-events': 'true',
      },
    ],
    ['request', { path: 'v3/projects/demo' }],
    ['start-build', { 'project-id': 'demo', 'pipeline-id': 'p-demo', ...SEEN }],
    ['build-status', { 'project-id': 'demo', ...SEEN }],
    ['review-build', { 'project-id': 'demo', decision: 'approve', wait: 'true', ...SEEN }],
    ['retry-build', { 'project-id': 'demo', ...SEEN }],
    ['download-artifacts', { 'project-id': 'demo' }],
  ];

  it('each operation sets exactly the outputs whose description names it, and the common ones', async () => {
    expect(RUNS.map(([o]) => o).sort()).toEqual([...OPERATION_NAMES].sort());
    w.emu.seedSign({ resignId: 's-now' });
    let buildId = '';
    for (const [operation, inputs] of RUNS) {
      const build =
        operation === 'build-status' || operation === 'retry-build' || operation === 'download-artifacts'
          ? buildId
          : operation === 'review-build'
            ? await waitingForReview()
            : undefined;
      const r = await step({ operation, ...inputs, ...(build === undefined ? {} : { 'build-id': build }) });
      expect(r.code, `${operation}: ${r.stdout}`).toBe(0);
      if (operation === 'start-build') buildId = r.outputs['build-id'] ?? '';
      const expected = Object.keys(described).filter((name) => setBy(described[name] ?? '')?.includes(operation) ?? true);
      expect(Object.keys(r.outputs).sort(), operation).toEqual(expected.sort());
      expect(r.outputs['http-status'], `${operation}: ${described['http-status']}`).toBe('200');
    }
  });

  it('polls counts the reads made, failed ones included, as its description says', async () => {
    // RUNNING for two polls of the shared clock: the first read, then the 503, then SUCCESS.
    w.emu.seedSign({ resignId: 's-slow', runningMs: 2000 });
    w.emu.faults.add({ method: 'GET', pattern: /s-slow\/detail$/, skip: 1, times: 1, fault: { kind: 'status', status: 503 } });
    const r = await step({ operation: 'sign-detail', 'resign-id': 's-slow', retries: '0' });
    expect(r.code, r.stdout).toBe(0);
    const reads = w.emu.requests({ method: 'GET', path: '/s-slow/detail' }).length;
    // A RUNNING, the 503, then at least one more: however late the step started.
    expect(reads).toBeGreaterThanOrEqual(3);
    expect(r.stdout).toMatch(/a poll failed \(GET .* answered HTTP 503/);
    expect(r.outputs.polls).toBe(String(reads));
    expect(described.polls).toMatch(/how many times the task or build was read, failed reads included/);
  });
});

describe('the wrong front door is named, with the input to set', () => {
  it('gateway: bk-ci (the default) at a BlueKing API Gateway stage URL says to set gateway: bk-apigateway', async (test) => {
    const w = await worldForTest({ gateway: {}, project: false }, test);
    for (const inputs of [{ 'bk-token': w.bkToken }, { 'access-token': 'tok', 'user-id': 'alice' }]) {
      const r = await runInProcess({
        inputs: { operation: 'get-project', 'base-url': w.emu.url, 'project-id': 'demo', ...inputs },
        clock: w.clock,
      });
      failedWith(
        r,
        /answered HTTP 404: base-url answers as the BlueKing API Gateway \(API_NOT_FOUND \(1640401\), "API not found \[.*\]"\), but gateway is bk-ci \(the default\), which is bk-ci's own front door: set gateway: bk-apigateway, with base-url the gateway's stage root/,
      );
    }
  });

  it("gateway: bk-apigateway at bk-ci's own address says to leave gateway out", async (test) => {
    const w = await worldForTest({ users: [], project: false }, test);
    w.emu.seedProject({ englishName: 'demo', projectName: 'Demo' });
    const r = await runInProcess({
      inputs: { operation: 'get-project', 'base-url': w.emu.url, gateway: 'bk-apigateway', 'user-id': 'alice', 'project-id': 'demo' },
      clock: w.clock,
    });
    failedWith(
      r,
      /GET http:\/\/127\.0\.0\.1:\d+\/v4\/apigw-user\/projects\/demo answered HTTP 404: base-url answers as bk-ci's own gateway \("请求资源不存在。"\), not as the BlueKing API Gateway that gateway: bk-apigateway expects: if base-url is bk-ci's address, leave gateway out/,
    );
  });

  it("the gateway's own refusals behind gateway: bk-apigateway still say what to check", async (test) => {
    const w = await worldForTest({ gateway: {}, users: [], project: false }, test);
    const r = await runInProcess({
      inputs: { operation: 'list-projects', 'base-url': w.emu.url, gateway: 'bk-apigateway', 'app-code': 'ci-app', 'app-secret': 'wrong' },
      clock: w.clock,
    });
    failedWith(r, /the BlueKing API Gateway refused the call: APP_VERIFY_FAILED \(1640101\).*check app-code and app-secret/);
  });
});
