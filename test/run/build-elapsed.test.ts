// How long a build took, as the step says it: the build's time up to the poll that saw its end,
// and the time spent reading the rest of its log after that said apart. run() in this process
// against the emulator, on the clock the step and the emulator share.
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { useWorld } from '../support/world.ts';

afterAll(cleanupRuns);

const w = useWorld();

const STEPS = [{ tag: 'e-compile', jobId: 'build', stepId: 'compile', containerHashId: 'c-build' }];

const start = (inputs: Record<string, string> = {}) =>
  runInProcess({
    inputs: { ...w.connection(), operation: 'start-build', 'pipeline-id': 'p-app', 'poll-interval': '1s', retries: '0', ...inputs },
    clock: w.clock,
  });

describe('elapsed', () => {
  it("is the build's, up to the poll that saw its end; reading the rest of the log is said apart", async () => {
    // Running 3 s: the poll at 3 s sees the end; two lines come after it, the second searchable
    // only 1.5 s after it was written.
    const lines = ['while running', 'written after the end', 'searchable later still'];
    const at = [500, 3300, 3600];
    w.pipeline({
      phases: [{ status: 'RUNNING', ms: 3000 }],
      logs: {
        steps: STEPS,
        lines: lines.map((text, i) => ({ at: at[i] ?? 0, step: 'e-compile', text, ...(i === 2 ? { lagMs: 1500 } : {}) })),
      },
    });
    const r = await start();
    expect(r.errors).toEqual([]);
    expect(r.stdout).toMatch(/^searchable later still$/m);
    expect(r.outputs).toMatchObject({ 'build-status': 'SUCCEED', polls: '4', elapsed: '3' });
    expect(r.stdout).toMatch(/^build #1 \(b-\w+\): SUCCEED after 3s, 4 polls$/m);
    expect(r.stdout).toMatch(/^read the rest of the build's log for [1-9][\d.]*s after its end$/m);
    expect(r.summary).toMatch(/\| Elapsed \| 3s \|/);
    expect(r.summary).toMatch(/\| Log read after the end \| [1-9][\d.]*s \|/);
  });

  it('no log read after the end (logs: none): no time said apart', async () => {
    w.pipeline({
      phases: [{ status: 'RUNNING', ms: 3000 }],
      logs: { steps: STEPS, lines: [{ at: 1000, step: 'e-compile', text: 'during' }] },
    });
    const r = await start({ logs: 'none' });
    expect(r.outputs).toMatchObject({ 'build-status': 'SUCCEED', elapsed: '3' });
    expect(r.stdout).not.toMatch(/read the rest of the build's log/);
    expect(r.summary).not.toMatch(/Log read after the end/);
  });
});
