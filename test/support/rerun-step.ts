// The step of the re-run suites: attempt n of one start-build step of run 77, job ship, on a
// pipeline whose build QUEUEs 0.1 s, RUNs 0.3 s and ends with `result` (SUCCEED when retried).
// Inputs and environment only: the suites run it through dist/ or in this process.
import type { World } from './world.ts';

export const seedRerunPipeline = (w: World, result: string) =>
  w.pipeline({
    phases: [
      { status: 'QUEUE', ms: 100 },
      { status: 'RUNNING', ms: 300 },
    ],
    stages: ['Build', 'Release'],
    result,
    retryResult: 'SUCCEED',
  });

export const rerunStep = (w: World, attempt: number): { inputs: Record<string, string>; env: Record<string, string> } => ({
  inputs: { operation: 'start-build', ...w.connection(), 'pipeline-id': 'p-app', 'build-params': 'TARGET: linux', 'poll-interval': '1s' },
  env: {
    GITHUB_SHA: 'abcdef1234567',
    GITHUB_REPOSITORY: 'octo/app',
    GITHUB_RUN_ID: '77',
    GITHUB_RUN_ATTEMPT: String(attempt),
    GITHUB_JOB: 'ship',
  },
});

/** The runner's environment for attempt n of job `release` of run 555 of octo/app on main. */
export const releaseRun = (attempt: number): Record<string, string> => ({
  GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
  GITHUB_REPOSITORY: 'octo/app',
  GITHUB_REF: 'refs/heads/main',
  GITHUB_SERVER_URL: 'https://github.example.com',
  GITHUB_RUN_ID: '555',
  GITHUB_RUN_ATTEMPT: String(attempt),
  GITHUB_JOB: 'release',
});
