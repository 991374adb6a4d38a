// The step of the check-run suites: start-build with check: true on a pull request whose head is
// HEAD, in the world given, against the GitHub emulator given. Inputs and environment only: the
// suites run it through dist/ or in this process.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { World } from './world.ts';

export const HEAD = 'c'.repeat(40);

/** Writes the pull request's event into `dir`; the step's inputs and the runner's environment for it. */
export async function pullRequestStep(
  w: World,
  github: { url: string },
  token: string,
  dir: string,
): Promise<{ inputs: Record<string, string>; env: Record<string, string> }> {
  const event = join(dir, 'event.json');
  await writeFile(event, JSON.stringify({ pull_request: { head: { sha: HEAD } } }));
  return {
    inputs: {
      operation: 'start-build',
      ...w.connection(),
      'pipeline-id': 'p-app',
      'poll-interval': '1s',
      logs: 'none',
      check: 'true',
      'github-token': token,
    },
    env: {
      GITHUB_API_URL: github.url,
      GITHUB_REPOSITORY: 'octo/app',
      GITHUB_SHA: 'd'.repeat(40),
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: event,
    },
  };
}
