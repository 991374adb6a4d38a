// Inputs under names the action does not know, through the built action: the runner passes every
// `with:` entry as an INPUT_ variable whatever its name, and only a process shows that the step
// finds them in its real environment. Every other real-cause case (a wrong base-url, the wrong
// front door, slips refused, a timeout without a unit) runs in process in test/run/real-cause.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStep, useInstalledAction } from '../support/dist-runner.ts';
import { worldForTest } from '../support/world.ts';

const action = useInstalledAction({ beforeAll, afterAll });

const warnings = (stdout: string): string[] => [...stdout.matchAll(/^::warning::(.*)$/gm)].map((m) => m[1] ?? '');

describe('inputs under names the action does not know', () => {
  it('a name near nothing the operation misses is a warning with the nearest known name, and the step runs', async (test) => {
    const w = await worldForTest({ realTime: true }, test);
    const r = await runStep(action(), {
      inputs: { ...w.connection(), operation: 'get-project', 'poll-intervall': '10s', colour: 'blue' },
    });
    expect(r.code, r.stdout).toBe(0);
    expect(warnings(r.stdout)).toEqual([
      'poll-intervall is not an input of this action, so it was ignored: did you mean poll-interval? (the runner passed it as INPUT_POLL-INTERVALL)',
      'colour is not an input of this action, so it was ignored: action.yml lists the inputs there are (the runner passed it as INPUT_COLOUR)',
    ]);
  });
});
