// `npm start -- operation=start-build check=true`: GitHub's check runs on the emulator, and each
// state of the step's check run printed as it changes (what the pull request would show).
import { startGitHub } from '../emulator/github.ts';

const TOKEN = 'ghs_demo-check-token';

export async function watchChecks(inputs: Record<string, string>, print: (line: string) => void) {
  const gh = await startGitHub();
  gh.addToken(TOKEN);
  inputs['github-token'] = TOKEN;
  print(`GitHub's check runs on ${gh.url} (octo/app, commit ${'a'.repeat(7)})`);
  let shown = '';
  const timer = setInterval(() => {
    const run = gh.runs.at(-1);
    if (run === undefined) return;
    const now = `[check "${run.name}"] ${run.status}${run.conclusion ? ` → ${run.conclusion}` : ''}: ${run.output.title ?? ''}`;
    if (now !== shown) print(now);
    shown = now;
  }, 100);
  return {
    env: { GITHUB_API_URL: gh.url, GITHUB_REPOSITORY: 'octo/app', GITHUB_SHA: 'a'.repeat(40), GITHUB_EVENT_NAME: 'push' },
    close: async () => {
      clearInterval(timer);
      await gh.close();
    },
  };
}
