// What `npm start` gives the step: the command line's name=value arguments (inputs, and the two
// that are not: the run attempt and how attempt 1's build stands), the workflow run the step runs
// in, the seeded world's ids for the operation that reads them, and `--help`.
import { settingsSchema } from '../src/inputs/settings.ts';
import { isOperationName, REGISTRY } from '../src/operations/registry.ts';

export interface Args {
  /** Inputs as given on the command line. */
  inputs: Record<string, string>;
  /** The run attempt the step runs as (GITHUB_RUN_ATTEMPT): above 1, a re-run. */
  runAttempt: string;
  /** How attempt 1's build stands, for a re-run: FAILED (default), SUCCEED, RUNNING, CANCELED, … */
  earlierStatus: string;
}

/** name=value arguments; undefined (with the reason on stderr) for one that is not. */
export function parseArgs(argv: readonly string[]): Args | undefined {
  const inputs: Record<string, string> = {};
  for (const arg of argv) {
    const eq = arg.indexOf('=');
    if (eq < 1) {
      console.error(`expected name=value, got "${arg}"`);
      return undefined;
    }
    inputs[arg.slice(0, eq)] = arg.slice(eq + 1);
  }
  const { 'run-attempt': runAttempt = '1', 'earlier-status': earlierStatus = 'FAILED', ...rest } = inputs;
  if (!/^[1-9]\d{0,8}$/.test(runAttempt)) {
    console.error(`run-attempt must be a whole number from 1, got "${runAttempt}"`);
    return undefined;
  }
  return { inputs: rest, runAttempt, earlierStatus: earlierStatus.toUpperCase() };
}

/**
 * The workflow run, as GitHub's runner describes it to the step: one repository, commit and run
 * for the step, for attempt 1's seeded build and for the check run (its commit is the one the
 * demo build checks out).
 */
export const workflowRun = (attempt: string): Record<string, string> => ({
  GITHUB_SHA: '3f2c1e9a7b5d4c3e2f1a0b9c8d7e6f5a4b3c2d1e',
  GITHUB_REPOSITORY: 'demo/app',
  GITHUB_REF: 'refs/heads/main',
  GITHUB_RUN_ID: '1001',
  GITHUB_RUN_ATTEMPT: attempt,
  GITHUB_JOB: 'release',
});

/** The seeded world's ids, as the demo world names them. */
export interface Seeded {
  projectId: string;
  resignId: string;
  /** Pipelines: the demo one (a log, variables, files), the one at a review, the failing one. */
  pipelines: { demo: string; review: string; fail: string };
  builds: { review: string; ended: string; failed: string };
}

/**
 * What the seeded world gives the operation: start-build and download-artifacts p-demo (its build
 * that ended), retry-build the build of p-fail that failed, build-status and review-build the
 * build at its review. Only the inputs the operation reads: others would be warned about. A
 * `build-id` given is another build, whose pipeline the seeded one may not be: the step learns it.
 */
export function seededInputs(operation: string, s: Seeded, given: Record<string, string> = {}): Record<string, string> {
  const [pipelineId, buildId] =
    operation === 'start-build' || operation === 'download-artifacts'
      ? [s.pipelines.demo, s.builds.ended]
      : operation === 'retry-build'
        ? [s.pipelines.fail, s.builds.failed]
        : [s.pipelines.review, s.builds.review];
  const all: Record<string, string> = {
    'resign-id': s.resignId,
    'download-url': 'true',
    'project-id': s.projectId,
    'pipeline-id': pipelineId,
    'build-id': buildId,
    decision: 'approve',
  };
  if (given['build-id'] !== undefined) delete all['pipeline-id'];
  const reads = isOperationName(operation) ? Object.keys(REGISTRY[operation].inputs) : [];
  return Object.fromEntries(Object.entries(all).filter(([name]) => reads.includes(name)));
}

/** `npm start -- --help`: how to run it, each operation with the inputs it reads, the shared ones, and examples. */
export function help(): string {
  const ops = Object.entries(REGISTRY).map(
    ([name, d]) => `  ${name.padEnd(19)}${Object.keys(d.inputs).join(', ') || '(no inputs of its own)'}`,
  );
  return [
    'npm start [-- name=value ...]: the built action against the bk-ci emulator, as a runner runs it.',
    'Any input of action.yml as name=value; operation=sign-detail by default. The seeded world fills in',
    'project-id, pipeline-id, build-id, resign-id and decision for the operation that reads them',
    '(download-artifacts: a build of p-demo that ended, with its files; retry-build: a build of p-fail that failed).',
    '',
    'Operations and the inputs each reads:',
    ...ops,
    '',
    `Every operation: ${Object.keys(settingsSchema.in.shape).join(', ')}`,
    '',
    'Not inputs: run-attempt=N runs the step as attempt N of run 1001 of demo/app (a re-run from 2 on: attempt 1 of',
    'start-build is seeded first, as that step started it); earlier-status= how attempt 1 left its build: FAILED (the',
    "default: retried), SUCCEED (adopted), RUNNING (followed), CANCELED. With check=true, GitHub's check runs are",
    "emulated too (attempt 1's check run seeded with its build), and their states are shown as the pull request shows them.",
    '',
    'Examples:',
    '  npm start -- operation=start-build pipeline-id=p-review on-review=fail',
    '  npm start -- operation=review-build            (approves the seeded build at its review, and ends)',
    '  npm start -- operation=review-build wait=true  (then follows that build to its end)',
    '  npm start -- operation=build-status wait=false',
    '  npm start -- operation=start-build pipeline-id=p-fail',
    '  npm start -- operation=retry-build             (runs the failed jobs of the failed build of p-fail again: they pass)',
    '  npm start -- operation=download-artifacts      (the files of a build of p-demo that ended, downloaded)',
    "  npm start -- operation=start-build download='app/*.ipa'   (starts p-demo, downloads its IPA at the end)",
    '  npm start -- operation=start-build check=true  (the build as a check run on the commit)',
    "  npm start -- operation=start-build check=true run-attempt=2   (a re-run: retries attempt 1's failed build,",
    "                                                 and writes a new check run beside attempt 1's failed one)",
    "  npm start -- operation=start-build check=true run-attempt=2 earlier-status=RUNNING   (follows attempt 1's",
    '                                                 build, and takes over the check run it left in progress)',
    'RUNNER_DEBUG=1 npm start shows the debug lines. Against an emulator started on its own',
    '(npm run emulator -- --port 8080): npm start -- base-url=http://127.0.0.1:8080 bk-token=<its bk-token> operation=… ;',
    'nothing is seeded then, and the step gets only the inputs given.',
  ].join('\n');
}
