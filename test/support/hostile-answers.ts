// Hostile server answers (status line, headers, body) for get-project, and what the step may show
// of them: shared by the property run in process (test/run/hostile-answers-property.test.ts) and
// the hardest cases run through the built action (test/dist/hostile-property.test.ts).
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import type { ExpectStatic } from 'vitest';
import { type StepResult, unescapeData } from './dist-runner.ts';
import { httpAnswer, rawServer } from './raw-server.ts';

const TOKEN = 'tOk-8f3a%2Bq9Z%2Fw1x%3D';
const SECRET = 'cb"Sec\\ret-77';

/** Pieces of text a hostile server would put anywhere. */
const NASTY = [
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
];
const nasty = fc.constantFrom(...NASTY);
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
/** What may stand on a header line or the status line: no line breaks. */
const oneLine = (n: string): boolean => !/[\r\n\u2028]/.test(n);

export interface Answer {
  status: number;
  reason: string;
  headers: Record<string, string>;
  body: string;
}

export const answer: fc.Arbitrary<Answer> = fc.record({
  status: fc.constantFrom(200, 201, 204, 301, 400, 401, 403, 404, 409, 429, 500, 502, 503),
  reason: fc.oneof(
    fc.constant('X'),
    headerValue.map((v) => v.replace(/::|##\[/g, '') || 'X'),
    nasty.filter(oneLine),
  ),
  headers: fc.dictionary(
    fc.constantFrom('x-a', 'retry-after', 'x-bkapi-error-message', 'content-type', 'x-devops-msg'),
    fc.oneof(headerValue, nasty.filter(oneLine)),
  ),
  body,
});

/** Every nasty piece in one text, and the ones that fit on a header line. */
const ALL = NASTY.join(' ');
const ALL_ONE_LINE = NASTY.filter(oneLine).join(' ');

/**
 * The hardest answers the property generates, written out: every nasty piece at once in each place
 * a server puts text (the status line, each header, a JSON error, the data the step outputs, HTML).
 */
export const HARDEST: Answer[] = [
  {
    status: 200,
    reason: 'OK',
    headers: { 'x-devops-msg': ALL_ONE_LINE },
    body: JSON.stringify({ code: 0, status: 0, message: ALL, data: { englishName: 'demo', projectName: ALL, extra: ALL } }),
  },
  {
    status: 500,
    reason: '::error::pwned',
    headers: { 'x-bkapi-error-message': ALL_ONE_LINE, 'x-devops-msg': TOKEN, 'x-a': '##[error]pwned' },
    body: JSON.stringify({ code: 2101038, status: 500, message: ALL }),
  },
  {
    status: 401,
    reason: '##[add-mask]x',
    headers: { 'content-type': 'text/html', 'retry-after': '::error::pwned' },
    body: `<html><body><h1>${ALL}</h1></body></html>`,
  },
  {
    status: 429,
    reason: decodeURIComponent(TOKEN),
    headers: { 'retry-after': decodeURIComponent(TOKEN), 'content-type': SECRET },
    body: ALL,
  },
];

/** A loopback server that gives `a` to every request. */
export const serveAnswer = (a: Answer) =>
  rawServer(() =>
    httpAnswer(`${a.status} ${a.reason}`, { ...a.headers, 'content-type': a.headers['content-type'] ?? 'application/json' }, a.body),
  );

/** get-project with every secret input set, and no retry. */
export const hostileInputs = (url: string): Record<string, string> => ({
  operation: 'get-project',
  'base-url': url,
  'access-token': TOKEN,
  'user-id': 'alice',
  'secret-token': SECRET,
  'project-id': 'demo',
  retries: '0',
});

/** The step ended as a step does, printed no command but its own, and showed no secret anywhere. */
export async function expectNothingLeaked(r: StepResult, expect: ExpectStatic): Promise<void> {
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
  const shown = [unescapeData(r.stdout.replace(/^::add-mask::.*$/gm, '')), r.summary, JSON.stringify(r.outputs), dataFile].join('\n');
  for (const secret of [TOKEN, decodeURIComponent(TOKEN), SECRET, JSON.stringify(SECRET).slice(1, -1)]) expect(shown).not.toContain(secret);
  if (r.code === 1) expect(r.errors).toHaveLength(1);
}
