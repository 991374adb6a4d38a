import fc from 'fast-check';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { renderSummary, SUMMARY_LIMIT, SUMMARY_ROWS } from '../../src/runner/summary.ts';

describe('renderSummary', () => {
  it('escapes server text and scrubs secrets', () => {
    const md = renderSummary({
      operation: 'get-project',
      host: 'devops.example.com',
      asked: [['project-id', 'demo']],
      ok: false,
      headline: 'failed',
      blocks: [{ kind: 'facts', rows: [['Message', '<script>x</script> | **b** tok123']] }],
      error: 'HTTP 400: bad\n::warning::x',
      scrub: (t) => t.replaceAll('tok123', '***'),
    });
    expect(md).toContain('&lt;script&gt;x&lt;/script&gt; \\| \\*\\*b\\*\\* \\*\\*\\*');
    expect(md).not.toContain('tok123');
    expect(md).not.toMatch(/^::/m);
    expect(md).toContain('❌');
  });

  it('stays under 1 MiB', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => [`project-${i}`, 'x'.repeat(2000)]);
    const md = renderSummary({
      operation: 'list-projects',
      host: 'h',
      asked: [],
      ok: true,
      headline: 'many',
      blocks: [{ kind: 'table', title: 't', headers: ['a', 'b'], rows }],
    });
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(SUMMARY_LIMIT);
    expect(md).toMatch(/summary cut at 1 MiB/);
  });

  it('shows the first rows of a long table and says how many more there were', () => {
    const rows = Array.from({ length: SUMMARY_ROWS + 7 }, (_, i) => [`e-${i}`]);
    const md = renderSummary({
      operation: 'x',
      host: 'h',
      asked: [],
      ok: true,
      headline: 'h',
      blocks: [{ kind: 'table', title: 't', headers: ['a'], rows }],
    });
    expect(md).toContain(`| e-${SUMMARY_ROWS - 1} |`);
    expect(md).not.toContain(`| e-${SUMMARY_ROWS} |`);
    expect(md).toMatch(/… 7 more rows not shown \(the whole result is in data-file\)/);
  });
});

describe('the summary, exactly', () => {
  it('lays out the headline, the failure, what was asked and each block as GFM', () => {
    const md = renderSummary({
      operation: 'get-project',
      host: 'devops.example.com',
      asked: [['project-id', 'demo']],
      ok: false,
      headline: 'failed',
      error: 'boom',
      blocks: [
        { kind: 'facts', rows: [['Project', 'demo']] },
        { kind: 'table', title: 'Events', headers: ['Event', 'Result'], rows: [['BUILD_END', '']] },
        { kind: 'note', text: 'n' },
      ],
    });
    expect(md).toBe(
      `${[
        '### ❌ bk-ci get-project: failed',
        'Host: devops.example.com',
        '**Failed:** boom',
        '| Asked | Value |\n|---|---|\n| project-id | demo |',
        '| Result | Value |\n|---|---|\n| Project | demo |',
        '#### Events\n\n| Event | Result |\n|---|---|\n| BUILD_END | — |',
        'n',
      ].join('\n\n')}\n`,
    );
  });

  it('says nothing of a failure on success, nor of what was asked when nothing was, and no note on a table at its bound', () => {
    const rows = Array.from({ length: SUMMARY_ROWS }, (_, i) => [`e-${i}`]);
    const md = renderSummary({
      operation: 'x',
      host: 'h',
      asked: [],
      ok: true,
      headline: 'h',
      error: 'e',
      blocks: [{ kind: 'table', title: 't', headers: ['a'], rows }],
    });
    expect(md).not.toMatch(/Failed|Asked|more rows/);
  });

  it('cut at 1 MiB between whole lines, the note included', () => {
    const table = {
      kind: 'table' as const,
      title: 't',
      headers: ['a'],
      rows: Array.from({ length: SUMMARY_ROWS }, (_, i) => [`row-${i}-${'y'.repeat(30)}`]),
    };
    const md = renderSummary({
      operation: 'x',
      host: 'h',
      asked: [],
      ok: true,
      headline: 'h',
      blocks: Array.from({ length: 40 }, () => table),
    });
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(SUMMARY_LIMIT);
    const lines = md.split('\n');
    expect(lines.at(-2)).toMatch(/summary cut at 1 MiB/);
    expect(lines.at(-4)).toMatch(/^\| row-\d+-y{30} \|$/);
  });
});

/** Every link as GitHub renders the summary (GFM: tables, autolinks): its target and its text. */
function links(md: string): { href: string; text: string }[] {
  const html = marked.parse(md, { gfm: true, async: false });
  const decode = (s: string): string =>
    s
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
  return [...html.matchAll(/<a href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)].map((m) => ({ href: decode(m[1] ?? ''), text: decode(m[2] ?? '') }));
}

/** The text of every code span of the rendered summary, entities decoded. */
function codes(md: string): string[] {
  const html = marked.parse(md, { gfm: true, async: false });
  return [...html.matchAll(/<code>([\s\S]*?)<\/code>/g)].map((m) =>
    (m[1] ?? '')
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&'),
  );
}

const summaryOf = (rows: [string, string][], error?: string): string =>
  renderSummary({
    operation: 'get-project',
    host: 'h',
    asked: [],
    ok: error === undefined,
    headline: 'x',
    blocks: [{ kind: 'facts', rows }],
    ...(error === undefined ? {} : { error }),
  });

describe('no server text becomes a link in the summary, as GitHub renders it (GFM)', () => {
  it.each([
    [
      'a plain download URL',
      'https://bkrepo.example.com/generic/demo/ipa/app_signed.ipa',
      'https://bkrepo.example.com/generic/demo/ipa/app_signed.ipa',
    ],
    [
      'underscores, stars, brackets and a query',
      'https://h.example/a_b/c*d/(e)?x=1&y=[2]#top',
      'https://h.example/a_b/c*d/(e)?x=1&y=[2]#top',
    ],
    ['a pipe, which would split a table cell', 'https://h.example/a|b', 'https://h.example/a%7Cb'],
    ['an autolink', '<https://evil.example/x>', 'https://evil.example/x'],
    ['a www. address', 'see www.evil.example/login', 'www.evil.example/login'],
    ['an upper-case scheme', 'HTTPS://EVIL.EXAMPLE', 'HTTPS://EVIL.EXAMPLE'],
    ['an ftp URL', 'ftp://files.example/x', 'ftp://files.example/x'],
  ])('%s in a facts table is shown whole, as code, never a link', (_, text, code) => {
    const md = summaryOf([['Download URL', text]]);
    expect(links(md)).toEqual([]);
    expect(codes(md)).toEqual([code]);
  });

  it('an e-mail address stays text, not a mailto link', () => {
    const md = summaryOf([['By', 'alice@example.com wrote to mailto:bob@example.com']]);
    expect(links(md)).toEqual([]);
    expect(marked.parse(md, { gfm: true, async: false })).toContain('alice@example.com');
  });

  it('a URL in an error message is code without the sentence around it, the rest stays text', () => {
    const md = summaryOf(
      [],
      'GET https://devops.example.com/ms/openapi/api/apigw/v3/projects/my_proj?access_token=*** answered HTTP 500 (see https://status.example.com/a_b).',
    );
    expect(links(md)).toEqual([]);
    expect(codes(md)).toEqual([
      'https://devops.example.com/ms/openapi/api/apigw/v3/projects/my_proj?access_token=***',
      'https://status.example.com/a_b',
    ]);
    expect(marked.parse(md, { gfm: true, async: false })).toContain('answered HTTP 500 (see ');
  });

  it('whatever the server writes, in every kind of block, no link and no HTML element comes of it', () => {
    const piece = fc.oneof(
      fc.string(),
      fc.constantFrom(
        'https://',
        'http://',
        'www.',
        '<',
        '>',
        '[',
        '](',
        ')',
        '@',
        'mailto:',
        '\\',
        '`',
        '|',
        ' ',
        '\n',
        '.com',
        'x',
        '_',
        '*',
      ),
    );
    const text = fc.array(piece, { maxLength: 12 }).map((p) => p.join(''));
    fc.assert(
      fc.property(text, text, (a, b) => {
        const md = renderSummary({
          operation: 'get-project',
          host: 'h',
          asked: [['q', a]],
          ok: false,
          headline: b,
          blocks: [
            { kind: 'facts', rows: [[a, b]] },
            { kind: 'table', title: a, headers: ['h'], rows: [[b]] },
            { kind: 'note', text: `${a} ${b}` },
          ],
          error: `${b}\n- ${a}`,
        });
        const html = marked.parse(md, { gfm: true, async: false });
        expect(html).not.toMatch(/<a[\s>]|<img|<script/i);
      }),
      { numRuns: 300 },
    );
  });

  it('server text that looks like a link or HTML stays text', () => {
    const md = renderSummary({
      operation: 'get-project',
      host: 'h',
      asked: [],
      ok: true,
      headline: 'x',
      blocks: [{ kind: 'facts', rows: [['Name', '[click](javascript:alert(1)) <img src=x onerror=alert(1)> <a href="x">y</a>']] }],
    });
    const html = marked.parse(md, { gfm: true, async: false });
    expect(links(md)).toEqual([]);
    expect(html).not.toMatch(/<img|<a /);
  });
});

describe("a log's lines in the summary", () => {
  it.each([
    ['backticks that would close a fence', ['```', 'a ```` b', 'end']],
    ['HTML, links and Markdown', ['<img src=x onerror=alert(1)>', '[click](https://evil.example)', '# not a heading', '| not | a table |']],
    ['control characters and line breaks inside a line', ['red \u001b[31mtext\u001b[0m', 'a\rb', 'tab\there']],
  ])('%s: shown as the text they are, one per line, in one code block', (_, lines) => {
    const md = renderSummary({
      operation: 'start-build',
      host: 'h',
      asked: [],
      ok: false,
      headline: 'x',
      blocks: [{ kind: 'lines', title: 'Last lines of unit', lines }],
    });
    const html = marked.parse(md, { gfm: true, async: false });
    expect(html.match(/<pre>/g)).toHaveLength(1);
    expect(html).not.toMatch(/<img|<a |<h1|<table/);
    const code = /<pre><code[^>]*>([\s\S]*?)<\/code><\/pre>/.exec(html)?.[1] ?? '';
    expect(code.trimEnd().split('\n')).toHaveLength(lines.length);
  });

  it('secrets are scrubbed from them', () => {
    const md = renderSummary({
      operation: 'start-build',
      host: 'h',
      asked: [],
      ok: false,
      headline: 'x',
      blocks: [{ kind: 'lines', title: 'Last lines', lines: ['token=s3cr3t-value'] }],
      scrub: (t) => t.replaceAll('s3cr3t-value', '***'),
    });
    expect(md).not.toContain('s3cr3t-value');
  });

  it('a secret a colour code splits is scrubbed once the code is taken out', () => {
    const esc = String.fromCharCode(0x1b);
    const md = renderSummary({
      operation: 'start-build',
      host: 'h',
      asked: [],
      ok: false,
      headline: 'x',
      blocks: [{ kind: 'lines', title: 'Last lines', lines: [`token=s3cr3t${esc}[32m-value${esc}[0m`] }],
      scrub: (t) => t.replaceAll('s3cr3t-value', '***'),
    });
    expect(md).not.toContain('s3cr3t-value');
    expect(md).toContain('token=***');
  });
});
