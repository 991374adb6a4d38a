// The built action (dist/ without node_modules), as the runner runs it, against the emulator in
// real time: a log that hangs after the build's end costs one log read, not the step's timeout; a
// file list whose pages repeat keeps the files seen; a start whose token cannot be had says that
// nothing was started; one large variable is left out of its output by name. The behaviour is
// tested in process (test/run/build-side-roads.test.ts, unsent-writes.test.ts, build-outputs.test.ts);
// this is each through the process a runner starts.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { repeatFirstPage } from '../support/artifact-pages.ts';
import { runStep, unescapeData, useInstalledAction } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { type World, worldForTest } from '../support/world.ts';

const action = useInstalledAction({ beforeAll, afterAll });
const STEPS = [{ tag: 'e-compile', jobId: 'build', stepId: 'compile', containerHashId: 'c-build' }];
/** start-build of p-app as the runner runs it, polled once a second. */
const startBuild = (w: World, inputs: Record<string, string>) =>
  runStep(action(), { inputs: { operation: 'start-build', ...w.connection(), 'pipeline-id': 'p-app', 'poll-interval': '1s', ...inputs } });
const warnings = (stdout: string): string[] => [...stdout.matchAll(/^::warning::(.*)$/gm)].map((m) => unescapeData(m[1] ?? ''));

describe.concurrent('the built action, on the side roads', () => {
  it('a log that hangs after the end: the step ends one log read after the end, the variables read, not held to its 30m timeout', async ({
    expect,
    onTestFinished,
  }) => {
    const w = await worldForTest({ realTime: true }, { onTestFinished });
    w.pipeline({
      phases: [{ status: 'RUNNING', ms: 1500 }],
      variables: { VERSION: '2.3.4' },
      logs: { steps: STEPS, lines: [{ at: 50, step: 'e-compile', text: 'compiling' }] },
    });
    // Once the step has seen the end, every log read hangs.
    let ended = false;
    const echo = (chunk: string) => {
      if (ended || !/: SUCCEED$/m.test(chunk)) return;
      ended = true;
      w.emu.faults.add({ pattern: /after_line_logs$/, times: Infinity, fault: { kind: 'hang' } });
    };
    const r = await runStep(action(), {
      // One log read after the end, over in 2 s here (before this round, reads one after another for 30 s).
      inputs: {
        operation: 'start-build',
        ...w.connection(),
        'pipeline-id': 'p-app',
        'poll-interval': '1s',
        'request-timeout': '2s',
        retries: '0',
        variables: 'VERSION',
      },
      echo,
    });
    expect(r.errors).toEqual([]);
    expect(r.outputs).toMatchObject({ conclusion: 'success', variables: '{"VERSION":"2.3.4"}' });
    expect(warnings(r.stdout).join('\n')).toMatch(/reading the build's log after its end failed .*; its last lines may be missing/);
    // The end is seen 2 s in; a pause, one log read, and no other: the step is not held on.
    expect(r.durationMs).toBeLessThan(9000);
  });

  it('file_info pages that repeat: the files seen are the artifacts output, with a warning', async ({ expect, onTestFinished }) => {
    const w = await worldForTest({ realTime: true }, { onTestFinished });
    w.pipeline({ phases: [{ status: 'RUNNING', ms: 300 }], artifacts: [{ path: 'app/App.ipa', size: 1 }] });
    repeatFirstPage(w.emu);
    const r = await startBuild(w, { logs: 'none', artifacts: 'true' });
    expect(r.errors).toEqual([]);
    expect(JSON.parse(r.outputs.artifacts ?? '[]')).toHaveLength(100);
    expect(warnings(r.stdout)).toContain(
      `the build's artifacts may be incomplete: page 2 brought nothing that earlier pages had not (100 items seen before), so the server ignores "page"; stopped after 2 requests; 100 read`,
    );
  });

  it('the token endpoint answering 503 before the start: "nothing was started", in the message, the summary and the outputs', async ({
    expect,
    onTestFinished,
  }) => {
    const w = await worldForTest({ realTime: true }, { onTestFinished });
    w.pipeline({ phases: [{ status: 'RUNNING', ms: 300 }] });
    w.emu.faults.add({
      pattern: /token\/get$/,
      times: Infinity,
      fault: { kind: 'status', status: 503, contentType: 'text', body: 'down' },
    });
    const r = await startBuild(w, { retries: '0' });
    failedWith(
      r,
      /^bk-ci start-build failed: nothing was started: POST http:\/\/.*\/build_start was never sent: getting an access token for it failed: .*HTTP 503: down$/,
      expect,
    );
    expect(r.summary).toMatch(/^### ❌ bk-ci start-build: nothing was started$/m);
    expect(r.summary).toContain('| Started | no: the start was never sent |');
    expect(r.outputs).toMatchObject({ 'build-id': '', conclusion: 'failure' });
    expect(w.emu.requests({ path: '/build_start' })).toHaveLength(0);
  });

  it('one large variable is left out of the variables output by name; the small ones are kept', async ({ expect, onTestFinished }) => {
    const w = await worldForTest({ realTime: true }, { onTestFinished });
    w.pipeline({ phases: [{ status: 'RUNNING', ms: 300 }], variables: { VERSION: '2.3.4', NOTES: 'n'.repeat(70 * 1024), TAG: 'v2.3.4' } });
    const r = await startBuild(w, { logs: 'none', variables: 'VERSION, NOTES, TAG' });
    expect(r.errors).toEqual([]);
    expect(JSON.parse(r.outputs.variables ?? '')).toEqual({ VERSION: '2.3.4', TAG: 'v2.3.4' });
    expect(warnings(r.stdout)).toContain(
      'the variables output leaves out 1 of its 3 entries, the largest, to stay within 64 KiB: NOTES (70 KiB); the other 2 are kept',
    );
  });
});
