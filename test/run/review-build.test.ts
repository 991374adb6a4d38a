// review-build: approve or reject a stage's review (its first pending group, by id) or a
// manual-review step, as the token's user; refused before anything is sent when nothing waits,
// the user may not decide or a parameter is unknown; bk-ci's refusals and a lost answer said;
// with wait the build followed. run() in this process against the emulator, on bk-ci's gateway,
// the spec flavour and the BlueKing API Gateway.
import { afterAll, describe, expect, it } from 'vitest';
import type { StepResult } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import {
  type Door,
  doorOptions,
  GATEWAY_APP,
  reviewedPipeline,
  type PipelineSeed as Seed,
  type World,
  worldForTest,
} from '../support/world.ts';

afterAll(cleanupRuns);

let w: World;
let flavour: Door;
const open = async (f: Door) => {
  flavour = f;
  w = await worldForTest({ ...doorOptions(f), users: ['alice', 'carol'] });
};

const STAGE: Seed = reviewedPipeline({
  groups: [
    { name: 'QA', reviewers: ['alice', 'erin'] },
    { name: 'Ops', reviewers: ['dave', 'alice'] },
  ],
  params: [{ key: 'REGION', value: 'eu', valueType: 'STRING' }],
});
const STEP: Seed = {
  stages: ['Build'],
  jobs: { Build: [{ name: 'Linux', steps: ['Checkout', { name: 'Sign-off', stepId: 'signoff', reviewers: ['alice'] }, 'Publish'] }] },
  phases: [
    { status: 'RUNNING', ms: 1000 },
    { status: 'RUNNING', step: 'Sign-off' },
    { status: 'RUNNING', ms: 1000 },
  ],
};

/** A build of the seeded pipeline, started by alice and moved on until it waits. */
async function waitingBuild(seed: Seed): Promise<string> {
  w.pipeline(seed);
  const r = await step({ operation: 'start-build', 'pipeline-id': 'p-app', wait: 'false', logs: 'none' });
  w.clock.t += 1500;
  return r.outputs['build-id'] ?? '';
}

const step = (inputs: Record<string, string>): Promise<StepResult> =>
  runInProcess({
    inputs: {
      'base-url': w.emu.url,
      'project-id': 'demo',
      'poll-interval': '1s',
      retries: '0',
      ...(flavour === 'apigw' ? { ...GATEWAY_APP, 'user-id': 'alice' } : { 'bk-token': w.bkToken }),
      ...inputs,
    },
    clock: w.clock,
  });
const review = (buildId: string, inputs: Record<string, string> = {}) =>
  step({ operation: 'review-build', 'build-id': buildId, 'pipeline-id': 'p-app', decision: 'approve', wait: 'false', ...inputs });
const decisions = () => w.emu.requests({ method: 'POST' }).filter((q) => /manual_(start_build_stage|review)$/.test(q.path));
const bodyOf = (i: number) => JSON.parse(decisions()[i]?.body ?? '{}') as Record<string, unknown>;

describe.each(['bkci', 'spec', 'apigw'] as const)('review-build (%s)', (f) => {
  it('approves the stage review group by group, each by its id, with the suggestion and the review parameters', async () => {
    await open(f);
    const id = await waitingBuild(STAGE);
    const first = await review(id, { suggestion: 'QA passed', 'review-params': 'REGION: us' });
    expect(first.errors).toEqual([]);
    expect(first.stdout).toMatch(/^approved the review of stage 'Release' \(group 'QA'\) as alice; bk-ci applies it moments later$/m);
    expect(decisions()[0]?.query).toMatch(/[?&]stageId=stage-3(&|$)/);
    expect(decisions()[0]?.query).toMatch(/[?&]cancel=false(&|$)/);
    expect(bodyOf(0)).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{32}$/), suggest: 'QA passed' });
    expect(bodyOf(0).reviewParams).toEqual([expect.objectContaining({ key: 'REGION', value: 'us' })]);
    expect(first.outputs['build-id']).toBe(id);
    // The second group: its own id, not the first's (which bk-ci would refuse, 2101073).
    const second = await review(id, { wait: 'true', timeout: '1m' });
    expect(second.errors).toEqual([]);
    expect(second.stdout).toMatch(/approved the review of stage 'Release' \(group 'Ops'\) as alice/);
    expect(bodyOf(1).id).not.toBe(bodyOf(0).id);
    expect(second.outputs['build-status']).toBe('SUCCEED');
  });

  it('rejects a stage review (cancel=true), with the suggestion', async () => {
    await open(f);
    const id = await waitingBuild(STAGE);
    const r = await review(id, { decision: 'reject', suggestion: 'not today' });
    expect(r.errors).toEqual([]);
    expect(decisions()[0]?.query).toMatch(/[?&]cancel=true(&|$)/);
    expect(bodyOf(0)).toMatchObject({ suggest: 'not today' });
  });

  it('rejects with wait: the build is followed to its end, which is the rejection', async () => {
    await open(f);
    const id = await waitingBuild(STAGE);
    const r = await review(id, { decision: 'reject', suggestion: 'not today', wait: 'true', timeout: '1m' });
    failedWith(
      r,
      /^bk-ci review-build failed: rejected the review of stage 'Release' \(group 'QA'\) as alice, but build .* was stopped by a rejected review: stage 'Release' was rejected by alice: not today \(bk-ci shows such a build as STAGE_SUCCESS\)$/,
    );
    expect(r.outputs.conclusion).toBe('rejected');
  });

  it.each([
    ['approve', 'PROCESS'],
    ['reject', 'ABORT'],
  ] as const)('%s a manual-review step: status %s always sent, with its elementId and stepId', async (decision, status) => {
    await open(f);
    const id = await waitingBuild(STEP);
    const r = await review(id, { decision });
    expect(r.errors).toEqual([]);
    expect(bodyOf(0)).toMatchObject({ status });
    expect(decisions()[0]?.path).toMatch(/manual_review$/);
    expect(decisions()[0]?.query).toMatch(/[?&]elementId=e-[^&]+&stepId=signoff(&|$)/);
  });
});

describe('review-build refuses before deciding anything', () => {
  it('when the user is not a reviewer: says who may', async () => {
    await open('bkci');
    const id = await waitingBuild({
      ...STAGE,
      phases: [
        { status: 'RUNNING', ms: 1000, stage: 'Build' },
        { status: 'STAGE_SUCCESS', stage: 'Release', review: { groups: [{ name: 'QA', reviewers: ['carol', 'erin'] }] } },
      ],
    });
    failedWith(
      await review(id),
      /^bk-ci review-build failed: alice may not decide the review of stage 'Release' \(group 'QA'\): only carol, erin may; nothing was decided$/,
    );
    expect(decisions()).toHaveLength(0);
  });

  it('when nothing waits for a review', async () => {
    await open('bkci');
    const id = await waitingBuild({ phases: [{ status: 'RUNNING', ms: 60_000 }] });
    failedWith(await review(id), /build b-\w+ waits for no review now \(status RUNNING\); nothing was decided$/);
    expect(decisions()).toHaveLength(0);
  });

  it('when a review parameter is not one the review defines', async () => {
    await open('bkci');
    const id = await waitingBuild(STAGE);
    failedWith(
      await review(id, { 'review-params': 'ZONE: a' }),
      /review-params names ZONE, which the review does not define \(it has REGION\)/,
    );
    expect(decisions()).toHaveLength(0);
  });

  it("each review parameter's value is what its declared valueType takes, from the text as written", async () => {
    await open('bkci');
    const typed: Seed = {
      ...STAGE,
      phases: [
        { status: 'RUNNING', ms: 1000, stage: 'Build' },
        {
          status: 'STAGE_SUCCESS',
          stage: 'Release',
          review: {
            groups: [{ name: 'QA', reviewers: ['alice'] }],
            params: [
              { key: 'VERSION', value: '1.0', valueType: 'STRING' },
              { key: 'NOTIFY', value: false, valueType: 'BOOLEAN' },
              { key: 'TARGETS', value: [], valueType: 'MULTIPLE' },
            ],
          },
        },
        { status: 'RUNNING', ms: 1000, stage: 'Release' },
      ],
    };
    const id = await waitingBuild(typed);
    for (const [written, message] of [
      ['NOTIFY: maybe', /review-params\.NOTIFY is a BOOLEAN parameter: give true or false, not "maybe"; nothing was decided/],
      ['VERSION: [1, 2]', /review-params\.VERSION is a STRING parameter: give one value, not a list/],
      ['VERSION: 1.10 #rc', /VERSION is written "1\.10 #rc", but YAML reads " #" as the start of a comment/],
    ] as const)
      failedWith(await review(id, { 'review-params': written }), message);
    expect(decisions()).toHaveLength(0);
    const r = await review(id, { 'review-params': 'VERSION: 1.10\nNOTIFY: True\nTARGETS: [ios, 007]' });
    expect(r.errors).toEqual([]);
    expect(bodyOf(0).reviewParams).toEqual([
      expect.objectContaining({ key: 'VERSION', value: '1.10' }),
      expect.objectContaining({ key: 'NOTIFY', value: true }),
      expect.objectContaining({ key: 'TARGETS', value: ['ios', '007'] }),
    ]);
  });

  it('an unknown build says so', async () => {
    await open('bkci');
    failedWith(await review('b-nope'), /no build b-nope in project demo/);
  });

  it.each([
    [{}, /decision is required for operation review-build/],
    [{ decision: 'maybe' }, /decision must be approve or reject/],
  ])('input %j', async (inputs, message) => {
    await open('bkci');
    const r = await step({ operation: 'review-build', 'build-id': 'b-1', ...inputs });
    failedWith(r, message);
  });
});

describe("review-build and bk-ci's answer", () => {
  it("bk-ci's refusal is said in words (the step not reviewable any more, 2101279): nothing was decided", async () => {
    await open('bkci');
    const id = await waitingBuild(STEP);
    w.emu.faults.add({
      pattern: /manual_review$/,
      fault: { kind: 'wrapper-status', status: 2101279, message: '不存在或者不是可审核状态' },
    });
    failedWith(
      await review(id),
      /bk-ci refused to approve the review of step 'Sign-off' of stage 'Build': the step does not exist or is not waiting for review; nothing was decided/,
    );
  });

  it('a lost answer: the decision is not sent again, and the step says it may have been applied', async () => {
    await open('bkci');
    const id = await waitingBuild(STAGE);
    w.emu.faults.add({ pattern: /manual_start_build_stage$/, after: true, fault: { kind: 'reset' } });
    const r = await step({
      operation: 'review-build',
      'build-id': id,
      'pipeline-id': 'p-app',
      decision: 'approve',
      wait: 'false',
      retries: '3',
    });
    failedWith(r, /the decision to approve the review of stage 'Release' \(group 'QA'\) may have been applied: .* It was not sent again/);
    expect(decisions()).toHaveLength(1);
  });
});
