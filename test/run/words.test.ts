// The build operations' lines read as what they mean, each said once: run() in this process, which
// prints through the same writer as the built action, on the clock the emulator shares.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { StepResult } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { REVIEW_PIPELINE } from '../support/review-pipeline.ts';
import { useWorld } from '../support/world.ts';

afterAll(cleanupRuns);

/** What the step printed, workflow commands aside. */
const lines = (r: StepResult): string[] => r.stdout.split('\n').filter((l) => l !== '' && !l.startsWith('::'));
const count = (text: string, part: string): number => text.split(part).length - 1;

describe('words that read as what they mean, said once', () => {
  const w = useWorld();
  beforeEach(() => {
    w.pipeline(REVIEW_PIPELINE);
  });
  const step = (inputs: Record<string, string>): Promise<StepResult> =>
    runInProcess({ inputs: { ...w.connection(), 'poll-interval': '1s', logs: 'none', timeout: '20s', ...inputs }, clock: w.clock });

  /** A build of p-review at its stage review, not waited for. */
  const atReview = async (): Promise<string> =>
    (await step({ operation: 'start-build', 'pipeline-id': 'p-review', wait: 'false' })).outputs['build-id'] ?? '';

  it('a review pause is said once, with the build number, and the status line does not repeat it', async () => {
    const r = await step({ operation: 'start-build', 'pipeline-id': 'p-review', 'on-review': 'fail' });
    expect(r.code).toBe(1);
    const said = lines(r);
    expect(said.filter((l) => l.includes("review of stage 'Release'"))).toEqual([
      "build #1 (b-00000000000000000000000000000001) waits for review of stage 'Release' (group 'QA'): alice may approve it",
    ]);
    expect(said).toContainEqual(expect.stringMatching(/^[\d.hms]+: STAGE_SUCCESS$/));
  });

  it('build-status without pipeline-id names the build by its number and never says "pipeline ?"', async () => {
    const id = await atReview();
    const r = await step({ operation: 'build-status', 'build-id': id, wait: 'false' });
    expect(r.code, r.stdout).toBe(0);
    expect(lines(r)[0]).toBe(`build #1 (${id}) waits for review of stage 'Release' (group 'QA'): alice may approve it`);
    expect(r.stdout + r.summary).not.toContain('pipeline ?');
  });

  it('an approval without wait is said once', async () => {
    const r = await step({ operation: 'review-build', 'build-id': await atReview(), decision: 'approve', wait: 'false' });
    expect(r.code, r.stdout).toBe(0);
    expect(count(r.stdout, 'approved the review')).toBe(1);
    expect(lines(r)).toEqual(["approved the review of stage 'Release' (group 'QA') as alice; bk-ci applies it moments later"]);
  });

  it('a rejection followed to its end fails with words about the rejection, and the wait names the build by its number', async () => {
    const id = await atReview();
    const r = await step({ operation: 'review-build', 'build-id': id, decision: 'reject', wait: 'true' });
    failedWith(
      r,
      new RegExp(
        `^bk-ci review-build failed: rejected the review of stage 'Release' \\(group 'QA'\\) as alice, but build #1 \\(${id}\\) of pipeline p-review was stopped by a rejected review: stage 'Release' was rejected by alice \\(bk-ci shows such a build as STAGE_SUCCESS\\)$`,
      ),
    );
    expect(r.errors[0]).not.toMatch(/ended STAGE_SUCCESS/);
    expect(lines(r)).toContainEqual(expect.stringMatching(new RegExp(`^waiting for build #1 \\(${id}\\): timeout 20s`)));
    expect(r.outputs.conclusion).toBe('rejected');
  });

  it("bk-ci's untranslated parameter check is told in words next to its text", async () => {
    const id = await atReview();
    const r = await step({ operation: 'build-status', 'build-id': id, 'pipeline-id': 'p-other', wait: 'false' });
    failedWith(
      r,
      /answered HTTP 400: 参数校验失败:PipelineId is invalid \(bk-ci's parameter check failed: the build is not one of pipeline-id's builds; check pipeline-id, or leave it out\)$/,
    );
  });

  it.each(['APP_VERSION:1.10', 'APP_VERSION=1.10'])('a YAML slip in build-params (%s) gets an example of NAME: value', async (written) => {
    const r = await step({ operation: 'start-build', 'pipeline-id': 'p-review', 'build-params': written });
    failedWith(
      r,
      /invalid input: build-params must be a JSON object or a YAML mapping, one NAME: value per line with a space after the colon/,
    );
    expect(r.errors[0]).toContain(`("${written}" reads as a single word), e.g.\n  APP_VERSION: 1.10\nNo request was sent.`);
    expect(w.emu.requests()).toEqual([]);
  });
});
