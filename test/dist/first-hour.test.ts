// A newcomer's first hour, where only processes show it: an input under a name the action does
// not know reaches the step only as an INPUT_ variable of its real environment (the runner passes
// every `with:` entry so, whatever its name). `npm start` as the README says to run it, and what
// it leaves in the temporary directory, is test/dist/npm-start.test.ts's. The mistakes of the
// first hour, the outputs each operation sets and the other real causes
// (test/run/real-cause.test.ts) run in process in test/run/.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { z } from 'zod';
import { runStep, useInstalledAction } from '../support/dist-runner.ts';
import { REVIEW_PIPELINE } from '../support/review-pipeline.ts';
import { worldForTest } from '../support/world.ts';

const action = useInstalledAction({ beforeAll, afterAll });

const warnings = (stdout: string): string[] => [...stdout.matchAll(/^::warning::(.*)$/gm)].map((m) => m[1] ?? '');

describe.concurrent('inputs under names the action does not know', () => {
  it('a name near nothing the operation misses is a warning with the nearest known name, and the step runs', async (test) => {
    const w = await worldForTest({ realTime: true }, test);
    const r = await runStep(action(), {
      inputs: { ...w.connection(), operation: 'get-project', 'poll-intervall': '10s', colour: 'blue' },
    });
    test.expect(r.code, r.stdout).toBe(0);
    test
      .expect(warnings(r.stdout))
      .toEqual([
        'poll-intervall is not an input of this action, so it was ignored: did you mean poll-interval? (the runner passed it as INPUT_POLL-INTERVALL)',
        'colour is not an input of this action, so it was ignored: action.yml lists the inputs there are (the runner passed it as INPUT_COLOUR)',
      ]);
  });
});

// The words of the first hour as a user meets them: a step or two each through the built action, side
// by side. Every case of each (every build operation, each slip) runs in process in test/run/.
describe.concurrent('the cause and the fix, said by the built action', () => {
  const errorsOf = (stdout: string): string[] => [...stdout.matchAll(/^::error::(.*)$/gm)].map((m) => m[1] ?? '');

  it('a base-url ending in /ms: refused before any request, with the address to give', async (test) => {
    const w = await worldForTest({ realTime: true }, test);
    const r = await runStep(action(), {
      inputs: { ...w.connection(), 'base-url': `${w.emu.url}/ms/`, operation: 'start-build', 'pipeline-id': 'p-demo' },
    });
    test.expect(r.code).toBe(1);
    test
      .expect(errorsOf(r.stdout).join('\n'))
      .toMatch(/base-url ends in \/ms, but the action adds \/ms\/… itself .*: give bk-ci's address without it/);
    test.expect(r.stdout).not.toMatch(/not found|check pipeline-id/);
    test.expect(w.emu.requests()).toEqual([]);
  });

  it('a YAML slip in build-params gets an example of NAME: value, and nothing is sent', async (test) => {
    const w = await worldForTest({ realTime: true }, test);
    const r = await runStep(action(), {
      inputs: { ...w.connection(), operation: 'start-build', 'pipeline-id': 'p-demo', 'build-params': 'APP_VERSION:1.10' },
    });
    test.expect(r.code).toBe(1);
    test.expect(r.stdout).toContain('("APP_VERSION:1.10" reads as a single word), e.g.%0A  APP_VERSION: 1.10%0ANo request was sent.');
    test.expect(w.emu.requests()).toEqual([]);
  });

  it('build-status names the build by its number, never "pipeline ?", and tells bk-ci\'s 参数校验失败 in words', async (test) => {
    const w = await worldForTest({ realTime: true }, test);
    w.pipeline(REVIEW_PIPELINE);
    const id = z.object({ data: z.object({ id: z.string() }) }).parse(JSON.parse(w.emu.builds.start('demo', 'p-review', 'alice', {}).body))
      .data.id;
    const [plain, wrong] = await Promise.all([
      runStep(action(), { inputs: { ...w.connection(), operation: 'build-status', 'build-id': id, wait: 'false', logs: 'none' } }),
      runStep(action(), {
        inputs: { ...w.connection(), operation: 'build-status', 'build-id': id, 'pipeline-id': 'p-other', wait: 'false', logs: 'none' },
      }),
    ]);
    test.expect(plain.code, plain.stdout).toBe(0);
    test.expect(plain.stdout).toContain(`build #1 (${id}) waits for review of stage 'Release' (group 'QA'): alice may approve it`);
    test.expect(plain.stdout + plain.summary).not.toContain('pipeline ?');
    test.expect(wrong.code).toBe(1);
    test
      .expect(errorsOf(wrong.stdout).join('\n'))
      .toMatch(
        /参数校验失败:PipelineId is invalid \(bk-ci's parameter check failed: the build is not one of pipeline-id's builds; check pipeline-id, or leave it out\)$/,
      );
  });

  it('a timeout without a unit is read as seconds, and the warning says how to write minutes', async (test) => {
    const w = await worldForTest({ realTime: true }, test);
    const r = await runStep(action(), { inputs: { ...w.connection(), operation: 'get-project', timeout: '30' } });
    test.expect(r.code, r.stdout).toBe(0);
    test
      .expect(warnings(r.stdout))
      .toEqual([
        'timeout: 30 has no unit, so it was read as 30 seconds; for 30 minutes write timeout: 30m (unlike timeout-minutes, a bare number here is seconds), or write 30s to keep seconds and not see this warning',
      ]);
  });
});
