// The workflow a step runs in, as the runner describes it in its environment: the same variables
// @actions/github's Context reads (GITHUB_SHA, GITHUB_REPOSITORY, GITHUB_REF, GITHUB_SERVER_URL).

export interface WorkflowContext {
  sha: string;
  /** owner/repo */
  repository: string;
  /** The branch or tag name (refs/heads/ and refs/tags/ taken off), or the full ref. */
  ref: string;
  serverUrl: string;
}

/** The workflow's commit, or undefined outside GitHub Actions. */
export function workflowContext(env: NodeJS.ProcessEnv): WorkflowContext | undefined {
  const sha = env.GITHUB_SHA ?? '';
  const repository = env.GITHUB_REPOSITORY ?? '';
  if (!/^[0-9a-f]{7,64}$/i.test(sha) || !/^[^/\s]+\/[^/\s]+$/.test(repository)) return undefined;
  const ref = env.GITHUB_REF_NAME || (env.GITHUB_REF ?? '').replace(/^refs\/(heads|tags)\//, '');
  return { sha, repository, ref, serverUrl: (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '') };
}
