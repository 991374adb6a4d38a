// A property over the whole path of a build's log: random lines (runner commands, the step's
// secrets, Unicode, long lines) written by a build come out of the step as plain text, and no
// secret shows in stdout, the summary, log-file or any output.
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { unescapeData } from '../support/dist-runner.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { useWorld } from '../support/world.ts';

const SECRET = 'cb"Sec\\ret-77';
const w = useWorld();
afterAll(cleanupRuns);

describe("a build's log, whatever it holds", () => {
  it('never prints a runner command and never shows a secret: stdout, summary, log-file, outputs', async () => {
    const secrets = () => [w.accessToken, decodeURIComponent(w.accessToken), SECRET, JSON.stringify(SECRET).slice(1, -1)];
    const nasty = fc.constantFrom(
      '::error::pwned',
      '\n::warning::pwned',
      '  ::add-mask::x',
      '::stop-commands::abc',
      '##[group]pwned',
      '##[endgroup]',
      '%0A::debug::x',
      '\u2028::error::u',
      '\r::error::r',
      '\u001b[31mred\u001b[0m',
      '```',
      '<img src=x onerror=alert(1)>',
      'TOKEN',
      'SECRET',
    );
    const piece = fc.oneof(nasty, fc.string({ maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 15 }));
    const line = fc.oneof(
      fc.array(piece, { minLength: 1, maxLength: 5 }).map((p) => p.join('')),
      // A long line with a secret where a cut would fall.
      fc.nat({ max: 40 }).map((n) => `${'x'.repeat(19_990 + n)}TOKEN${'y'.repeat(500)}`),
    );
    const lines = fc.array(fc.record({ text: line, step: fc.constantFrom('e-a', 'e-b'), lag: fc.nat({ max: 3000 }) }), {
      minLength: 1,
      maxLength: 8,
    });
    await fc.assert(
      fc.asyncProperty(lines, fc.constantFrom('live', 'on-failure'), async (written, logs) => {
        const text = (t: string) => t.replaceAll('TOKEN', w.accessToken).replaceAll('SECRET', SECRET);
        w.pipeline({
          phases: [{ status: 'RUNNING', ms: 5000 }],
          result: 'FAILED',
          errorInfoList: [{ taskName: text('##[error]SECRET'), errorCode: 1, errorMsg: text('::error::TOKEN') }],
          logs: {
            steps: [
              { tag: 'e-a', jobId: text('job::x'), stepId: 'a', containerHashId: 'c-1' },
              { tag: 'e-b', jobId: 'b', stepId: text('##[warning]SECRET'), containerHashId: 'c-2' },
            ],
            lines: written.map((w, i) => ({ at: 100 + i * 300, step: w.step, text: text(w.text), lagMs: w.lag })),
          },
        });
        const r = await runInProcess({
          inputs: {
            operation: 'start-build',
            'base-url': w.emu.url,
            'access-token': w.accessToken,
            'user-id': 'alice',
            'secret-token': SECRET,
            'project-id': 'demo',
            'pipeline-id': 'p-app',
            'poll-interval': '1s',
            retries: '0',
            logs,
          },
          clock: w.clock,
        });
        expect(r.code).toBe(1);
        for (const out of r.stdout.split(/\r?\n/)) {
          expect(out).not.toMatch(/##\[/);
          const m = /^\s*::([\w-]+)/.exec(out);
          if (m) expect(['add-mask', 'debug', 'warning', 'error', 'group', 'endgroup']).toContain(m[1]);
          if (/^::(debug|warning|error|group)::/.test(out))
            for (const inner of unescapeData(out.replace(/^::\w+::/, '')).split(/\r\n|\r|\n/)) expect(inner).not.toMatch(/^\s*::|##\[/);
        }
        const file = await readFile(r.outputs['log-file'] ?? '', 'utf8');
        for (const l of file.split('\n')) expect(l).not.toMatch(/^\s*::|##\[/);
        if (logs === 'live' || written.length > 0) expect(file.split('\n').filter((l) => l !== '').length).toBe(written.length);
        const shown = [unescapeData(r.stdout.replace(/^::add-mask::.*$/gm, '')), r.summary, JSON.stringify(r.outputs), file].join('\n');
        for (const s of secrets()) expect(shown).not.toContain(s);
      }),
      { numRuns: 30 },
    );
  }, 120_000);
});
