// The bk-ci build as a GitHub check run: run() in this process against the bk-ci emulator and the
// emulator's GitHub side, whose every body is checked against GitHub's OpenAPI description.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { layout } from '../../emulator/build-model.ts';
import { type GitHubEmulator, startGitHub } from '../../emulator/github.ts';
import { inert } from '../../src/github/text.ts';
import type { StepResult } from '../support/dist-runner.ts';
import { elements, outsideCode, seen } from '../support/github-markdown.ts';
import { cleanupRuns, stepIn } from '../support/in-process.ts';
import { type PipelineSeed as Seed, useWorld } from '../support/world.ts';

const SHA = '1'.repeat(40);
const HEAD = '2'.repeat(40);
const GH_TOKEN = 'ghs_check-writer-token-0001';

const w = useWorld();
let gh: GitHubEmulator;
let work: string;
beforeEach(async () => {
  gh = await startGitHub({ now: () => w.clock.now() });
  gh.addToken(GH_TOKEN);
  work = await mkdtemp(join(tmpdir(), 'bkci-check-'));
});
afterEach(async () => {
  await gh.close();
  await rm(work, { recursive: true, force: true });
});
afterAll(cleanupRuns);

const pipeline = (seed: Seed) => w.pipeline({ name: 'App', phases: [{ status: 'RUNNING', ms: 3000 }], ...seed });

const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  GITHUB_API_URL: gh.url,
  GITHUB_REPOSITORY: 'octo/app',
  GITHUB_SHA: SHA,
  GITHUB_EVENT_NAME: 'push',
  ...extra,
});

const withCheck = { logs: 'none', check: 'true', 'github-token': GH_TOKEN };
const start = stepIn(w, { operation: 'start-build', 'pipeline-id': 'p-app', 'poll-interval': '1s', retries: '0', ...withCheck });
const step = (inputs: Record<string, string>, extraEnv: Record<string, string> = {}): Promise<StepResult> =>
  start(inputs, { env: env(extraEnv) });

/** Every body GitHub received was one it took (its schema validation is on): no 422. */
const noRefusals = (): void => expect(gh.received.filter((r) => r.status === 422)).toEqual([]);
const writes = () => gh.received.filter((r) => r.method !== 'GET');

describe('the check run', () => {
  it("is written on a pull request's head commit, named after the pipeline, linked to the build, and completed with its conclusion", async () => {
    pipeline({});
    const event = join(work, 'event.json');
    await writeFile(event, JSON.stringify({ pull_request: { number: 7, head: { sha: HEAD } } }));
    const r = await step({}, { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: event });
    expect(r.errors).toEqual([]);
    expect(gh.runs).toHaveLength(1);
    const run = gh.runs[0];
    expect(run).toMatchObject({
      head_sha: HEAD,
      name: 'bk-ci App',
      status: 'completed',
      conclusion: 'success',
      external_id: r.outputs['build-id'],
    });
    expect(run?.details_url).toBe(r.outputs['build-url']);
    expect(r.outputs['check-run-id']).toBe(String(run?.id));
    expect(r.outputs['check-url']).toBe(`${gh.url}/octo/app/runs/${run?.id}`);
    noRefusals();
  });

  const ends: [string, Seed, Record<string, string>, string, RegExp][] = [
    [
      'failure',
      { result: 'FAILED', errorInfoList: [{ taskName: 'Compile', errorCode: 2199001, errorMsg: 'exit 2' }] },
      {},
      'failure',
      /failed/,
    ],
    ['cancelled', { result: 'CANCELED' }, {}, 'cancelled', /cancelled/],
    [
      'waiting-review (on-review: fail)',
      {
        phases: [
          { status: 'RUNNING', ms: 2000, stage: 'Build' },
          { status: 'STAGE_SUCCESS', stage: 'Release', review: { groups: [{ name: 'QA', reviewers: ['bob'] }] } },
        ],
      },
      { 'on-review': 'fail' },
      'action_required',
      /waits for a review/,
    ],
    ['timed-out', { phases: [{ status: 'RUNNING', ms: 3_600_000 }] }, { timeout: '30s' }, 'timed_out', /goes on in bk-ci/],
  ];
  it.each(ends)('%s: the check concludes as the step', async (_, seed, inputs, conclusion, title) => {
    pipeline(seed);
    const r = await step(inputs);
    expect(r.code).toBe(1);
    expect(gh.runs).toHaveLength(1);
    expect(gh.runs[0]).toMatchObject({ status: 'completed', conclusion });
    expect(gh.runs[0]?.output.title).toMatch(title);
    noRefusals();
  });

  it('wait: false leaves it in progress, and says so; build-status with check takes it over and completes it: no second check', async () => {
    pipeline({ phases: [{ status: 'RUNNING', ms: 20_000, stage: 'Build' }] });
    const first = await step({ wait: 'false' });
    expect(first.errors).toEqual([]);
    expect(gh.runs).toHaveLength(1);
    expect(gh.runs[0]?.status).toBe('in_progress');
    // Left in progress on purpose, and said so: who completes it.
    expect(first.stdout).toMatch(
      /^check: the check run "bk-ci App" \(\d+\) stays in progress while the build goes on in bk-ci; a later step with operation: build-status, check: true and the same check-name completes it$/m,
    );
    const id = first.outputs['build-id'] ?? '';
    const later = await stepIn(w)({ operation: 'build-status', 'build-id': id, 'poll-interval': '5s', ...withCheck }, { env: env() });
    expect(later.errors).toEqual([]);
    expect(gh.runs).toHaveLength(1);
    expect(gh.runs[0]).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(later.outputs['check-run-id']).toBe(first.outputs['check-run-id']);
    expect(later.stdout).toMatch(/took over the check run "bk-ci App"/);
    noRefusals();
  });

  it('a start bk-ci refused leaves a completed failure check saying why', async () => {
    pipeline({ startError: { http: 200, status: 2101047, message: 'pipeline is locked @admin see https://evil.example' } });
    const r = await step({});
    expect(r.code).toBe(1);
    expect(gh.runs).toHaveLength(1);
    const run = gh.runs[0];
    expect(run).toMatchObject({ name: 'bk-ci p-app', status: 'completed', conclusion: 'failure' });
    const summary = run?.output.summary ?? '';
    expect(seen(summary)).toMatch(/pipeline is locked @admin see https:\/\/evil\.example\)/);
    // Nothing of bk-ci's text can mention anybody or make a link: what GitHub would link is code.
    expect(elements(summary)).toEqual(['p', 'code', 'code']);
    expect(outsideCode(summary)).not.toMatch(/@admin|https:\/\/evil/);
  });

  it('a long build with a stage change makes a handful of requests, not one per poll', async () => {
    pipeline({
      phases: [
        { status: 'QUEUE', ms: 60_000 },
        { status: 'RUNNING', ms: 3_600_000, stage: 'Build' },
        { status: 'RUNNING', ms: 3_600_000, stage: 'Release' },
      ],
    });
    const r = await step({ 'poll-interval': '30s', timeout: '3h' });
    expect(r.errors).toEqual([]);
    expect(Number(r.outputs.polls)).toBeGreaterThan(200);
    // Created (queued), in progress at Build, in progress at Release, completed.
    expect(writes().length).toBeGreaterThanOrEqual(3);
    expect(gh.received.length).toBeLessThanOrEqual(6);
    const titles = writes().map((w) => (JSON.parse(w.body) as { output?: { title?: string } }).output?.title);
    expect(titles).toEqual(expect.arrayContaining([expect.stringMatching(/Queued/), "Running: stage 'Build'", "Running: stage 'Release'"]));
    noRefusals();
  });
});

describe('GitHub never decides the step', () => {
  const expectSameStep = (r: StepResult): void => {
    expect(r.errors).toEqual([]);
    expect(r.outputs).toMatchObject({ conclusion: 'success', 'build-status': 'SUCCEED' });
  };

  it('a read-only token (a pull request from a fork): one warning naming the fix, the step as without check', async () => {
    pipeline({});
    gh.addToken('ghs_read_only_token', 'read');
    const r = await step({ 'github-token': 'ghs_read_only_token' });
    expectSameStep(r);
    const warnings = r.stdout.match(/^::warning::.*$/gm) ?? [];
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Resource not accessible by integration.*permissions: checks: write/);
    expect(r.outputs['check-run-id']).toBe('');
    // Refused once, never asked again.
    expect(gh.received).toHaveLength(1);
  });

  it('an outage: one warning for it, one line saying the check may exist, the step as without check', async () => {
    pipeline({});
    gh.fault({ kind: 'error', status: 502, times: 1000 });
    const r = await step({});
    expectSameStep(r);
    expect(r.stdout.match(/^::warning::.*$/gm)).toEqual([
      '::warning::check: GitHub failed or could not be reached (502: Unicorn! · GitHub); the check run may lag behind the build (its next update in 10s at the earliest)',
      expect.stringMatching(
        /^::warning::check: a check run "bk-ci App" for build b-\w+ may exist on GitHub .*: GitHub failed or could not be reached \(502: Unicorn! · GitHub\)$/,
      ),
    ]);
  });

  it('a lost answer to the create: looked up by the build id before creating again, so one check', async () => {
    pipeline({ phases: [{ status: 'RUNNING', ms: 30_000, stage: 'Build' }] });
    gh.fault({ kind: 'drop', method: 'POST' });
    const r = await step({});
    expectSameStep(r);
    expect(gh.runs).toHaveLength(1);
    expect(gh.runs[0]).toMatchObject({ status: 'completed', conclusion: 'success' });
  });

  it("secondary and primary rate limits: waited out as GitHub says (the last update's within its bound), the step's result unchanged", async () => {
    pipeline({ phases: [{ status: 'RUNNING', ms: 200_000, stage: 'Build' }] });
    gh.fault({ kind: 'secondary', method: 'POST', retryAfter: 30 });
    gh.fault({ kind: 'primary', method: 'PATCH', retryAfter: 10 });
    const r = await step({ 'poll-interval': '5s' });
    expectSameStep(r);
    expect(gh.runs).toHaveLength(1);
    expect(gh.runs[0]).toMatchObject({ status: 'completed', conclusion: 'success' });
    const posts = gh.received.filter((q) => q.method === 'POST');
    expect(posts.map((p) => p.status)).toEqual([403, 201]);
  });

  it('no token crosses over: bk-ci never sees the GitHub token, GitHub never sees a bk-ci credential', async () => {
    pipeline({});
    const r = await step({});
    expectSameStep(r);
    const toBkci = JSON.stringify(w.emu.log);
    expect(toBkci).not.toContain(GH_TOKEN);
    const toGitHub = JSON.stringify(gh.received);
    expect(toGitHub).not.toContain(w.bkToken);
    for (const q of w.emu.log) {
      const token = /access_token=([^&]+)/.exec(q.query)?.[1];
      if (token !== undefined) expect(toGitHub).not.toContain(decodeURIComponent(token));
    }
    expect(gh.received.every((q) => q.headers.authorization === `token ${GH_TOKEN}`)).toBe(true);
    expect(r.stdout).toContain(`::add-mask::${GH_TOKEN}`);
  });

  it('on a re-run says what was done with the earlier attempt’s build: retried, then taken as it is', async () => {
    pipeline({ phases: [{ status: 'RUNNING', ms: 3000 }], stages: ['Build', 'Release'], result: 'FAILED', retryResult: 'SUCCEED' });
    const run = { GITHUB_RUN_ID: '555', GITHUB_JOB: 'release', GITHUB_REF: 'refs/heads/main' };
    const first = await step({}, { ...run, GITHUB_RUN_ATTEMPT: '1' });
    expect(first.outputs.conclusion).toBe('failure');
    const second = await step({}, { ...run, GITHUB_RUN_ATTEMPT: '2' });
    expect(second.outputs).toMatchObject({ rerun: 'retried', conclusion: 'success', 'execute-count': '2' });
    const retried = gh.runs.find((r) => String(r.id) === second.outputs['check-run-id']);
    expect(retried).toMatchObject({ status: 'completed', conclusion: 'success' });
    // A short title; what the re-run did in the summary.
    expect(retried?.output.title).toBe('Build #1 (run 2) succeeded');
    expect(seen(retried?.output.summary ?? '')).toMatch(
      /^Build #1 b-\w+ \(run 2\) succeeded\nRe-run: retried the failed jobs of stage-\d+, run 2\n/,
    );
    const third = await step({}, { ...run, GITHUB_RUN_ATTEMPT: '3' });
    expect(third.outputs).toMatchObject({ rerun: 'adopted', conclusion: 'success' });
    const taken = gh.runs.find((r) => String(r.id) === third.outputs['check-run-id']);
    // The build attempt 1 started (and attempt 2 retried) is the one taken.
    expect(seen(taken?.output.summary ?? '')).toMatch(/Re-run: taken from attempt 1/);
    noRefusals();
  });
});

describe('compiler errors on the diff', () => {
  const stages = ['Build'];
  const jobs = { Build: [{ name: 'Linux', jobId: 'build', steps: [{ name: 'Compile', stepId: 'compile' }] }] };
  const [compile] = layout('p-app', stages, jobs).flatMap((st) => st.jobs.flatMap((j) => j.steps.map((x) => x.id)));
  const failing = (texts: string[]): void => {
    pipeline({
      stages,
      jobs,
      phases: [{ status: 'RUNNING', ms: 3000 }],
      result: 'FAILED',
      logs: {
        steps: [{ tag: compile ?? '', jobId: 'build', stepId: 'compile', containerHashId: 'c-1' }],
        lines: texts.map((text, i) => ({ at: 500 + i, step: compile ?? '', text })),
      },
    });
  };
  const checkout = async (files: string[]): Promise<string> => {
    const ws = join(work, 'ws');
    for (const f of files) {
      await mkdir(join(ws, f, '..'), { recursive: true });
      await writeFile(join(ws, f), '\n');
    }
    return ws;
  };
  const finalOutput = () =>
    (JSON.parse(writes().at(-1)?.body ?? '{}') as { output: { annotations?: { path: string; start_line: number }[]; text?: string } })
      .output;

  it('become annotations only on files of the checked-out repository', async () => {
    const ws = await checkout(['src/main.c', 'src/app.ts']);
    failing([
      '/data/landun/workspace/src/main.c:12:5: error: expected ; before }',
      'src/app.ts(3,7): error TS2304: Cannot find name @team',
      'vendor/lib/src/main.c:1:1: error: not ours',
      'make: *** [all] Error 2',
    ]);
    const r = await step({ logs: 'on-failure' }, { GITHUB_WORKSPACE: ws });
    expect(r.code).toBe(1);
    const output = finalOutput();
    expect(output.annotations).toEqual([
      {
        path: 'src/main.c',
        start_line: 12,
        end_line: 12,
        start_column: 5,
        end_column: 5,
        annotation_level: 'failure',
        message: 'expected ; before }',
      },
      {
        path: 'src/app.ts',
        start_line: 3,
        end_line: 3,
        start_column: 7,
        end_column: 7,
        annotation_level: 'failure',
        message: 'TS2304: Cannot find name @team',
      },
    ]);
    expect(output.text).toMatch(/Last lines of Linux › Compile/);
    expect(output.text).toMatch(/make: \*\*\* \[all\] Error 2/);
    expect(output.text).toContain(
      inert(
        "3 compiler messages in the failed steps' logs: 2 annotated on the check run; not annotated: 1 on files outside the repository's checkout (e.g. vendor/lib/src/main.c).",
        2000,
      ),
    );
    expect(gh.runs[0]?.annotations).toHaveLength(2);
    noRefusals();
  });

  // tsc's 30 errors, then npm's lines: the step's last 20 lines hold only the last 13 errors.
  const tsc = Array.from({ length: 30 }, (_, i) => `src/app.ts(${i + 1},7): error TS2304: Cannot find name 'n${i + 1}'.`);
  const npm = [
    'npm ERR! code ELIFECYCLE',
    'npm ERR! errno 2',
    'npm ERR! app@1.0.0 build: `tsc`',
    'npm ERR! Exit status 2',
    'npm ERR! ',
    'npm ERR! Failed at the app@1.0.0 build script.',
    'npm ERR! A complete log of this run can be found in: /root/.npm/_logs/x.log',
  ];
  it.each(['live', 'on-failure'])(
    'logs: %s: the whole failed step is read, every error found (30 tsc errors, then npm ERR! lines)',
    async (logs) => {
      const ws = await checkout(['src/app.ts', 'index.d.ts']);
      failing([
        ...tsc.slice(0, 2),
        // Not the repository's index.d.ts, and a line number no file has: counted, never sent.
        "node_modules/@types/node/index.d.ts(20,1): error TS2300: Duplicate identifier 'process'.",
        `src/app.ts(${'9'.repeat(400)},1): error TS1005: ';' expected.`,
        ...tsc.slice(2),
        ...npm,
      ]);
      const r = await step({ logs }, { GITHUB_WORKSPACE: ws });
      expect(r.code).toBe(1);
      const output = finalOutput();
      expect(output.annotations?.map((a) => [a.path, a.start_line])).toEqual(tsc.map((_, i) => ['src/app.ts', i + 1]));
      const said =
        "32 compiler messages in the failed steps' logs: 30 annotated on the check run; not annotated: 1 on files outside the repository's checkout (e.g. node_modules/@types/node/index.d.ts); 1 with a line number no file has (0, or beyond 2147483647).";
      expect(output.text).toContain(inert(said, 2000));
      expect(r.summary).toMatch(/Compiler messages.*32 compiler messages.*30 annotated/);
      expect(gh.runs[0]?.annotations).toHaveLength(30);
      noRefusals();
    },
  );
});
