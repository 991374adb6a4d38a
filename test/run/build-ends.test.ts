// How a build ends, as bk-ci ends it, and the reviews it waits for: run() in-process against the
// emulator's builds (stage reviews with groups, manual-review steps, rejections, UNEXEC, SKIP, an
// answer about another build), on a clock that decides reviews at set times.
import { afterAll, describe, expect, it } from 'vitest';
import { decideByControl } from '../../emulator/review-decisions.ts';
import type { Flavour } from '../../emulator/wire.ts';
import type { StepResult } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { doorOptions, GATEWAY_APP, type PipelineSeed, reviewedPipeline, T0, useWorld, worldForTest } from '../support/world.ts';

afterAll(cleanupRuns);

/** The shared clock, with things that happen once it passes a time (a reviewer deciding). */
class ScriptedClock extends FakeClock {
  #due: { at: number; fn: () => void }[] = [];
  at(ms: number, fn: () => void): void {
    this.#due.push({ at: T0 + ms, fn });
  }
  override sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) return Promise.reject(new Error('aborted'));
    this.sleeps.push(ms);
    this.t += ms;
    for (const d of this.#due.filter((x) => x.at <= this.t)) {
      this.#due.splice(this.#due.indexOf(d), 1);
      d.fn();
    }
    return Promise.resolve();
  };
}

const FRONT_DOORS: [string, Flavour, boolean][] = [
  ["bk-ci's gateway", 'bkci', false],
  ['the spec', 'spec', false],
  ['the BlueKing API Gateway', 'bkci', true],
];

describe.each(FRONT_DOORS)('through %s', (_door, flavour, apigw) => {
  let clock: ScriptedClock;
  const w = useWorld({ ...doorOptions(apigw ? 'apigw' : flavour), clock: () => (clock = new ScriptedClock()) });
  const creds = (): Record<string, string> =>
    apigw ? { ...GATEWAY_APP, 'user-id': 'alice', 'console-url': 'https://devops.example.com' } : { 'bk-token': w.bkToken };
  const pipeline = (seed: PipelineSeed) => w.pipeline(seed);
  const start = (inputs: Record<string, string> = {}): Promise<StepResult> =>
    runInProcess({
      inputs: {
        operation: 'start-build',
        'base-url': w.emu.url,
        ...creds(),
        'project-id': 'demo',
        'pipeline-id': 'p-app',
        'poll-interval': '5s',
        timeout: '2h',
        retries: '0',
        ...inputs,
      },
      clock,
    });
  /** The build the step started: the emulator's only one. */
  const theBuild = (): string => [...w.emu.builds.builds.keys()][0] ?? '';
  const decide = (action: 'approve' | 'reject', user: string, suggest?: string) => () =>
    decideByControl(w.emu.builds, { buildId: theBuild(), action, user, ...(suggest === undefined ? {} : { suggest }) });

  const stageReview = (groups: { name: string; reviewers: string[] }[], timeout?: number) =>
    pipeline(reviewedPipeline({ groups, ...(timeout === undefined ? {} : { timeout }) }, 2000));

  describe('stage reviews', () => {
    it('says once per pause which group waits and who may approve; a second group is its own pause; approved, the build goes on', async () => {
      stageReview([
        { name: 'QA', reviewers: ['qa1'] },
        { name: 'Ops', reviewers: ['ops1', 'ops2'] },
      ]);
      clock.at(60_000, decide('approve', 'qa1', 'looks good'));
      clock.at(120_000, decide('approve', 'ops2'));
      const r = await start();
      expect(r.errors).toEqual([]);
      expect(r.stdout.match(/waits for review of stage 'Release' \(group 'QA'\): qa1 may approve it$/gm)).toHaveLength(1);
      expect(r.stdout.match(/waits for review of stage 'Release' \(group 'Ops'\): ops1, ops2 may approve it$/gm)).toHaveLength(1);
      expect(r.outputs).toMatchObject({ conclusion: 'success', reviewers: '[]', 'build-status': 'SUCCEED' });
      // The summary escapes Markdown: parentheses come as \( and \).
      expect(r.summary).toMatch(/\| stage 'Release' \(group 'QA'\) \| qa1 \| approved by qa1: looks good \|/);
      expect(r.summary).toMatch(/\| stage 'Release' \(group 'Ops'\) \| ops1, ops2 \| approved by ops2 \|/);
    });

    it('rejected by a reviewer: bk-ci ends the build STAGE_SUCCESS with an end time; the step fails, conclusion rejected, naming who and why', async () => {
      stageReview([{ name: 'QA', reviewers: ['qa1'] }]);
      clock.at(30_000, decide('reject', 'qa1', 'not today'));
      const r = await start();
      failedWith(
        r,
        /^bk-ci start-build failed: build #1 \(b-\w+\) of pipeline p-app was stopped by a rejected review: stage 'Release' was rejected by qa1: not today \(bk-ci shows such a build as STAGE_SUCCESS\)$/,
      );
      expect(r.outputs).toMatchObject({ conclusion: 'rejected', 'build-status': 'STAGE_SUCCESS' });
      expect(r.summary).toMatch(/\| Conclusion \| rejected \|/);
    });

    it('rejected by bk-ci when nobody decided within its timeout', async () => {
      stageReview([{ name: 'QA', reviewers: ['qa1'] }], 1);
      const r = await start({ 'poll-interval': '1m' });
      failedWith(
        r,
        /was stopped by a rejected review: stage 'Release' was rejected by bk-ci: nobody decided its review within its timeout \(1h\) \(bk-ci shows such a build as STAGE_SUCCESS\)$/,
      );
      expect(r.outputs.conclusion).toBe('rejected');
    });

    it('on-review: fail fails at once with conclusion waiting-review and the reviewers; the build is left waiting', async () => {
      stageReview([{ name: 'QA', reviewers: ['qa1', 'qa2'] }]);
      const r = await start({ 'on-review': 'fail' });
      failedWith(
        r,
        /^bk-ci start-build failed: build #1 \(b-\w+\) waits for review of stage 'Release' \(group 'QA'\): qa1, qa2 may approve it\. on-review: fail ends the step here; the build goes on waiting in bk-ci$/,
      );
      expect(r.outputs).toMatchObject({ conclusion: 'waiting-review', reviewers: '["qa1","qa2"]', 'build-status': 'STAGE_SUCCESS' });
      expect(r.summary).toMatch(/\| Waits for \| review of stage 'Release' \(group 'QA'\) by qa1, qa2 \|/);
      expect(w.emu.requests({ path: '/build_stop' })).toHaveLength(0);
    });

    it('wait: false during a pause: conclusion running, reviewers set', async () => {
      stageReview([{ name: 'QA', reviewers: ['qa1'] }]);
      const started = await start({ wait: 'false' });
      expect(started.outputs.conclusion).toBe('running');
      clock.t += 10_000;
      const r = await runInProcess({
        inputs: {
          operation: 'build-status',
          'base-url': w.emu.url,
          ...creds(),
          'project-id': 'demo',
          'build-id': theBuild(),
          wait: 'false',
        },
        clock,
      });
      expect(r.errors).toEqual([]);
      expect(r.outputs).toMatchObject({
        conclusion: 'running',
        reviewers: '["qa1"]',
        'build-status': 'STAGE_SUCCESS',
        'execute-count': '1',
      });
    });
  });

  describe('manual-review steps', () => {
    const reviewStep = () =>
      pipeline({
        stages: ['Build', 'Deploy'],
        jobs: { Deploy: [{ name: 'Gate', steps: [{ name: 'Approve release', stepId: 'approve', reviewers: ['amy', 'bo'] }] }] },
        phases: [
          { status: 'RUNNING', ms: 2000, stage: 'Build' },
          { status: 'RUNNING', stage: 'Deploy', step: 'Approve release' },
          { status: 'RUNNING', ms: 2000, stage: 'Deploy' },
        ],
      });

    it('the build stays RUNNING; the step is seen in the model within 30 s and said once; approved, the build goes on', async () => {
      reviewStep();
      clock.at(90_000, decide('approve', 'amy'));
      const r = await start();
      expect(r.errors).toEqual([]);
      const said = [...r.stdout.matchAll(/^(.*)waits for review of step 'Approve release' of stage 'Deploy': amy, bo may approve it$/gm)];
      expect(said).toHaveLength(1);
      expect(r.outputs.conclusion).toBe('success');
      expect(r.summary).toMatch(/\| step 'Approve release' of stage 'Deploy' \| amy, bo \| approved \|/);
    });

    it('rejected (ABORT): the build fails, and the step says the review was refused: conclusion rejected', async () => {
      reviewStep();
      clock.at(60_000, decide('reject', 'bo'));
      const r = await start();
      failedWith(r, /was stopped by a rejected review: step 'Approve release' was rejected \(bk-ci shows such a build as FAILED\)$/);
      expect(r.outputs.conclusion).toBe('rejected');
    });
  });

  describe("bk-ci's other ends", () => {
    it('UNEXEC with an end time (pushed out of a full queue, never ran) is a failure, not a wait until the timeout', async () => {
      pipeline({ phases: [{ status: 'QUEUE', ms: 3000 }], result: 'UNEXEC' });
      const r = await start();
      failedWith(r, /ended UNEXEC/);
      expect(r.outputs).toMatchObject({ conclusion: 'failure', 'build-status': 'UNEXEC' });
      expect(Number(r.outputs.polls)).toBeLessThan(5);
    });

    it('a failure bk-ci gave no error for names the first step its model shows failed', async () => {
      pipeline({ phases: [{ status: 'RUNNING', ms: 1000 }], result: 'FAILED', stages: ['Build', 'Release'] });
      failedWith(await start({ logs: 'none' }), /ended FAILED: .* › Release: FAILED$/);
    });

    it('SKIP is a success', async () => {
      pipeline({ phases: [{ status: 'RUNNING', ms: 1000 }], result: 'SKIP' });
      const r = await start();
      expect(r.errors).toEqual([]);
      expect(r.outputs).toMatchObject({ conclusion: 'success', 'build-status': 'SKIP' });
    });

    it('CANCELED in bk-ci: conclusion cancelled, and who cancelled it', async () => {
      pipeline({ phases: [{ status: 'RUNNING', ms: 60_000 }] });
      clock.at(10_000, () => w.emu.builds.stop('demo', theBuild(), 'p-app', 'bob'));
      const r = await start();
      failedWith(r, /ended CANCELED: cancelled by bob$/);
      expect(r.outputs.conclusion).toBe('cancelled');
    });

    it('a status answer about another build is an error, never a verdict', async () => {
      pipeline({ phases: [{ status: 'RUNNING', ms: 1000 }], answerAsBuild: 'b-someone-elses' });
      const r = await start();
      failedWith(
        r,
        /^bk-ci start-build failed: bk-ci answered the status with build b-someone-elses when asked for b-\w+: the answer is not trusted/,
      );
      expect(r.outputs).toMatchObject({ conclusion: 'running', 'build-status': '' });
    });

    it('every ending sets conclusion and execute-count: a timeout too', async () => {
      pipeline({ phases: [{ status: 'RUNNING', ms: 3_600_000 }] });
      const r = await start({ timeout: '20s' });
      failedWith(r, /still RUNNING after 20s/);
      expect(r.outputs).toMatchObject({ conclusion: 'timed-out', 'execute-count': '1' });
    });
  });
});

describe('behind the BlueKing API Gateway', () => {
  it('without console-url build-url is empty and the log says to set it; with it, a console link', async () => {
    const { emu, clock, pipeline } = await worldForTest({ ...doorOptions('apigw'), users: [] });
    pipeline({ phases: [{ status: 'RUNNING', ms: 1000 }] });
    const viaGateway = (extra: Record<string, string>) =>
      runInProcess({
        inputs: {
          operation: 'start-build',
          'base-url': emu.url,
          ...GATEWAY_APP,
          'user-id': 'alice',
          'project-id': 'demo',
          'pipeline-id': 'p-app',
          'poll-interval': '1s',
          ...extra,
        },
        clock,
      });
    const bare = await viaGateway({});
    expect(bare.errors).toEqual([]);
    expect(bare.outputs['build-url']).toBe('');
    expect(bare.stdout).toMatch(/^build-url is empty: behind the BlueKing API Gateway base-url is not the bk-ci console; set console-url/m);
    const linked = await viaGateway({ 'console-url': 'https://devops.example.com/' });
    expect(linked.outputs['build-url']).toBe(`https://devops.example.com/console/pipeline/demo/p-app/detail/${linked.outputs['build-id']}`);
  });
});
