// The job summaries of the build operations rendered as GitHub renders them (GFM, through marked),
// and read as HTML: one heading per section, no empty cell, every table's rows as wide as its
// header, links only to http(s) URLs, no runner-temp path. run() in this process, on a fake clock.
import { tmpdir } from 'node:os';
import { marked } from 'marked';
import { afterAll, describe, expect, it } from 'vitest';
import { demoBuild } from '../../emulator/demo-build.ts';
import { atReview } from '../../emulator/demo-world.ts';
import type { StepResult } from '../support/dist-runner.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { useWorld } from '../support/world.ts';

afterAll(cleanupRuns);

const world = useWorld();

const step = (inputs: Record<string, string>): Promise<StepResult> =>
  runInProcess({ inputs: { ...world.connection(), 'poll-interval': '1s', retries: '0', ...inputs }, clock: world.clock });

/** GFM as github.com renders a job summary. */
const render = (markdown: string): string => marked.parse(markdown, { gfm: true, async: false });

/** A Markdown table row's cells, split where GFM splits them: at every `|` not escaped. */
const cellsOf = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/);

/** What a reader of the rendered summary should never meet; each problem named. */
function problems(markdown: string): string[] {
  const html = render(markdown);
  const found: string[] = [];
  const headings = [...html.matchAll(/<h(\d)[^>]*>([\s\S]*?)<\/h\1>/g)].map((m) => m[2] ?? '');
  for (const h of new Set(headings)) if (headings.filter((x) => x === h).length > 1) found.push(`heading "${h}" twice`);
  const firstHeaders = [...html.matchAll(/<thead>\s*<tr>\s*<th[^>]*>([\s\S]*?)<\/th>/g)].map((m) => m[1] ?? '');
  for (const h of new Set(firstHeaders))
    if (firstHeaders.filter((x) => x === h).length > 1) found.push(`${firstHeaders.filter((x) => x === h).length} tables headed "${h}"`);
  for (const table of html.match(/<table>[\s\S]*?<\/table>/g) ?? []) {
    const rows = table.match(/<tr>[\s\S]*?<\/tr>/g) ?? [];
    const widths = rows.map((r) => (r.match(/<t[hd][ >]/g) ?? []).length);
    if (new Set(widths).size !== 1) found.push(`a table with rows of ${[...new Set(widths)].join(', ')} cells`);
    if (/<t[hd][^>]*>\s*<\/t[hd]>/.test(table)) found.push(`an empty cell: ${table.slice(0, 200)}`);
    // A table must not come out of a section without a heading to say what it is.
  }
  // Every table in the Markdown: each line as many cells as its header (marked pads or cuts them, GitHub too).
  for (const block of markdown.match(/(?:^\|.*\|[ \t]*\n?)+/gm) ?? []) {
    const lines = block.trimEnd().split('\n');
    const width = cellsOf(lines[0] ?? '').length;
    for (const line of lines)
      if (cellsOf(line).length !== width) found.push(`a row of ${cellsOf(line).length} cells in a table of ${width}: ${line}`);
  }
  for (const m of html.matchAll(/<a\s[^>]*href="([^"]*)"/g)) if (!/^https?:\/\//.test(m[1] ?? '')) found.push(`a link to ${m[1]}`);
  for (const m of html.matchAll(/<img\s[^>]*src="([^"]*)"/g)) found.push(`an image ${m[1]}`);
  // The harness's RUNNER_TEMP is <tmpdir>/bkci-run-…/runner-temp (test/support/in-process.ts).
  if (/runner-temp|bkci-run-/.test(html)) found.push('a runner-temp path');
  if (/<table>/.test(html) && !/<h\d/.test(html)) found.push('tables without a heading');
  return found;
}

const SHOWN = { 'pipeline-id': 'p-app', logs: 'live', artifacts: 'true', variables: 'jobs.build.steps.compile.outputs.VERSION' };

describe('the summary of each build operation, rendered as GitHub does', () => {
  it('start-build that succeeds, and build-status reading it afterwards', async () => {
    world.pipeline({
      phases: [
        { status: 'QUEUE', ms: 1000 },
        { status: 'RUNNING', ms: 3000 },
      ],
      ...demoBuild(1000, 3000),
    });
    const r = await step({ operation: 'start-build', ...SHOWN });
    expect(r.errors).toEqual([]);
    expect(problems(r.summary)).toEqual([]);
    expect(render(r.summary)).toMatch(/<a href="http:\/\/127\.0\.0\.1:\d+\/console\/pipeline\/demo\/p-app\/detail\/b-\w+">/);
    const s = await step({ operation: 'build-status', 'build-id': r.outputs['build-id'] ?? '', ...SHOWN });
    expect(s.errors).toEqual([]);
    expect(problems(s.summary)).toEqual([]);
  });

  it('start-build that fails, with the failed steps and an error text holding | and a path', async () => {
    world.pipeline({
      phases: [{ status: 'RUNNING', ms: 2000 }],
      result: 'FAILED',
      errorInfoList: [{ taskName: 'unit | tests', errorCode: 2199001, errorMsg: '3 tests failed | see /tmp/x.log and file:///etc/passwd' }],
      ...demoBuild(0, 2000),
    });
    const r = await step({ operation: 'start-build', ...SHOWN, logs: 'on-failure' });
    expect(r.code).toBe(1);
    expect(problems(r.summary)).toEqual([]);
    const html = render(r.summary);
    expect(html).toContain('3 tests failed');
    // A build log's colours are taken out of the summary's code blocks, not shown as ␛[32m.
    expect(html).toContain('\n120 passed\n');
    expect(html).not.toContain('␛');
  });

  it('review-build: an approval (the step ends), and one followed to the end with wait', async () => {
    world.pipeline({ ...atReview('alice'), ...demoBuild(0, 2000) });
    const atItsReview = async (): Promise<string> =>
      (await step({ operation: 'start-build', 'pipeline-id': 'p-app', wait: 'false', logs: 'none' })).outputs['build-id'] ?? '';
    const approve = await step({ operation: 'review-build', 'build-id': await atItsReview(), decision: 'approve', suggestion: 'ok | go' });
    expect(approve.errors).toEqual([]);
    expect(problems(approve.summary)).toEqual([]);
    // The build's page is a link, as in every other build summary (it was code).
    expect(render(approve.summary)).toContain(`<td>Link</td>\n<td><a href="${approve.outputs['build-url']}">`);
    const followed = await step({
      operation: 'review-build',
      'build-id': await atItsReview(),
      decision: 'approve',
      wait: 'true',
      ...SHOWN,
    });
    expect(followed.errors).toEqual([]);
    expect(problems(followed.summary)).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it.each([
    ['## A\n\n| a | b |\n| --- | --- |\n| x |  |\n', 'an empty cell'],
    ['## A\n\n| a | b |\n| --- | --- |\n| x | y | z |\n', 'a row of 3 cells in a table of 2'],
    ['## A\n\n| a | b |\n| --- | --- |\n| x | `y | z` |\n', 'a row of 3 cells in a table of 2'],
    ['## A\n\n| Result | b |\n| --- | --- |\n| x | y |\n\n## B\n\n| Result | b |\n| --- | --- |\n| x | y |\n', '2 tables headed "Result"'],
    ['## A\n\ntext\n\n## A\n\nmore\n', 'heading "A" twice'],
    ['## A\n\n[log](file:///tmp/x)\n', 'a link to file:///tmp/x'],
    [`## A\n\n${tmpdir()}/bkci-run-1/runner-temp/log.txt\n`, 'a runner-temp path'],
    ['| a | b |\n| --- | --- |\n| x | y |\n', 'tables without a heading'],
  ])('%j: %s', (markdown, problem) => {
    expect(problems(markdown).join('; ')).toContain(problem);
  });

  it('an escaped | stays in its cell, and a clean summary has none', () => {
    expect(problems('## A\n\n| a | b |\n| --- | --- |\n| x | y \\| z |\n\n[bk-ci](https://devops.example.com)\n')).toEqual([]);
  });
});
