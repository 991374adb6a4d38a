// Whose check run a step takes over (only its build's, by external_id), where Details goes (the
// build's page as soon as the step knows it) and how the check reads (short titles, ids and codes
// copied as they are): run() in this process against the bk-ci emulator and its GitHub side.
import { afterAll, describe, expect, it } from 'vitest';
import { seen } from '../support/github-markdown.ts';
import { useGitHub } from '../support/github-world.ts';
import { cleanupRuns } from '../support/in-process.ts';
import { useWorld } from '../support/world.ts';

const w = useWorld();
const github = useGitHub(w);
afterAll(cleanupRuns);

const step = github.step({ 'poll-interval': '1s' });
const start = (inputs: Record<string, string> = {}, env: Record<string, string> = {}) =>
  step({ operation: 'start-build', 'pipeline-id': 'p-app', ...inputs }, env);
const runOf = (r: { outputs: Record<string, string> }) => github.gh.runs.find((c) => String(c.id) === r.outputs['check-run-id']);

describe('a check run is taken over only when it is this build’s', () => {
  it('build-status of a finished build B never completes the in-progress check of build A of the same name: B gets its own', async () => {
    w.pipeline({ name: 'App', phases: [{ status: 'RUNNING', ms: 3_600_000, stage: 'Build' }] });
    const a = await start({ wait: 'false' });
    expect(github.gh.runs).toHaveLength(1);
    const b = w.emu.seedBuild({ pipelineId: 'p-app', status: 'SUCCEED' });
    const r = await step({ operation: 'build-status', 'build-id': b.id, 'pipeline-id': 'p-app' });
    expect(r.outputs.conclusion).toBe('success');
    expect(r.stdout).not.toMatch(/took over/);
    expect(github.gh.runs).toHaveLength(2);
    expect(runOf(a)).toMatchObject({ status: 'in_progress', external_id: a.outputs['build-id'] });
    expect(runOf(r)).toMatchObject({ status: 'completed', conclusion: 'success', external_id: b.id });
  });

  it('retry-build of build B (a door not listed) neither: its own check, A’s left as it is', async () => {
    w.pipeline({ name: 'App', phases: [{ status: 'RUNNING', ms: 3000, stage: 'Build' }], result: 'FAILED', retryResult: 'SUCCEED' });
    const b = w.emu.seedBuild({ pipelineId: 'p-app', status: 'FAILED' });
    const a = await start({ wait: 'false' });
    const r = await step({ operation: 'retry-build', 'build-id': b.id });
    expect(r.outputs).toMatchObject({ conclusion: 'success', 'execute-count': '2' });
    expect(runOf(a)?.status).toBe('in_progress');
    expect(runOf(r)).toMatchObject({ status: 'completed', conclusion: 'success', external_id: b.id });
  });

  it('a re-run following the build an earlier attempt left its check in progress on takes that check over: one check', async () => {
    w.pipeline({ name: 'App', phases: [{ status: 'RUNNING', ms: 20_000, stage: 'Build' }] });
    const run = { GITHUB_RUN_ID: '555', GITHUB_JOB: 'release', GITHUB_REF: 'refs/heads/main' };
    const first = await start({ wait: 'false' }, { ...run, GITHUB_RUN_ATTEMPT: '1' });
    const second = await start({}, { ...run, GITHUB_RUN_ATTEMPT: '2' });
    expect(second.outputs).toMatchObject({ rerun: 'followed', conclusion: 'success', 'check-run-id': first.outputs['check-run-id'] });
    expect(second.stdout).toMatch(/check: took over the check run "bk-ci App" \(\d+\) of build b-\w+ on 1111111/);
    expect(github.gh.runs).toHaveLength(1);
    expect(github.gh.runs[0]).toMatchObject({ status: 'completed', conclusion: 'success' });
  });

  it('wait: false, then build-status: the same check completed, found by the build id', async () => {
    w.pipeline({ name: 'App', phases: [{ status: 'RUNNING', ms: 20_000, stage: 'Build' }] });
    const first = await start({ wait: 'false' });
    const later = await step({ operation: 'build-status', 'build-id': first.outputs['build-id'] ?? '' });
    expect(later.outputs['check-run-id']).toBe(first.outputs['check-run-id']);
    expect(github.gh.runs).toHaveLength(1);
    expect(github.gh.received.filter((q) => q.method === 'GET')[0]?.path).toMatch(/check_name=bk-ci(\+|%20)App/);
  });
});

describe('Details leads to the build', () => {
  it.each([
    ['build-status', {}],
    ['retry-build', { retry: 'all' }],
  ])('%s without pipeline-id: details_url is the build’s page once bk-ci names the pipeline', async (operation, extra) => {
    w.pipeline({ name: 'App', phases: [{ status: 'RUNNING', ms: 3000, stage: 'Build' }], result: 'FAILED', retryResult: 'SUCCEED' });
    const b = w.emu.seedBuild({ pipelineId: 'p-app', status: operation === 'retry-build' ? 'FAILED' : 'RUNNING', runMs: 3000 });
    const r = await step({ operation, 'build-id': b.id, ...extra });
    expect(r.outputs['build-url']).toMatch(/\/console\/pipeline\/demo\/p-app\/detail\/b-/);
    expect(runOf(r)?.details_url).toBe(r.outputs['build-url']);
    // Set with the first write, not only the last.
    expect(github.writes()[0]?.body.details_url).toBe(r.outputs['build-url']);
  });
});

describe('the check’s words', () => {
  it('a short title; the build id and error codes in the check exactly as bk-ci has them, nothing invisible in any body', async () => {
    w.pipeline({
      name: 'App',
      phases: [{ status: 'RUNNING', ms: 3000, stage: 'Build' }],
      result: 'FAILED',
      errorInfoList: [{ taskName: 'Compile', errorCode: 2199001, errorMsg: 'exit 2 (see b-0123456789abcdef and #12)' }],
    });
    const r = await start();
    const run = runOf(r);
    expect(run?.output.title).toBe('Build #1 failed');
    const id = r.outputs['build-id'] ?? '';
    expect(seen(run?.output.summary ?? '')).toContain(`Build #1 ${id} failed`);
    expect(seen(run?.output.text ?? '')).toContain('2199001: exit 2 (see b-0123456789abcdef and #12)');
    for (const q of github.gh.received) expect(q.body).not.toMatch(/\u200b|\\u200b/);
  });
});
