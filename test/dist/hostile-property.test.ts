// A property over the built action: whatever a server answers (status line, headers, body), the
// step never prints a runner command, never crashes, and never shows a secret.
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStep, unescapeData, useInstalledAction } from '../support/dist-runner.ts';
import { httpAnswer, rawServer } from '../support/raw-server.ts';

const installed = useInstalledAction({ beforeAll, afterAll });

const TOKEN = 'tOk-8f3a%2Bq9Z%2Fw1x%3D';
const SECRET = 'cb"Sec\\ret-77';

/** Pieces of text a hostile server would put anywhere. */
const nasty = fc.constantFrom(
  '::error::pwned',
  '\n::warning::pwned',
  '\r\n  ::set-output name=x::y',
  '##[error]pwned',
  '##[add-mask]x',
  '%0A::debug::x',
  '\u2028::error::u',
  TOKEN,
  decodeURIComponent(TOKEN),
  SECRET,
  JSON.stringify(SECRET).slice(1, -1),
  '<a href="javascript:x">y</a>',
  'https://evil.example/a_b(c)',
  '\ufeff',
  '{0}',
);
const text = fc
  .array(fc.oneof(nasty, fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 })), { maxLength: 6 })
  .map((parts) => parts.join(''));
const jsonBody = fc.record({
  code: fc.constantFrom(0, 1, 2101038, undefined),
  status: fc.constantFrom(0, 500, undefined),
  message: text,
  data: fc.oneof(fc.constant(undefined), fc.record({ englishName: fc.constantFrom('demo'), projectName: text, extra: text })),
});
const body = fc.oneof(
  jsonBody.map((b) => JSON.stringify(b)),
  text,
  text.map((t) => `<html><body><h1>${t}</h1></body></html>`),
);
const headerValue = fc.string({ maxLength: 30 }).map((v) => v.replace(/[\r\n\0]/g, ' ').replace(/[^\x20-\x7e]/g, '?'));
const answer = fc.record({
  status: fc.constantFrom(200, 201, 204, 301, 400, 401, 403, 404, 409, 429, 500, 502, 503),
  reason: fc.oneof(
    fc.constant('X'),
    headerValue.map((v) => v.replace(/::|##\[/g, '') || 'X'),
    nasty.filter((n) => !/[\r\n\u2028]/.test(n)),
  ),
  headers: fc.dictionary(
    fc.constantFrom('x-a', 'retry-after', 'x-bkapi-error-message', 'content-type', 'x-devops-msg'),
    fc.oneof(
      headerValue,
      nasty.filter((n) => !/[\r\n\u2028]/.test(n)),
    ),
  ),
  body,
});

describe('random server answers, the built action', () => {
  it('never print a runner command, never crash the step, never show a secret', async () => {
    await fc.assert(
      fc.asyncProperty(answer, async (a) => {
        const server = await rawServer(() =>
          httpAnswer(`${a.status} ${a.reason}`, { ...a.headers, 'content-type': a.headers['content-type'] ?? 'application/json' }, a.body),
        );
        try {
          const r = await runStep(installed(), {
            inputs: {
              operation: 'get-project',
              'base-url': server.url,
              'access-token': TOKEN,
              'user-id': 'alice',
              'secret-token': SECRET,
              'project-id': 'demo',
              retries: '0',
            },
          });
          expect([0, 1]).toContain(r.code);
          expect(r.stderr).toBe('');
          const lines = r.stdout.split(/\r?\n/);
          for (const line of lines) {
            expect(line).not.toMatch(/##\[/);
            const m = /^\s*::([\w-]+)/.exec(line);
            if (m) expect(['add-mask', 'debug', 'warning', 'error']).toContain(m[1]);
            // What a command carries, unescaped by the runner, cannot start another one.
            if (/^::(debug|warning|error)::/.test(line))
              for (const inner of unescapeData(line.replace(/^::\w+::/, '')).split(/\r\n|\r|\n/)) expect(inner).not.toMatch(/^\s*::|##\[/);
          }
          const dataFile = r.outputs['data-file'] ? await readFile(r.outputs['data-file'], 'utf8') : '';
          const shown = [unescapeData(r.stdout.replace(/^::add-mask::.*$/gm, '')), r.summary, JSON.stringify(r.outputs), dataFile].join(
            '\n',
          );
          for (const secret of [TOKEN, decodeURIComponent(TOKEN), SECRET, JSON.stringify(SECRET).slice(1, -1)])
            expect(shown).not.toContain(secret);
          if (r.code === 1) expect(r.errors).toHaveLength(1);
        } finally {
          await server.close();
        }
      }),
      { numRuns: 24 },
    );
  }, 120_000);
});
