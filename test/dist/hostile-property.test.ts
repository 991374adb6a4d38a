// Whatever a server answers (status line, headers, body), the step never prints a runner command,
// never crashes, and never shows a secret. The property's generated answers run in process
// (test/run/hostile-answers-property.test.ts: the same writer, src/runner/streams.ts); here the
// hardest of them run through the built action, because only a process shows what the runner
// reads: both real streams, the exit code, and Node's own output (stderr empty) around run().
// The answers are independent steps against servers of their own: they run at the same time.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { runStep, useInstalledAction } from '../support/dist-runner.ts';
import { expectNothingLeaked, HARDEST, hostileInputs, serveAnswer } from '../support/hostile-answers.ts';

const installed = useInstalledAction({ beforeAll, afterAll });

describe.concurrent('the hardest server answers, the built action', () => {
  it.for(HARDEST.map((a) => [`${a.status} ${JSON.stringify(a.reason)}`, a] as const))(
    '%s: never prints a runner command, never crashes the step, never shows a secret',
    async ([, a], { expect }) => {
      const server = await serveAnswer(a);
      try {
        await expectNothingLeaked(await runStep(installed(), { inputs: hostileInputs(server.url) }), expect);
      } finally {
        await server.close();
      }
    },
  );
});
