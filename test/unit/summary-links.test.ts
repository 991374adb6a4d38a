import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { linkCell, renderSummary } from '../../src/runner/summary.ts';

const keep = (t: string): string => t;
const hrefs = (md: string): string[] =>
  [...marked.parse(md, { gfm: true, async: false }).matchAll(/<a href="([^"]*)"/g)].map((m) => m[1] ?? '');

describe('a URL the action carries is a link only when it passes the one URL check', () => {
  it.each([
    [
      'https://devops.example.com/console/pipeline/demo/p-1/detail/b-1',
      '<https://devops.example.com/console/pipeline/demo/p-1/detail/b-1>',
    ],
    ['https://repo.example.com/a b/c<d>.ipa', '<https://repo.example.com/a%20b/c%3Cd%3E.ipa>'.replace('%20', '%20')],
    ['https://repo.example.com/x?q=a|b', '<https://repo.example.com/x?q=a%7Cb>'],
  ])('%s → %s', (url, md) => {
    // A URL with a space fails the check: it is text, not a link.
    if (/\s/.test(url)) expect(linkCell(url, keep)).not.toMatch(/^</);
    else expect(linkCell(url, keep)).toBe(md);
  });

  it.each([
    'javascript:alert(1)',
    'file:///etc/passwd',
    '/relative/path',
    'https://x.example.com/a\nb',
    'https://x.example.com/\u202eevil',
  ])('%j is shown as text, never a link', (url) => {
    expect(hrefs(`| a |\n|---|\n| ${linkCell(url, keep)} |`)).toEqual([]);
  });

  it('a URL holding a secret is scrubbed and shown as text', () => {
    const cell = linkCell('https://x.example.com/?access_token=s3cr3t-value', (t) => t.replaceAll('s3cr3t-value', '***'));
    expect(cell).not.toContain('s3cr3t');
    expect(hrefs(cell)).toEqual([]);
  });

  it('GitHub renders the build link and an artifact link to their targets; a URL in server text stays text', () => {
    const md = renderSummary({
      operation: 'start-build',
      host: 'devops.example.com',
      asked: [],
      ok: false,
      headline: 'build #1',
      error: 'bk-ci said: see https://evil.example.com/phish and <https://evil.example.com/x>',
      blocks: [
        { kind: 'facts', rows: [['Link', { url: 'https://devops.example.com/console/pipeline/demo/p-1/detail/b-1' }]] },
        {
          kind: 'table',
          title: 'Artifacts',
          headers: ['File', 'Link'],
          rows: [['a.ipa', { url: 'https://repo.example.com/a.ipa?x=1&y=2' }]],
        },
      ],
    });
    expect(hrefs(md)).toEqual([
      'https://devops.example.com/console/pipeline/demo/p-1/detail/b-1',
      'https://repo.example.com/a.ipa?x=1&amp;y=2',
    ]);
  });
});
