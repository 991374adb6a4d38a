// The job summary of a build as GitHub renders it (GFM, through marked): one Result table, no empty
// rows, stage names, sizes a reader takes in. run() in this process writes the summary file through
// the same code as the built action.
import { marked } from 'marked';
import { afterAll, describe, expect, it } from 'vitest';
import { demoBuild } from '../../emulator/demo-build.ts';
import { formatSize } from '../../src/base/size.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { useWorld } from '../support/world.ts';

afterAll(cleanupRuns);

describe('the summary of a build, rendered as GitHub does', () => {
  const w = useWorld();

  it('has one Result table, no row without a value, the trigger stage by name, and sizes in KiB/MiB', async () => {
    w.pipeline({ pipelineId: 'p-demo', phases: [{ status: 'RUNNING', ms: 300 }], ...demoBuild(0, 300) });
    const r = await runInProcess({
      inputs: { ...w.connection(), operation: 'start-build', 'pipeline-id': 'p-demo', artifacts: 'true', 'poll-interval': '1s' },
      clock: w.clock,
    });
    expect(r.code, r.stdout).toBe(0);
    const html = marked.parse(r.summary, { gfm: true, async: false });
    const headers = [...html.matchAll(/<thead>\s*<tr>\s*<th>([^<]*)<\/th>/g)].map((m) => m[1]);
    expect(headers.filter((h) => h === 'Result')).toHaveLength(1);
    expect(headers.filter((h) => h === 'Asked')).toHaveLength(1);
    // No two-column row whose value is blank, in Asked or Result.
    expect(r.summary).not.toMatch(/^\| [^|]+ \| {1,2}\|$/m);
    expect(html).toContain('<td>Conclusion</td>');
    expect(r.summary).not.toMatch(/\| stage-1 \|/);
    expect(r.summary).toMatch(/^\| Trigger \| /m);
    const sizes = [...r.summary.matchAll(/^\| [^|]+ \| ([^|]+) \| <http/gm)].map((m) => m[1]?.trim());
    expect(sizes.length).toBeGreaterThan(0);
    for (const size of sizes) expect(size).toMatch(/^\d+(\.\d)? (B|KiB|MiB|GiB)$/);
  });
});

describe('formatSize', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1 KiB'],
    [1536, '1.5 KiB'],
    [200 * 1024, '200 KiB'],
    [5 * 1024 * 1024 + 300 * 1024, '5.3 MiB'],
    [3 * 1024 ** 3, '3 GiB'],
  ])('%d bytes is %s', (bytes, shown) => {
    expect(formatSize(bytes)).toBe(shown);
  });
});
