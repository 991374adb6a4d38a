// The demo world, one for `npm start` and `npm run emulator`: what the README's examples need. A
// project, a re-sign task, a pipeline whose builds write a log, set variables and archive files
// (demo-build.ts), one that pauses at a stage review, a long one, one that fails (and passes when
// retried: a flaky test), a build already at its review for build-status to read and
// review-build to decide, one that ended with its files for download-artifacts, and one that
// failed for retry-build to retry.
import { z } from 'zod';
import { demoBuild } from './demo-build.ts';
import type { pipelineSchema } from './pipeline-seed.ts';
import type { Emulator } from './server.ts';

/** The ids the README's examples and `npm start` use. */
export const DEMO = {
  projectId: 'demo',
  resignId: 's-5f1c9e7a',
  demo: 'p-demo',
  review: 'p-review',
  long: 'p-long',
  fail: 'p-fail',
} as const;

/** The pipelines' names, as bk-ci shows them (and a check run is named after, `bk-ci <name>`). */
export const PIPELINE_NAMES: Readonly<Record<string, string>> = {
  [DEMO.demo]: 'Demo app',
  [DEMO.review]: 'Release with review',
  [DEMO.long]: 'Long build',
  [DEMO.fail]: 'Unit tests',
};

export interface DemoWorld {
  bkToken: string;
  accessToken: string;
  /** The build of p-review waiting for its review. */
  reviewBuild: string;
  /** A build of p-demo that ended, with its files: what download-artifacts downloads. */
  endedBuild: string;
  /** A build of p-fail that failed an hour ago: what retry-build retries (the flaky test passes then). */
  failedBuild: string;
  /** What was seeded, in lines for a banner. */
  banner: string[];
}

/** A pipeline whose builds pause at once at the review of their stage Release by `reviewer` (group QA), and end 2 s after it. */
export const atReview = (reviewer: string) =>
  ({
    stages: ['Build', 'Release'],
    phases: [
      { status: 'RUNNING', ms: 0, stage: 'Build' },
      { status: 'STAGE_SUCCESS', stage: 'Release', review: { groups: [{ name: 'QA', reviewers: [reviewer] }] } },
      { status: 'RUNNING', ms: 2000, stage: 'Release' },
    ],
  }) satisfies Partial<z.input<typeof pipelineSchema>>;

/** Seeds the demo world with `user` as its only user (the reviewer of p-review). */
export function seedDemoWorld(emulator: Emulator, user: string): DemoWorld {
  const { bkToken, token } = emulator.addUser(user);
  const projectId = DEMO.projectId;
  emulator.seedProject({
    englishName: projectId,
    projectName: 'Demo project',
    description: 'the demo world',
    creator: user,
    bgId: 1,
    bgName: 'Games',
  });
  emulator.seedSign({ resignId: DEMO.resignId, runningMs: 4000, result: 'SUCCESS', projectId });
  seedPipelines(emulator, user);
  const reviewBuild = startedBuild(emulator, user, DEMO.review);
  const anHourAgo = Date.now() - 3_600_000;
  const endedBuild = emulator.seedBuild({ projectId, pipelineId: DEMO.demo, status: 'SUCCEED', startTime: anHourAgo, userId: user }).id;
  const failedBuild = emulator.seedBuild({ projectId, pipelineId: DEMO.fail, status: 'FAILED', startTime: anHourAgo, userId: user }).id;
  return {
    bkToken,
    accessToken: token.accessToken,
    reviewBuild,
    endedBuild,
    failedBuild,
    banner: [
      `project "${projectId}"; re-sign task "${DEMO.resignId}" RUNNING for 4 s from now, then SUCCESS; pipeline "p-demo": QUEUE 1 s, RUNNING 3 s, SUCCEED (a log, variables and artifacts)`,
      `pipelines "${DEMO.review}" (pauses at a review of stage Release by ${user}), "${DEMO.long}" (runs 10 min), "${DEMO.fail}" (fails after 2 s); build ${reviewBuild} of ${DEMO.review} waits for its review`,
      `build ${endedBuild} of p-demo ended SUCCEED an hour ago, with its files (app/App.ipa, 1 MiB; reports/coverage.html): download-artifacts brings them in`,
      `build ${failedBuild} of ${DEMO.fail} FAILED an hour ago (3 tests failed, a flaky test): retry-build runs its failed jobs again, and they pass`,
    ],
  };
}

/** The demo's four pipelines: p-demo (a log, variables, files), p-review, p-long and p-fail (a flaky test). */
function seedPipelines(emulator: Emulator, user: string): void {
  const projectId = DEMO.projectId;
  emulator.seedPipeline({
    projectId,
    pipelineId: DEMO.demo,
    name: PIPELINE_NAMES[DEMO.demo],
    phases: [
      { status: 'QUEUE', ms: 1000 },
      { status: 'RUNNING', ms: 3000 },
    ],
    ...demoBuild(1000, 3000),
  });
  emulator.seedPipeline({ projectId, pipelineId: DEMO.review, name: PIPELINE_NAMES[DEMO.review], ...atReview(user) });
  emulator.seedPipeline({
    projectId,
    pipelineId: DEMO.long,
    name: PIPELINE_NAMES[DEMO.long],
    phases: [{ status: 'RUNNING', ms: 10 * 60_000 }],
    ...demoBuild(0, 600_000),
  });
  emulator.seedPipeline({
    projectId,
    pipelineId: DEMO.fail,
    name: PIPELINE_NAMES[DEMO.fail],
    phases: [{ status: 'RUNNING', ms: 2000 }],
    result: 'FAILED',
    // A flaky test: its build fails, and passes when its failed jobs are run again.
    retryResult: 'SUCCEED',
    errorInfoList: [{ taskName: 'unit tests', errorCode: 2199001, errorMsg: '3 tests failed' }],
    // Every run writes these (a retried run's lines numbered on from the run before it).
    logs: {
      steps: [{ tag: 'e-unit', jobId: 'test', stepId: 'unit', containerHashId: 'c-test' }],
      lines: [
        { at: 200, step: 'e-unit', text: 'running 120 tests (3 of them flaky)' },
        { at: 1000, step: 'e-unit', text: 'test_upload_resumes: waiting for the store' },
        { at: 1800, step: 'e-unit', text: 'unit tests finished' },
      ],
    },
  });
}

/** Starts a build of the pipeline as `user`, as build_start would: its id. */
function startedBuild(emulator: Emulator, user: string, pipelineId: string): string {
  const reply = emulator.builds.start(DEMO.projectId, pipelineId, user, {});
  const started = z.object({ data: z.object({ id: z.string() }) }).safeParse(JSON.parse(reply.body));
  if (!started.success) throw new Error(`the emulator did not start ${pipelineId}: ${reply.body}`);
  return started.data.data.id;
}
