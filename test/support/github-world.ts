// The emulator's GitHub side beside a test's world, for run() in this process: on the world's
// clock (a request GitHub holds lets the step's timeout for it pass at once, as bk-ci's do), with
// a token that may write checks, and the step that writes a check run on commit SHA.
import { afterEach, beforeEach } from 'vitest';
import { type GitHubEmulator, startGitHub } from '../../emulator/github.ts';
import type { StepResult } from './dist-runner.ts';
import { stepIn } from './in-process.ts';
import type { World } from './world.ts';

export const GH_TOKEN = 'ghs_check-writer-token-0001';
const SHA = '1'.repeat(40);

/** The runner's environment for a push of SHA to octo/app, GitHub's API at the emulator. */
export const githubEnv = (gh: { url: string }, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  GITHUB_API_URL: gh.url,
  GITHUB_REPOSITORY: 'octo/app',
  GITHUB_SHA: SHA,
  GITHUB_EVENT_NAME: 'push',
  ...extra,
});

export interface GitHubSide {
  /** The current test's GitHub. */
  readonly gh: GitHubEmulator;
  /** A step with check: true against the world and this GitHub, `base` under each call's inputs. */
  step(base: Record<string, string>): (inputs?: Record<string, string>, env?: Record<string, string>) => Promise<StepResult>;
  /** The bodies GitHub received for writes, parsed. */
  writes(): { method: string; status: number; body: Record<string, unknown> }[];
}

/** A GitHub for each test of the file, on the world's clock. */
export function useGitHub(w: World): GitHubSide {
  let gh: GitHubEmulator | undefined;
  beforeEach(async () => {
    gh = await startGitHub({ now: () => w.clock.now(), onHold: () => w.clock.lapse('github') });
    gh.addToken(GH_TOKEN);
  });
  afterEach(() => gh?.close());
  const live = (): GitHubEmulator => {
    if (gh === undefined) throw new Error('no GitHub: useGitHub() serves tests only');
    return gh;
  };
  return {
    get gh() {
      return live();
    },
    step:
      (base) =>
      (inputs = {}, env = {}) =>
        stepIn(w, { logs: 'none', retries: '0', check: 'true', 'github-token': GH_TOKEN, ...base })(inputs, {
          env: githubEnv(live(), env),
        }),
    writes: () =>
      live()
        .received.filter((r) => r.method !== 'GET')
        .map((r) => ({ method: r.method, status: r.status, body: r.body === '' ? {} : (JSON.parse(r.body) as Record<string, unknown>) })),
  };
}
