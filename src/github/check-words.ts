// What the step says about its check run: a problem GitHub gave, and how the check was left when
// its last update could not be made. One line each (docs/troubleshooting.md lists them).
import { formatDuration } from '../base/duration.ts';
import { END_GRACE_MS, FINAL_BUDGET_MS } from './check-state.ts';
import type { Problem } from './client.ts';

const FIX = 'give the job `permissions: checks: write` (a pull request from a fork gets a read-only token: its check cannot be written)';

/** The problem, in words, with what to do about it. */
export function describeProblem(problem: Problem): string {
  const said = `${problem.status === undefined ? '' : `${problem.status}: `}${problem.message}`;
  switch (problem.kind) {
    case 'forbidden':
      return `GitHub refused to write the check run (${said}): the token may not write checks; ${FIX}`;
    case 'auth':
      return `GitHub refused github-token (${said}): give a valid token (by default the job's GITHUB_TOKEN) with \`permissions: checks: write\``;
    case 'rate':
      return `GitHub's rate limit was reached (${said}${problem.waitMs === undefined ? '' : `; it asked to wait ${formatDuration(problem.waitMs)}`}): GITHUB_TOKEN has 1,000 requests an hour per repository, shared by every job`;
    case 'refused':
      return `GitHub refused the check run (${said})`;
    case 'invalid':
      return `GitHub refused an update of the check run as invalid (${said})`;
    case 'outage':
      return `GitHub failed or could not be reached (${said})`;
    case 'timeout':
      return `GitHub did not answer (${said})`;
    case 'late':
      return `no time was left for GitHub (${said}: the step's timeout, plus ${formatDuration(END_GRACE_MS)}, or a cancel's few seconds)`;
  }
}

/** A problem while the build runs: what it means for the check. */
export function whileRunning(problem: Problem, ends: boolean, nextMs: number): string {
  if (ends) return `check: ${describeProblem(problem)}. The build is followed as without check.`;
  const next = problem.kind === 'invalid' ? 'the next update carries less' : 'the check run may lag behind the build';
  return `check: ${describeProblem(problem)}; ${next} (its next update in ${formatDuration(nextMs)} at the earliest)`;
}

/** How the check was left when its last update could not be made. */
export function leftWords(check: { name: string; runId: number | undefined; mayExist: boolean; buildId: string; why: string }): string {
  if (check.runId !== undefined)
    return `check: the check run "${check.name}" (${check.runId}) was left in progress, showing the build as it was last sent: ${check.why}`;
  if (check.mayExist)
    return `check: a check run "${check.name}" for build ${check.buildId} may exist on GitHub (a create's answer was lost and GitHub could not say whether it was made); if it does, it is left in progress: ${check.why}`;
  return `check: no check run was written for build ${check.buildId}: ${check.why}`;
}

/** A check run left in progress on purpose (`wait: false`): who completes it. */
export const leftRunning = (name: string, runId: number): string =>
  `check: the check run "${name}" (${runId}) stays in progress while the build goes on in bk-ci; a later step with operation: build-status, check: true and the same check-name completes it`;

/** GitHub asked to wait longer than the step may. */
export const waitTooLong = (p: Problem, waitMs: number): string =>
  `GitHub asked to wait ${formatDuration(Math.ceil(waitMs / 1000) * 1000)} (${p.status === undefined ? '' : `${p.status}: `}${p.message}), longer than the step may still take (its timeout plus ${formatDuration(END_GRACE_MS)}, or ${formatDuration(FINAL_BUDGET_MS)} after the build's end)`;
