// The commit a workflow is about, and where GitHub's API is: what the check run is written on.
import { readFileSync } from 'node:fs';
import { z } from '../base/schema.ts';

export interface CheckTarget {
  /** GitHub's REST API root: api.github.com, or GitHub Enterprise Server's `https://host/api/v3`. */
  apiUrl: string;
  owner: string;
  repo: string;
  sha: string;
  /** Where the repository is checked out, when it is. */
  workspace: string | undefined;
}

/** The part of a pull_request event the check needs: the head commit (GITHUB_SHA is the merge commit). */
const pullRequestEvent = z.looseObject({
  pull_request: z.looseObject({ head: z.looseObject({ sha: z.string().regex(/^[0-9a-f]{40}$/i) }) }),
});

const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target']);

/**
 * The pull request's head commit for pull_request and pull_request_target (whose GITHUB_SHA is
 * the merge commit or the base branch's head, which the pull request does not show checks of),
 * else GITHUB_SHA. A problem in words when the environment does not say.
 */
export function checkTarget(env: NodeJS.ProcessEnv, read = (p: string) => readFileSync(p, 'utf8')): CheckTarget | string {
  const repository = /^([^/\s]+)\/([^/\s]+)$/.exec(env.GITHUB_REPOSITORY ?? '');
  if (repository === null) return 'GITHUB_REPOSITORY is not set: check needs to run in a GitHub Actions workflow';
  let sha = env.GITHUB_SHA ?? '';
  if (PULL_REQUEST_EVENTS.has(env.GITHUB_EVENT_NAME ?? '')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(read(env.GITHUB_EVENT_PATH ?? ''));
    } catch (e) {
      return `the ${env.GITHUB_EVENT_NAME} event's payload (GITHUB_EVENT_PATH) could not be read: ${e instanceof Error ? e.message : String(e)}`;
    }
    const event = pullRequestEvent.safeParse(parsed);
    if (!event.success) return `the ${env.GITHUB_EVENT_NAME} event's payload names no pull request head commit`;
    sha = event.data.pull_request.head.sha;
  }
  if (!/^[0-9a-f]{40}$/i.test(sha)) return 'GITHUB_SHA is not a commit: check needs to run in a GitHub Actions workflow';
  const apiUrl = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');
  return { apiUrl, owner: repository[1] ?? '', repo: repository[2] ?? '', sha, workspace: env.GITHUB_WORKSPACE || undefined };
}
