// A start is never sent twice and never lost: when bk-ci's answer to build_start is lost after
// the build exists, the step finds its own build by its message and goes on; when no build turns
// up, it says the build may have started. run() in-process against the emulator, which counts starts.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Flavour } from '../../emulator/wire.ts';
import type { StepResult } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { useWorld } from '../support/world.ts';

const GITHUB = {
  GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
  GITHUB_REPOSITORY: 'octo/app',
  GITHUB_REF_NAME: 'v1.10',
  GITHUB_SERVER_URL: 'https://github.example.com',
  GITHUB_RUN_ID: '555',
  GITHUB_RUN_ATTEMPT: '1',
  GITHUB_JOB: 'release',
};
const LOST = [
  ['the connection reset after bk-ci took it', { kind: 'reset' }],
  ["a gateway's 504 (HTML) after bk-ci took it", { kind: 'status', status: 504, contentType: 'html' }],
  ['a 500 after bk-ci took it', { kind: 'status', status: 500 }],
  ['the answer cut half-way', { kind: 'cut', bytes: 12 }],
  ['no answer within request-timeout', { kind: 'hang' }],
] as const;

/** The BlueKing API Gateway's app credentials, as the emulator's gateway takes them. */
const APIGW_APP = {
  gateway: 'bk-apigateway',
  'app-code': 'ci-app',
  'app-secret': 'app-secret-0001',
  'console-url': 'https://devops.example.com',
};

afterAll(cleanupRuns);

describe.each<[string, Flavour, boolean]>([
  ["bk-ci's gateway", 'bkci', false],
  ['the spec', 'spec', false],
  ['the BlueKing API Gateway', 'bkci', true],
])('a lost answer to the start, %s', (_name, flavour, apigw) => {
  const w = useWorld({ flavour, ...(apigw ? { gateway: {} } : {}) });
  beforeEach(() => {
    w.pipeline({ phases: [{ status: 'RUNNING', ms: 3000 }] });
  });
  const credentials = (): Record<string, string> => (apigw ? { ...APIGW_APP, 'user-id': 'alice' } : { 'bk-token': w.bkToken });
  const start = (inputs: Record<string, string> = {}): Promise<StepResult> =>
    runInProcess({
      inputs: {
        operation: 'start-build',
        'base-url': w.emu.url,
        ...credentials(),
        'project-id': 'demo',
        'pipeline-id': 'p-app',
        'poll-interval': '1s',
        'request-timeout': '1s',
        retries: '3',
        ...inputs,
      },
      clock: w.clock,
      processEnv: GITHUB,
      env: GITHUB,
    });
  const starts = () => w.emu.requests({ method: 'POST', path: '/build_start' });

  it.each(LOST)('%s: not sent again; its own build found by its message, waited for to the end', async (_what, fault) => {
    w.emu.faults.add({ pattern: /build_start$/, after: true, fault });
    const r = await start();
    expect(r.errors).toEqual([]);
    expect(starts()).toHaveLength(1);
    expect(w.emu.builds.builds.size).toBe(1);
    const [build] = w.emu.builds.builds.values();
    expect(r.outputs).toMatchObject({ 'build-id': build?.id, 'build-num': '1', 'build-status': 'SUCCEED', conclusion: 'success' });
    expect(r.stdout).toMatch(
      /^the answer to the start was lost \(.+\); looking for the build by this step's message instead of starting it again$/m,
    );
    expect(r.stdout).toMatch(new RegExp(`^found the build this step started in the pipeline's history: #1 \\(${build?.id}\\)$`, 'm'));
    const histories = w.emu.requests({ path: '/build_histories' });
    expect(new URLSearchParams(histories[0]?.query).get('buildMsg')).toMatch(
      /^GitHub octo\/app run 555 job release \(p-app, params [0-9a-f]{8}\) attempt 1 \[/,
    );
  });

  it('no build turned up: the step says the build may have started, with the message and where to look', async () => {
    w.emu.faults.add({ pattern: /build_start$/, fault: { kind: 'reset' } });
    const r = await start();
    expect(starts()).toHaveLength(1);
    expect(w.emu.builds.builds.size).toBe(0);
    failedWith(
      r,
      /^bk-ci start-build failed: the build may have started: the answer to the start was lost \(.+\), and no build with this step's message turned up in the pipeline's history within 20s\. Before running this step again, look in the pipeline's history \(https?:\/\/[^)]+\/console\/pipeline\/demo\/p-app\/history\) for a build with the message "GitHub octo\/app run 555 job release \(p-app, params [0-9a-f]{8}\) attempt 1 \[[0-9a-f-]+\]", or the pipeline may run twice\.$/,
    );
    expect(r.outputs).toMatchObject({ 'build-id': '', conclusion: 'failure' });
    expect(r.summary).toMatch(/\| Build message \| GitHub octo\/app run 555/);
    expect(w.emu.requests({ path: '/build_histories' }).length).toBeLessThanOrEqual(5);
  });

  it('a history that cannot be read: the step says the build may have started and why the search failed', async () => {
    w.emu.faults.add({ pattern: /build_start$/, after: true, fault: { kind: 'reset' } });
    w.emu.faults.add({ pattern: /build_histories$/, times: Infinity, fault: { kind: 'status', status: 403 } });
    const r = await start();
    failedWith(
      r,
      /the build may have started: the answer to the start was lost \(.+\), and looking for it in the pipeline's history failed: .*HTTP 403/,
    );
    expect(starts()).toHaveLength(1);
    expect(w.emu.builds.builds.size).toBe(1);
    expect(r.outputs.conclusion).toBe('failure');
  });

  it('two runs of one commit, two jobs with the same variables: each finds only its own build', async () => {
    const first = await start();
    expect(first.errors).toEqual([]);
    w.emu.faults.add({ pattern: /build_start$/, after: true, fault: { kind: 'reset' } });
    const second = await start();
    expect(second.errors).toEqual([]);
    expect(starts()).toHaveLength(2);
    expect(second.outputs['build-id']).not.toBe(first.outputs['build-id']);
    expect(second.outputs['build-num']).toBe('2');
  });

  it('build-params that set BK_CI_BUILD_MSG: a lost answer is not resolved by guessing', async () => {
    w.emu.faults.add({ pattern: /build_start$/, after: true, fault: { kind: 'reset' } });
    const r = await start({ 'build-params': 'BK_CI_BUILD_MSG: release 1.10' });
    failedWith(
      r,
      /the build may have started: .*build-params sets BK_CI_BUILD_MSG itself, so the action cannot tell the build it started from others with that message/,
    );
    expect(starts()).toHaveLength(1);
    expect(w.emu.requests({ path: '/build_histories' })).toHaveLength(0);
  });
});
