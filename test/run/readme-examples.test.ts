// Every example of the action in README.md and the pages under docs/ runs, as written, against
// the emulator: run() in this process on the shared clock, so a build's wait costs no real time.
// The examples are read FROM those pages (test/support/readme-examples.ts): a step added there
// later is run here too. The shell steps around them (`run:`) are not run; the outputs they read
// from the action's step (`steps.<id>.outputs.<name>`) must be set. What the test changes is said
// by explicit rules (EXPRESSIONS, the two inputs it points elsewhere) and what it cannot run is
// skipped by a rule with its reason in the test's name. test/dist/readme-examples.test.ts runs a
// sample of them through the built action.
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { cannotRun, examples, expectRanAsWritten, inputsOf, readmeWorld, viaGateway, withOf } from '../support/readme-examples.ts';

afterAll(cleanupRuns);

const all = await examples();

describe('every example of the action in README.md and docs/ runs against the emulator', () => {
  it('finds the examples: request, builds, projects, callbacks, tokens, re-signing, the gateway', () => {
    const operations = new Set(all.map((e) => withOf(e)?.operation));
    for (const o of ['request', 'start-build', 'sign-detail', 'create-project', 'update-project', 'create-callbacks', 'get-token'])
      expect(operations).toContain(o);
    expect(all.filter((e) => withOf(e)?.operation === 'request')).toHaveLength(3);
  });

  for (const e of all) {
    const skip = cannotRun(e);
    if (skip !== undefined) {
      it.skip(`${e.title}: not run, because ${skip}`, () => undefined);
      continue;
    }
    it(`${e.title}: ${String(withOf(e)?.operation)}`, async () => {
      // Its own front door when it asks for one: the BlueKing API Gateway in front of the emulator.
      const w = await readmeWorld({ gateway: viaGateway(e) });
      onTestFinished(() => w.world.emu.close());
      const r = await runInProcess({ inputs: inputsOf(e, w), clock: w.world.clock });
      expectRanAsWritten(expect, e, r);
    });
  }
});
