// `npm start -- operation=start-build check=true`: GitHub's check runs on the emulator, and each
// check run on the commit shown as it changes (what the pull request would show), then, once the
// step has ended, as it was left. A re-run (run-attempt=2) finds attempt 1's check run there:
// completed with attempt 1's conclusion, or left in progress while its build runs.
import type { CheckRun } from '../emulator/check-runs.ts';
import { type GitHubEmulator, startGitHub } from '../emulator/github.ts';

const TOKEN = 'ghs_demo-check-token';

/** How attempt 1 left its check run, from how it left its build. */
const LEFT: Record<string, { conclusion?: string; title: (num: number) => string }> = {
  SUCCEED: { conclusion: 'success', title: (n) => `Build #${n} succeeded` },
  FAILED: { conclusion: 'failure', title: (n) => `Build #${n} failed` },
  CANCELED: { conclusion: 'cancelled', title: (n) => `Build #${n} was cancelled` },
  RUNNING: { title: () => 'Running in bk-ci (RUNNING)' },
  QUEUE: { title: () => 'Queued in bk-ci' },
};

export interface Checks {
  /** The step's environment for GitHub: its API, and the event. */
  env: Record<string, string>;
  /** Attempt 1's check run of the build, as attempt 1 left it. */
  seedEarlier(build: { id: string; num: number; status: string }, name: string, detailsUrl: string): Promise<void>;
  /** Stops following them, after showing what changed since the last look. */
  stop(): void;
  /** Each check run on the commit as the step left it. */
  left(stepRunId: string | undefined): void;
  close(): Promise<void>;
}

/** GitHub's side, `github-token` added to the inputs, `print` told of every change of a check run on `repository`'s commit. */
export async function watchChecks(
  inputs: Record<string, string>,
  run: { repository: string; sha: string },
  print: (line: string) => void,
): Promise<Checks> {
  const gh = await startGitHub();
  gh.addToken(TOKEN);
  inputs['github-token'] ??= TOKEN;
  print(`GitHub's check runs on ${gh.url} (${run.repository}, commit ${run.sha.slice(0, 7)})`);
  const shown = new Map<number, string>();
  const look = (): void => {
    gh.runs.forEach((r, i) => {
      const now = stateOf(r);
      if (shown.get(r.id) !== now) print(`[check ${i + 1} "${r.name}"] ${now}`);
      shown.set(r.id, now);
    });
  };
  const timer = setInterval(look, 100);
  return {
    env: { GITHUB_API_URL: gh.url, GITHUB_EVENT_NAME: 'push' },
    seedEarlier: async (build, name, detailsUrl) => {
      await createRun(gh, run, { build, name, detailsUrl });
      look();
    },
    stop: () => {
      clearInterval(timer);
      look();
    },
    left: (stepRunId) => showLeft(gh.runs, stepRunId, print),
    close: async () => {
      clearInterval(timer);
      await gh.close();
    },
  };
}

/** "completed → failure: Build #2 failed" */
const stateOf = (r: CheckRun): string => `${r.status}${r.conclusion ? ` → ${r.conclusion}` : ''}: ${r.output.title ?? ''}`;

/** Every check run on the commit, as the step left them: the pull request shows the newest of each name. */
function showLeft(runs: readonly CheckRun[], stepRunId: string | undefined, print: (line: string) => void): void {
  if (runs.length === 0) print('no check run was written on the commit');
  runs.forEach((r, i) => {
    const whose = String(r.id) === stepRunId ? " (this step's: check-run-id)" : '';
    print(`check ${i + 1} "${r.name}" of build ${r.external_id ?? '?'} left ${stateOf(r)}${whose}`);
  });
}

/** Creates the check run through GitHub's API, as attempt 1's step did. */
async function createRun(
  gh: GitHubEmulator,
  run: { repository: string; sha: string },
  o: { build: { id: string; num: number; status: string }; name: string; detailsUrl: string },
): Promise<void> {
  const left = LEFT[o.build.status] ?? LEFT.FAILED;
  const title = left?.title(o.build.num) ?? '';
  const body = {
    name: o.name,
    head_sha: run.sha,
    external_id: o.build.id,
    details_url: o.detailsUrl,
    ...(left?.conclusion === undefined
      ? { status: 'in_progress' }
      : { status: 'completed', conclusion: left.conclusion, completed_at: new Date().toISOString() }),
    output: { title, summary: `**Build #${o.build.num}** \`${o.build.id}\` (attempt 1)` },
  };
  const res = await fetch(`${gh.url}/repos/${run.repository}/check-runs`, {
    method: 'POST',
    headers: { authorization: `token ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`GitHub's emulator refused attempt 1's check run: ${res.status} ${await res.text()}`);
}
