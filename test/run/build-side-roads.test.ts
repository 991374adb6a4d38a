// The build's side roads, run() in this process against the emulator on a clock the step and the
// emulator share: reads beside the wait (log, model, variables, artifacts) on their own budget,
// retries by what a call is, paging that demands progress, run numbers that never go back, a log
// file that cannot grow, and "may have started" only when the start was sent.
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/base/clock.ts';
import { BUILD_START, buildId } from '../../src/bkci/builds.ts';
import type { BkciApi, CallSpec } from '../../src/bkci/client.ts';
import type { SideBudget } from '../../src/http/caller.ts';
import { nodeTransport } from '../../src/http/node-transport.ts';
import type { Transport } from '../../src/http/transport.ts';
import { buildOf } from '../../src/pipeline/build.ts';
import { SIDE_ATTEMPT_MS, SIDE_READ_MS } from '../../src/pipeline/side-reads.ts';
import { watchBuild } from '../../src/pipeline/watch.ts';
import { repeatFirstPage } from '../support/artifact-pages.ts';
import { makeClient, watchContext } from '../support/client.ts';
import { runStep, type StepResult, useInstalledAction } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { SkippingClock } from '../support/fake-clock.ts';
import { cleanupRuns, P_APP, stepIn } from '../support/in-process.ts';
import { type PipelineSeed as Seed, startWorld, T0, type World, type WorldOptions } from '../support/world.ts';

afterAll(cleanupRuns);

let w: World;
beforeEach(async () => {
  w = await startWorld();
  return () => w.emu.close();
});
/** A world of other options in place of this test's. */
const reopen = async (o: WorldOptions) => {
  await w.emu.close();
  w = await startWorld(o);
};

const STEPS = [{ tag: 'e-compile', jobId: 'build', stepId: 'compile', containerHashId: 'c-build' }];
/** A build that succeeds 1.5 s in, with a few log lines and a variable. */
const QUICK: Seed = {
  phases: [{ status: 'RUNNING', ms: 1500 }],
  variables: { VERSION: '2.3.4' },
  logs: {
    steps: STEPS,
    lines: [
      { at: 100, step: 'e-compile', text: 'compiling' },
      { at: 1200, step: 'e-compile', text: 'compiled' },
    ],
  },
};
const pipeline = (seed: Seed) => w.pipeline(seed);
const start = (
  inputs: Record<string, string> = {},
  c: Clock = w.clock,
  processEnv?: Record<string, string>,
  transport?: Transport,
): Promise<StepResult> =>
  stepIn(w, { operation: 'start-build', ...P_APP })(inputs, {
    clock: c,
    ...(processEnv === undefined ? {} : { processEnv, env: processEnv }),
    ...(transport === undefined ? {} : { transport }),
  });
/** A workflow's run, so that the start carries this step's own message. */
const GITHUB = {
  GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
  GITHUB_REPOSITORY: 'octo/app',
  GITHUB_RUN_ID: '555',
  GITHUB_RUN_ATTEMPT: '1',
  GITHUB_JOB: 'release',
};
const starts = () => w.emu.requests({ path: '/build_start' }).length;

describe('reads beside the wait have their own budget and never decide the verdict', () => {
  it('a log read that hangs in the poll loop: the build that succeeded 1.5 s in ends as a success, not "still RUNNING … timed out"', async () => {
    const real = new SkippingClock();
    await reopen({ now: () => real.now(), onHold: () => real.lapse() });
    pipeline(QUICK);
    w.emu.faults.add({ pattern: /after_line_logs$/, times: Infinity, fault: { kind: 'hang' } });
    const r = await start({ timeout: '6s', 'request-timeout': '5s', retries: '3' }, real);
    expect(r.errors).toEqual([]);
    expect(r.outputs.conclusion).toBe('success');
    expect(r.outputs['build-status']).toBe('SUCCEED');
    expect(r.stdout).toMatch(/^::warning::reading the build's log failed .*the build's status decides/m);
  });

  it('after the end, a log read that hangs does not eat the deadline: the variables a later step needs are still read', async () => {
    const real = new SkippingClock();
    await reopen({ now: () => real.now(), onHold: () => real.lapse() });
    pipeline(QUICK);
    // The reads at the first two polls answer; every one after the end hangs.
    w.emu.faults.add({ pattern: /after_line_logs$/, skip: 2, times: Infinity, fault: { kind: 'hang' } });
    const r = await start({ timeout: '5s', 'request-timeout': '1s', retries: '3', variables: 'VERSION' }, real);
    expect(r.errors).toEqual([]);
    expect(r.outputs.conclusion).toBe('success');
    expect(JSON.parse(r.outputs.variables ?? '{}')).toEqual({ VERSION: '2.3.4' });
  });

  it('a log read throttled with a long Retry-After rides on the polls: the end is seen at the next poll', async () => {
    pipeline(QUICK);
    w.emu.faults.add({
      pattern: /after_line_logs$/,
      times: Infinity,
      fault: { kind: 'status', status: 429, body: '{"status":429,"message":"slow down"}', headers: { 'retry-after': '5' } },
    });
    const r = await start({ timeout: '20s', retries: '3', variables: 'VERSION' });
    expect(r.errors).toEqual([]);
    expect(r.outputs.conclusion).toBe('success');
    expect(JSON.parse(r.outputs.variables ?? '{}')).toEqual({ VERSION: '2.3.4' });
    // The status was read on its schedule, one a second: the build's end seen at once.
    expect(Number(r.outputs.polls)).toBeLessThanOrEqual(3);
  });

  it('a model (build_detail) throttled while the build runs never pushes a status poll back', async () => {
    pipeline({ phases: [{ status: 'RUNNING', ms: 4500 }] });
    w.emu.faults.add({
      pattern: /build_detail$/,
      times: Infinity,
      fault: { kind: 'status', status: 503, headers: { 'retry-after': '20' } },
    });
    const r = await start({ timeout: '30s', retries: '3', logs: 'none' });
    expect(r.errors).toEqual([]);
    expect(r.outputs.conclusion).toBe('success');
    // A poll a second, whatever the model's Retry-After asked of its own reads.
    const at = w.emu.requests({ path: '/build_status' }).length;
    expect(at).toBeGreaterThanOrEqual(5);
    expect(w.clock.t - T0).toBeLessThan(10_000);
  });
});

describe('every read beside the status has its own small budget, before and after the end, the model included', () => {
  /** A 2 s build whose log and variables a later step wants; timeout 30m, so only the reads' own budgets bound the end. */
  const SLOW: Seed = { ...QUICK, phases: [{ status: 'RUNNING', ms: 1500 }] };
  const secondsIn = () => (w.clock.t - T0) / 1000;

  it('a log that hangs after the end costs one log read (5 s), not 30 s nor the timeout: the variables are read, the last lines said missing', async () => {
    pipeline(SLOW);
    // The reads at the first two polls answer; every one after the end hangs.
    w.emu.faults.add({ pattern: /after_line_logs$/, skip: 2, times: Infinity, fault: { kind: 'hang' } });
    const r = await start({ retries: '3', variables: 'VERSION' });
    expect(r.errors).toEqual([]);
    expect(JSON.parse(r.outputs.variables ?? '{}')).toEqual({ VERSION: '2.3.4' });
    // The end is seen at 2 s; a pause, one read of at most 5 s, nothing more.
    expect(secondsIn()).toBeLessThanOrEqual(9);
    expect(r.stdout).toMatch(/^::warning::reading the build's log after its end failed \(.*\); its last lines may be missing/m);
    expect(w.emu.requests({ path: '/after_line_logs' }).length).toBeLessThanOrEqual(4);
  });

  it('the model read for the masks at the end hangs: it costs its own budget, and the variables are still read', async () => {
    pipeline(SLOW);
    w.emu.faults.add({ pattern: /build_detail$/, times: Infinity, fault: { kind: 'hang' } });
    const r = await start({ retries: '3', logs: 'none', variables: 'VERSION' });
    expect(r.errors).toEqual([]);
    expect(JSON.parse(r.outputs.variables ?? '{}')).toEqual({ VERSION: '2.3.4' });
    expect(r.stdout).toMatch(
      /^::warning::could not read the build's model \(build_detail\) to learn which parameters are passwords, so every variable output is masked, unless too short or common to mask: .*no complete answer within request-timeout \(10s\)/m,
    );
  });

  it("a model that hangs while the build runs does not take each poll's time from the live log", async () => {
    const lines = Array.from({ length: 9 }, (_, i) => ({ at: 500 + i * 1000, step: 'e-compile', text: `line ${i}` }));
    pipeline({ phases: [{ status: 'RUNNING', ms: 10_000 }], logs: { steps: STEPS, lines } });
    w.emu.faults.add({ pattern: /build_detail$/, times: Infinity, fault: { kind: 'hang' } });
    const r = await start({ retries: '0', 'poll-interval': '2s' });
    expect(r.errors).toEqual([]);
    const out = r.stdout.split('\n');
    const end = out.findIndex((l) => / SUCCEED$/.test(l));
    expect(out.slice(0, end).filter((l) => /^line \d$/.test(l)).length).toBeGreaterThanOrEqual(7);
    // Tried once while it runs (then it rests: 30 s), once at the end.
    expect(w.emu.requests({ path: '/build_detail' })).toHaveLength(2);
    expect(r.stdout.match(/^::warning::could not read the model of build/gm)).toHaveLength(1);
  });

  it('the model a STAGE_SUCCESS end needs, hanging: the step says it could not be read within its own 30 s, not "still RUNNING" at the 30m timeout', async () => {
    pipeline({ stages: ['Build', 'Release'], phases: [{ status: 'RUNNING', ms: 1500, stage: 'Build' }], result: 'STAGE_SUCCESS' });
    w.emu.faults.add({ pattern: /build_detail$/, times: Infinity, fault: { kind: 'hang' } });
    const r = await start({ retries: '3', logs: 'none' });
    failedWith(
      r,
      /^bk-ci start-build failed: build #1 \(b-\w+\) ended STAGE_SUCCESS, but its model \(build_detail\) could not be read in 30s of trying to see whether its stage review was rejected, so it is not reported as a success: .*no complete answer within request-timeout \(10s\)$/,
    );
    expect(secondsIn()).toBeLessThanOrEqual(45);
    expect(r.outputs).toMatchObject({ 'build-status': 'STAGE_SUCCESS', conclusion: 'failure' });
  });

  it('the variables hanging after the end: their own 15 s, said as a timeout, never "not sent"; the artifacts still listed after them', async () => {
    pipeline({ ...SLOW, logs: undefined, artifacts: [{ path: 'app/App.ipa', size: 1 }] });
    w.emu.faults.add({ pattern: /build_variables$/, times: Infinity, fault: { kind: 'hang' } });
    const r = await start({ retries: '3', logs: 'none', variables: 'VERSION', artifacts: 'true' });
    failedWith(
      r,
      /reading the build's variables \(VERSION\) failed: POST .*\/build_variables\?.* got no complete answer within request-timeout \(\d+s\)$/,
    );
    expect(JSON.parse(r.outputs.artifacts ?? '[]')).toEqual([expect.objectContaining({ name: 'App.ipa' })]);
    expect(r.outputs.conclusion).toBe('success');
    expect(secondsIn()).toBeLessThanOrEqual(2 + 15 + 2);
  });
});

describe('the one way a read beside the wait reaches bk-ci', () => {
  it('every call a wait makes but the status poll carries a budget of its own kind, counted from when it began', async () => {
    pipeline({ ...QUICK, artifacts: [{ path: 'app/App.ipa', size: 1 }] });
    const c = makeClient({ baseUrl: w.emu.url, bkToken: w.bkToken, clock: w.clock });
    const seen: { path: string; at: number; budget: SideBudget | undefined }[] = [];
    const api = {
      call: (spec: CallSpec<unknown>) => {
        seen.push({ path: spec.endpoint.path['bk-ci'] ?? '', at: w.clock.now(), budget: spec.budget });
        return c.api.call(spec);
      },
    } as unknown as BkciApi;
    try {
      const id =
        (await c.api.call({ endpoint: BUILD_START, params: { projectId: 'demo' }, query: { pipelineId: 'p-app' }, data: buildId })).data
          ?.id ?? '';
      const done = watchBuild(
        buildOf({ projectId: 'demo', pipelineId: 'p-app', id }),
        {
          ...{ wait: true, consoleUrl: undefined, stopOnCancel: false },
          onReview: 'wait',
          report: { logs: 'live', variables: ['VERSION'], maskVariables: [], artifacts: true },
        },
        watchContext(api, w.clock, c.log, { RUNNER_TEMP: tmpdir() }),
      );
      expect((await done).outputs).toMatchObject({ conclusion: 'success', variables: '{"VERSION":"2.3.4"}' });
    } finally {
      await c.close();
    }
    const kinds = {
      build_detail: 'model',
      after_line_logs: 'log',
      build_variables: 'variables',
      file_info: 'artifacts',
      user_download_url: 'artifacts',
    } as const;
    expect(new Set(seen.map((c) => c.path.split('/').at(-1)))).toEqual(
      new Set(['build_status', 'build_detail', 'after_line_logs', 'build_variables', 'file_info', 'user_download_url']),
    );
    for (const call of seen) {
      const name = call.path.split('/').at(-1) ?? '';
      if (name === 'build_status') expect(call.budget).toBeUndefined();
      else {
        const kind = kinds[name as keyof typeof kinds];
        expect(call.budget?.until, name).toBeLessThanOrEqual(call.at + SIDE_READ_MS[kind]);
        expect(call.budget?.attemptMs).toBe(SIDE_ATTEMPT_MS);
      }
    }
  });
});

describe('retries by what a call is, not by its verb', () => {
  it('build_variables, a read published as POST, is retried as a read after a 502', async () => {
    pipeline({ ...QUICK, logs: undefined });
    w.emu.faults.add({ pattern: /build_variables$/, fault: { kind: 'status', status: 502 } });
    const r = await start({ retries: '2', logs: 'none', variables: 'VERSION' });
    expect(r.errors).toEqual([]);
    expect(JSON.parse(r.outputs.variables ?? '{}')).toEqual({ VERSION: '2.3.4' });
    expect(w.emu.requests({ path: '/build_variables' })).toHaveLength(2);
  });

  it('the start, a write-once POST, is still never sent twice after a 502', async () => {
    pipeline(QUICK);
    w.emu.faults.add({ pattern: /build_start$/, after: true, fault: { kind: 'status', status: 502 } });
    const r = await start({ retries: '3', logs: 'none' });
    expect(starts()).toBe(1);
    expect(r.outputs['build-id']).toMatch(/^b-/);
  });
});

describe('every paging loop demands progress', () => {
  const files = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ path: `app/f-${String(i).padStart(3, '0')}.bin`, type: 'PIPELINE' as const, size: 1 }));

  it('artifact pages that repeat (a server that ignores "page"): two requests, not 10,102; the files seen kept, with a warning', async () => {
    pipeline({ ...QUICK, logs: undefined, artifacts: files(100) });
    // Every page answered with the first page's 100 files.
    repeatFirstPage(w.emu);
    const r = await start({ retries: '0', logs: 'none', artifacts: 'true' });
    expect(r.errors).toEqual([]);
    expect(r.outputs.conclusion).toBe('success');
    expect(w.emu.requests({ path: '/file_info' })).toHaveLength(2);
    expect(JSON.parse(r.outputs.artifacts ?? '[]')).toHaveLength(100);
    expect(w.emu.requests({ path: '/user_download_url' })).toHaveLength(100);
    expect(r.stdout).toMatch(
      /^::warning::the build's artifacts may be incomplete: page 2 brought nothing that earlier pages had not \(100 items seen before\), so the server ignores "page"; stopped after 2 requests; 100 read$/m,
    );
    expect(r.summary).toContain('#### Artifacts (100)');
  });

  it('a file_info page that fails after others: the files of the pages read are kept, with a warning naming the failure', async () => {
    pipeline({ ...QUICK, logs: undefined, artifacts: files(250) });
    w.emu.faults.add({ pattern: /file_info$/, skip: 2, fault: { kind: 'status', status: 500, body: 'boom', contentType: 'text' } });
    const r = await start({ retries: '0', logs: 'none', artifacts: 'true' });
    expect(r.errors).toEqual([]);
    const list = JSON.parse(r.outputs.artifacts ?? '[]') as { name: string }[];
    expect(list).toHaveLength(200);
    expect(list[199]?.name).toBe('f-199.bin');
    expect(r.stdout).toMatch(
      /^::warning::the build's artifacts may be incomplete: page 3 could not be read \(.*HTTP 500: boom\); 200 read$/m,
    );
  });

  it('a file_info page that lists a file twice lists it once', async () => {
    pipeline({ ...QUICK, logs: undefined, artifacts: files(3) });
    const twice = ['a', 'a', 'b'].map((n) => ({
      name: `${n}.bin`,
      fullPath: `/p-app/b/${n}.bin`,
      size: 1,
      folder: false,
      artifactoryType: 'PIPELINE',
    }));
    w.emu.faults.add({ pattern: /file_info$/, fault: { kind: 'patch', data: { records: twice } } });
    const r = await start({ retries: '0', logs: 'none', artifacts: 'true' });
    expect((JSON.parse(r.outputs.artifacts ?? '[]') as { name: string }[]).map((f) => f.name)).toEqual(['a.bin', 'b.bin']);
  });

  it('a history page that lists the step\'s build twice reads as one build: found, not "may have started"', async () => {
    pipeline(QUICK);
    w.emu.faults.add({ pattern: /build_start$/, after: true, fault: { kind: 'reset' } });
    const { transport: inner, close } = nodeTransport({ keepAliveMs: 1000 });
    // Every history page with each of its rows twice, as a page that repeats a row would.
    const doubled: Transport = async (req) => {
      const res = await inner(req);
      if (!new URL(req.url).pathname.endsWith('/build_histories')) return res;
      const body = JSON.parse(res.body) as { data: { records: unknown[] } };
      body.data.records = body.data.records.flatMap((row) => [row, row]);
      return { ...res, body: JSON.stringify(body) };
    };
    try {
      const r = await start({ retries: '0', logs: 'none' }, w.clock, GITHUB, doubled);
      expect(r.errors).toEqual([]);
      expect(starts()).toBe(1);
      const [build] = w.emu.builds.builds.values();
      expect(r.outputs).toMatchObject({ 'build-id': build?.id, conclusion: 'success' });
      expect(r.stdout).toMatch(/^found the build this step started in the pipeline's history: #1 /m);
    } finally {
      close();
    }
  });

  it('a log page that says hasMore but brings nothing new is not read again at once', async () => {
    pipeline({ ...QUICK, phases: [{ status: 'RUNNING', ms: 3500 }] });
    // Every page: the same two lines, and "there is more".
    const same = [1, 2].map((n) => ({
      lineNo: n,
      message: `line ${n}`,
      tag: 'e-compile',
      jobId: 'build',
      stepId: 'compile',
      executeCount: 1,
    }));
    w.emu.faults.add({ pattern: /after_line_logs$/, times: Infinity, fault: { kind: 'patch', data: { hasMore: true, logs: same } } });
    const r = await start({ retries: '0' });
    expect(r.errors).toEqual([]);
    const polls = Number(r.outputs.polls);
    // One page per read while nothing new comes (20 a read before), reads bounded after the end.
    expect(w.emu.requests({ path: '/after_line_logs' }).length).toBeLessThanOrEqual(2 * polls + 12);
  });
});

describe('monotonic facts stay monotonic', () => {
  it('a model of an older run (a stale answer) does not take the run number back', async () => {
    pipeline({ phases: [{ status: 'RUNNING', ms: 3500 }] });
    // The first model says run 3; every later one run 1, as a cache behind the gateway might.
    w.emu.faults.add({ pattern: /build_detail$/, times: 1, fault: { kind: 'patch', data: { executeCount: 3 } } });
    w.emu.faults.add({ pattern: /build_detail$/, times: Infinity, fault: { kind: 'patch', data: { executeCount: 1 } } });
    const r = await start({ retries: '0', logs: 'none' });
    expect(r.errors).toEqual([]);
    expect(r.outputs['execute-count']).toBe('3');
  });

  it('a status answer with another build number does not rename the build', async () => {
    pipeline({ phases: [{ status: 'RUNNING', ms: 2500 }] });
    w.emu.faults.add({ pattern: /build_status$/, skip: 1, times: Infinity, fault: { kind: 'patch', data: { buildNum: 99 } } });
    const r = await start({ retries: '0', logs: 'none' });
    expect(r.errors).toEqual([]);
    expect(r.stdout).not.toMatch(/build #99 \(/);
    expect(r.outputs['build-num']).toBe('1');
  });
});

describe('a log file that cannot be written is a warning, never a bare error after a start', () => {
  it('RUNNER_TEMP gone: the build is watched to its end, its id, conclusion and link in the outputs', async () => {
    pipeline(QUICK);
    const gone = join(tmpdir(), `bkci-gone-${process.pid}`);
    await rm(gone, { recursive: true, force: true });
    const r = await start({ retries: '0' }, w.clock, { RUNNER_TEMP: gone });
    // The data file fails there too, as data-file does: after the build's outcome, never instead of it.
    failedWith(r, /^bk-ci start-build failed: build #1 \(b-\w+\): SUCCEED after .*, but could not write the data file/);
    expect(r.outputs.conclusion).toBe('success');
    expect(r.outputs['build-id']).toMatch(/^b-/);
    expect(r.outputs['log-file']).toBeUndefined();
    expect(r.stdout).toMatch(/^::warning::the log file .* could not be written \(ENOENT\)/m);
    expect(starts()).toBe(1);
  });
});

describe('"may have started" only when the start was sent and its answer lost', () => {
  it.each([
    ['answers 404', { kind: 'status', status: 404, body: 'not found', contentType: 'text' }],
    ['drops the connection', { kind: 'reset' }],
  ] as const)('the token endpoint %s before the start is sent: "did not start", no history to search', async (_, fault) => {
    pipeline(QUICK);
    w.emu.faults.add({ pattern: /token\/get$/, fault });
    const r = await start({ retries: '0' });
    expect(r.code).toBe(1);
    expect(starts()).toBe(0);
    expect(r.stdout).not.toMatch(/may have started|may run twice/);
    expect(w.emu.requests({ path: '/build_histories' })).toHaveLength(0);
  });

  it.each([
    ['a plain 404', { body: '404 page not found', contentType: 'text' }],
    ['a 404 from another front door (the API gateway)', { body: '{"code":1640401,"code_name":"API_NOT_FOUND","message":"API not found"}' }],
  ] as const)('build_start answered with %s: the answer says it did not start', async (_, answer) => {
    pipeline(QUICK);
    w.emu.faults.add({ pattern: /build_start$/, fault: { kind: 'status', status: 404, ...answer } });
    const r = await start({ retries: '0' });
    failedWith(r, /404/);
    expect(r.errors.join('\n')).not.toMatch(/may have started|may run twice/);
    expect(r.outputs.conclusion).toBe('failure');
  });

  it('an answer lost after the start was sent still says "may have started" (control)', async () => {
    pipeline(QUICK);
    w.emu.faults.add({ pattern: /build_start$/, fault: { kind: 'reset' } });
    const r = await start({ retries: '0' });
    expect(r.errors.join('\n')).toMatch(/may have started/);
  });
});

describe('live-log gaps are given up together', () => {
  it('a 16 s build whose every third line is DEBUG (never in the query): most lines show while it runs, not 27 of 198', async () => {
    const lines = Array.from({ length: 198 }, (_, i) => ({
      at: 100 + i * 80,
      step: 'e-compile',
      text: `line ${i + 1}`,
      ...(i % 3 === 2 ? { debug: true } : {}),
    }));
    pipeline({ phases: [{ status: 'RUNNING', ms: 16_000 }], logs: { steps: STEPS, lines } });
    const r = await start({ retries: '0' });
    expect(r.errors).toEqual([]);
    const out = r.stdout.split('\n');
    const end = out.findIndex((l) => /: SUCCEED/.test(l));
    const whileRunning = out.slice(0, end).filter((l) => /^line \d+$/.test(l)).length;
    const all = out.filter((l) => /^line \d+$/.test(l)).length;
    expect(all).toBe(132);
    // Lines older than the hold (6 s) at the end: about 10 s of the 16 s build.
    expect(whileRunning).toBeGreaterThanOrEqual(70);
  });
});

describe('a cancel with a review decision on its way, through dist/ as the runner runs it', () => {
  const installed = useInstalledAction({ beforeAll, afterAll });

  it('says the approval may have been applied, not a plain "cancelled"', async () => {
    await reopen({ realTime: true });
    pipeline({
      stages: ['Build', 'Release'],
      phases: [
        { status: 'RUNNING', ms: 50, stage: 'Build' },
        { status: 'STAGE_SUCCESS', stage: 'Release', review: { groups: [{ name: 'QA', reviewers: ['alice'] }] } },
        { status: 'RUNNING', ms: 50, stage: 'Release' },
      ],
    });
    const base = { 'base-url': w.emu.url, 'bk-token': w.bkToken, 'project-id': 'demo', 'pipeline-id': 'p-app', retries: '0', logs: 'none' };
    const started = await runStep(installed(), { inputs: { ...base, operation: 'start-build', wait: 'false' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    w.emu.faults.add({ method: 'POST', pattern: /manual_start_build_stage$/, fault: { kind: 'hang' } });
    const r = await runStep(installed(), {
      inputs: { ...base, operation: 'review-build', 'build-id': started.outputs['build-id'] ?? '', decision: 'approve', wait: 'false' },
      onSpawn: (kill) => {
        const timer = setInterval(() => {
          if (w.emu.requests({ path: '/manual_start_build_stage' }).length > 0) {
            clearInterval(timer);
            kill('SIGINT');
          }
        }, 10);
      },
    });
    failedWith(
      r,
      /^bk-ci review-build failed: cancelled after .* while POST http:\/\/.*\/manual_start_build_stage was on its way: bk-ci may have applied it; check before running the step again$/,
    );
  });
});
