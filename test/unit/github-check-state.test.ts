// The check run's state as decisions (src/github/check-state.ts) and what GitHub's answers mean
// (src/github/client.ts): whose check run is whose, the cadence a failure lengthens, the time
// GitHub may take, one warning per kind, what a failed last update leads to, GitHub's words.
import { describe, expect, it } from 'vitest';
import { errorPage } from '../../emulator/github-faults.ts';
import {
  afterFailedFinal,
  backoff,
  CANCEL_WINDOW_MS,
  Cadence,
  END_GRACE_MS,
  ENDS_CHECK,
  FINAL_BUDGET_MS,
  FirstOfKind,
  MAX_BACKOFF_MS,
  ownRun,
  sizeAgain,
  UPDATE_EVERY_MS,
  until,
} from '../../src/github/check-state.ts';
import { classify, type Problem, type ProblemKind, saidOf, scrubDeep } from '../../src/github/client.ts';

describe('whose check run', () => {
  const run = (id: number, name: string, external_id: string | null | undefined, status = 'in_progress') => ({
    id,
    name,
    external_id,
    status,
  });
  it.each([
    ['this build’s, in progress', [run(1, 'bk-ci App', 'b-B')], 1],
    ['another build’s of the same name is never taken', [run(1, 'bk-ci App', 'b-A')], undefined],
    ['one without a build id is never taken', [run(1, 'bk-ci App', null), run(2, 'bk-ci App', undefined)], undefined],
    ['this build’s under another name is another check', [run(1, 'bk-ci Other', 'b-B')], undefined],
    ['a completed one is an earlier verdict, left as it is', [run(1, 'bk-ci App', 'b-B', 'completed')], undefined],
    ['queued counts as under way', [run(1, 'bk-ci App', 'b-B', 'queued')], 1],
    ['the newest of several, in any order', [run(3, 'bk-ci App', 'b-B'), run(7, 'bk-ci App', 'b-B'), run(5, 'bk-ci App', 'b-B')], 7],
    ['the newest under way, not the newest', [run(9, 'bk-ci App', 'b-B', 'completed'), run(4, 'bk-ci App', 'b-B')], 4],
  ] as const)('%s', (_, runs, id) => {
    expect(ownRun(runs, 'bk-ci App', 'b-B')?.id).toBe(id);
  });
});

describe('the cadence', () => {
  it.each([
    [1, 10_000],
    [2, 20_000],
    [3, 40_000],
    [4, 80_000],
    [5, 80_000],
    [0, 10_000],
  ])('after %i failures in a row the next write waits %i ms', (failures, ms) => {
    expect(backoff(failures)).toBe(ms);
  });

  it('an interval after a write GitHub took; longer after each failure; never before GitHub asked', () => {
    const c = new Cadence();
    expect(c.failing).toBe(false);
    expect(c.waitFrom(0)).toBe(0);
    c.ok(1000);
    expect([c.waitFrom(1000), c.waitFrom(10_999), c.waitFrom(11_000), c.waitFrom(50_000)]).toEqual([UPDATE_EVERY_MS, 1, 0, 0]);
    c.failed(20_000, 0);
    expect(c.waitFrom(20_000)).toBe(10_000);
    c.failed(30_000, 0);
    expect(c.waitFrom(30_000)).toBe(20_000);
    c.failed(50_000, 50_000);
    expect(c.waitFrom(50_000)).toBe(50_000);
    c.failed(100_000, 0);
    expect(c.waitFrom(100_000)).toBe(MAX_BACKOFF_MS);
    expect(c.failing).toBe(true);
    c.ok(200_000);
    expect(c.failing).toBe(false);
    c.failed(210_000, 0);
    expect(c.waitFrom(210_000)).toBe(10_000);
  });
});

describe('the time GitHub may take', () => {
  it.each([
    ['the timeout and its grace', { deadline: 100_000 }, 100_000 + END_GRACE_MS],
    ['the end’s budget, when sooner', { deadline: 100_000, finishedAt: 50_000 }, 50_000 + FINAL_BUDGET_MS],
    ['the grace, when sooner than the end’s budget', { deadline: 100_000, finishedAt: 99_000 }, 100_000 + END_GRACE_MS],
    ['a cancel’s window', { deadline: 100_000, finishedAt: 50_000, cancelledAt: 40_000 }, 40_000 + CANCEL_WINDOW_MS],
    ['a cancel during the end', { deadline: 100_000, finishedAt: 50_000, cancelledAt: 60_000 }, 60_000 + CANCEL_WINDOW_MS],
    ['a cancel after the timeout', { deadline: 100_000, cancelledAt: 104_000 }, 100_000 + END_GRACE_MS],
    [
      'an end after the grace, GitHub answering: the grace from the end',
      { deadline: 100_000, finishedAt: 108_000, answering: true },
      108_000 + END_GRACE_MS,
    ],
    [
      'an end after the grace, GitHub failing: the timeout’s grace',
      { deadline: 100_000, finishedAt: 108_000, answering: false },
      100_000 + END_GRACE_MS,
    ],
    [
      'an end before the timeout, GitHub answering: the timeout’s grace',
      { deadline: 100_000, finishedAt: 99_000, answering: true },
      100_000 + END_GRACE_MS,
    ],
    [
      'a cancel during an end after the grace',
      { deadline: 100_000, finishedAt: 108_000, cancelledAt: 109_000, answering: true },
      109_000 + CANCEL_WINDOW_MS,
    ],
  ])('%s', (_, t, at) => {
    expect(until(t)).toBe(at);
  });

  it('fits the runner: a cancelled step exits within 2 s; a grace of a few seconds', () => {
    expect(CANCEL_WINDOW_MS).toBeLessThan(1800);
    expect(END_GRACE_MS).toBeLessThanOrEqual(5000);
  });
});

describe('what is said', () => {
  it('one warning per kind of problem', () => {
    const said = new FirstOfKind();
    expect(['outage', 'outage', 'timeout', 'outage', 'timeout', 'rate'].map((k) => said.first(k))).toEqual([
      true,
      false,
      true,
      false,
      false,
      true,
    ]);
  });

  it('the check ends for this step only when GitHub will not take it from this token', () => {
    expect([...ENDS_CHECK].sort()).toEqual(['auth', 'forbidden', 'refused']);
  });
});

describe('a last update that failed', () => {
  const p = (kind: ProblemKind): Problem => ({ kind, status: undefined, message: '', maybeApplied: false });
  it.each([
    ['invalid', 0, 1, 'smaller'],
    ['invalid', 1, 1, 'smaller'],
    ['invalid', 2, 1, 'stop'],
    ['outage', 0, 1, 'again'],
    ['timeout', 0, 1, 'again'],
    ['rate', 0, 1, 'again'],
    ['outage', 0, 2, 'stop'],
    ['late', 0, 1, 'stop'],
    ['forbidden', 0, 1, 'stop'],
    ['auth', 0, 1, 'stop'],
    ['refused', 0, 1, 'stop'],
  ] as const)('%s (body size %i, attempt %i): %s', (kind, size, attempts, next) => {
    expect(afterFailedFinal(p(kind), size, 2, attempts)).toBe(next);
  });

  // GitHub adds an update's annotations to the run's: after one that may have been applied, none again.
  it.each([
    [true, 0, 1],
    [true, 1, 1],
    [true, 2, 2],
    [false, 0, 0],
    [false, 1, 1],
  ] as const)('sent again after one that may have been applied (%s), from size %i: size %i', (maybeApplied, size, again) => {
    expect(sizeAgain({ ...p('outage'), maybeApplied }, size)).toBe(again);
  });
});

describe("GitHub's answers", () => {
  const error = (status: number | undefined, data: unknown, headers: Record<string, string> = {}) =>
    Object.assign(new Error('raw message'), status === undefined ? {} : { status, response: { headers, data } });
  const now = 1_700_000_000_000;
  it.each([
    ['401', error(401, { message: 'Bad credentials' }), 'auth', 'Bad credentials', false],
    [
      '403',
      error(403, { message: 'Resource not accessible by integration' }),
      'forbidden',
      'Resource not accessible by integration',
      false,
    ],
    ['404', error(404, { message: 'Not Found' }), 'forbidden', 'Not Found', false],
    ['422', error(422, { message: 'Validation Failed' }), 'invalid', 'Validation Failed', false],
    ['400', error(400, { message: 'Problems parsing JSON' }), 'refused', 'Problems parsing JSON', false],
    ['409', error(409, 'conflict'), 'refused', 'conflict', false],
    ['502 page', error(502, String(errorPage(502).body)), 'outage', 'Unicorn! · GitHub', true],
    ['503 text', error(503, 'upstream connect error\n\nor disconnect'), 'outage', 'upstream connect error or disconnect', true],
    ['500 empty', error(500, ''), 'outage', 'raw message', true],
    ['no answer', error(undefined, undefined), 'outage', 'raw message', true],
    ['a secondary limit', error(403, { message: 'slow down' }, { 'retry-after': '50' }), 'rate', 'slow down', false],
  ] as const)('%s', (_, e, kind, message, maybeApplied) => {
    expect(classify(e, now)).toMatchObject({ kind, message, maybeApplied });
  });

  it('a secondary limit carries its wait', () => {
    expect(classify(error(429, { message: 'x' }, { 'retry-after': '50' }), now).waitMs).toBe(50_000);
  });

  it('an error page is one line: its title, or its first words, cut', () => {
    expect(saidOf('<html><head><title>\n  503 Service\n Unavailable </title></head><body>long</body></html>', 'f')).toBe(
      '503 Service Unavailable',
    );
    expect(saidOf(`<p>${'w '.repeat(200)}</p>`, 'f')).toMatch(/^(w ){100}… \(199 more characters\)$/);
    expect(saidOf({ message: 'a\nb' }, 'f')).toBe('a b');
    expect(saidOf({ other: 1 }, 'f')).toBe('f');
    expect(saidOf('   ', 'f')).toBe('f');
    expect(saidOf('x &quot;y&quot; &mdash; z', 'f')).toBe('x "y" — z');
  });

  it('every string of a body scrubbed, however deep; nothing else changed', () => {
    const scrub = (t: string): string => t.replaceAll('tok', '***');
    expect(scrubDeep({ a: 'tok', b: [1, 'x tok', { c: 'tok' }], d: null, e: true, f: 2 }, scrub)).toEqual({
      a: '***',
      b: [1, 'x ***', { c: '***' }],
      d: null,
      e: true,
      f: 2,
    });
  });
});
