// A sample of the README's examples through the built action, as the runner starts it: the first
// one of each family (request, builds, projects, callbacks, tokens, re-signing, the gateway, the
// build's files). What
// needs the process here is the step as a workflow runs it: the inputs as INPUT_ variables, dist/
// loaded without node_modules, the real clock of its waits. Every example, this sample included,
// runs in process in test/run/readme-examples.test.ts, from the same extraction
// (test/support/readme-examples.ts), so an example edited in a page is tested there whatever its family.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStep, useInstalledAction } from '../support/dist-runner.ts';
import {
  cannotRun,
  type Example,
  examples,
  expectRanAsWritten,
  inputsOf,
  readmeWorld,
  viaGateway,
  withOf,
} from '../support/readme-examples.ts';

const action = useInstalledAction({ beforeAll, afterAll });

/** The family of an operation; the gateway is a family of its own, whatever it calls. */
const FAMILY: Record<string, string> = {
  'start-build': 'builds',
  'build-status': 'builds',
  'review-build': 'builds',
  'retry-build': 'builds',
  'get-project': 'projects',
  'list-projects': 'projects',
  'create-project': 'projects',
  'update-project': 'projects',
  'create-callbacks': 'callbacks',
  'get-token': 'tokens',
  'sign-detail': 're-signing',
};
const familyOf = (e: Example): string => {
  const operation = String(withOf(e)?.operation);
  // The build's files in the runner are a family of their own, whichever operation brings them.
  if (withOf(e)?.download !== undefined || operation === 'download-artifacts') return viaGateway(e) ? 'gateway' : 'download';
  return viaGateway(e) ? 'gateway' : (FAMILY[operation] ?? operation);
};

/** The first example of each family that can run here. */
const firsts = new Map<string, Example>();
for (const e of await examples()) if (cannotRun(e) === undefined && !firsts.has(familyOf(e))) firsts.set(familyOf(e), e);
const sample = [...firsts.values()];

describe.concurrent('a sample of the examples in README.md and docs/, through the built action', () => {
  it('has one of each family', () => {
    expect(sample.map(familyOf).sort()).toEqual([
      'builds',
      'callbacks',
      'download',
      'gateway',
      'projects',
      're-signing',
      'request',
      'tokens',
    ]);
  });

  for (const e of sample) {
    it(`${e.title}: ${String(withOf(e)?.operation)}`, async ({ expect, onTestFinished }) => {
      const w = await readmeWorld({ gateway: viaGateway(e), realTime: true });
      onTestFinished(() => w.world.emu.close());
      const r = await runStep(action(), { inputs: inputsOf(e, w) });
      expectRanAsWritten(expect, e, r);
    });
  }
});
