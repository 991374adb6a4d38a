// A property over run() in this process: whatever a server answers (status line, headers, body),
// the step never prints a runner command, never crashes, and never shows a secret. stdout and
// stderr are captured behind the action's writer (src/runner/streams.ts), the same one the built
// action puts in front of its streams; the hardest answers also run through dist/
// (test/dist/hostile-property.test.ts).
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../support/fake-clock.ts';
import { answer, expectNothingLeaked, HARDEST, hostileInputs, serveAnswer } from '../support/hostile-answers.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';

afterAll(cleanupRuns);

describe('random server answers, run() in process', () => {
  it('never print a runner command, never crash the step, never show a secret', async () => {
    await fc.assert(
      fc.asyncProperty(answer, async (a) => {
        const server = await serveAnswer(a);
        try {
          await expectNothingLeaked(await runInProcess({ inputs: hostileInputs(server.url), clock: new FakeClock() }), expect);
        } finally {
          await server.close();
        }
      }),
      { numRuns: 30, examples: HARDEST.map((a) => [a]) },
    );
  }, 120_000);
});
