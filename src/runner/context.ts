// The workflow a step runs in, as the runner describes it in its environment: the same variables
// @actions/github's Context reads (GITHUB_SHA, GITHUB_REPOSITORY, GITHUB_REF, GITHUB_SERVER_URL,
// GITHUB_RUN_ID, GITHUB_RUN_ATTEMPT, GITHUB_JOB).

export interface WorkflowContext {
  sha: string;
  /** owner/repo */
  repository: string;
  /** The branch or tag name (refs/heads/ and refs/tags/ taken off), or the full ref. */
  ref: string;
  serverUrl: string;
  /** The run, its attempt and the job's id, where the runner gives them ('' otherwise). */
  runId: string;
  runAttempt: string;
  job: string;
}

/** The workflow's commit, or undefined outside GitHub Actions. */
export function workflowContext(env: NodeJS.ProcessEnv): WorkflowContext | undefined {
  const sha = env.GITHUB_SHA ?? '';
  const repository = env.GITHUB_REPOSITORY ?? '';
  if (!/^[0-9a-f]{7,64}$/i.test(sha) || !/^[^/\s]+\/[^/\s]+$/.test(repository)) return undefined;
  const ref = env.GITHUB_REF_NAME || (env.GITHUB_REF ?? '').replace(/^refs\/(heads|tags)\//, '');
  const digits = (v: string | undefined): string => (/^\d{1,20}$/.test(v ?? '') ? (v ?? '') : '');
  return {
    sha,
    repository,
    ref,
    serverUrl: (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, ''),
    runId: digits(env.GITHUB_RUN_ID),
    runAttempt: digits(env.GITHUB_RUN_ATTEMPT),
    // A job id is the workflow's key for the job: a word, at most 100 characters.
    job: /^[\w.-]{1,100}$/.test(env.GITHUB_JOB ?? '') ? (env.GITHUB_JOB ?? '') : '',
  };
}
