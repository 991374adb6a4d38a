import { describe, expect, it } from 'vitest';
import { renderSummary, SUMMARY_LIMIT } from '../../src/summary.ts';

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
    const rows = Array.from({ length: 30_000 }, (_, i) => [`project-${i}`, 'x'.repeat(40)]);
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
});
