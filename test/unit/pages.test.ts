import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CancelledError } from '../../src/base/errors.ts';
import { type Page, type PagedList, readPages } from '../../src/wait/pages.ts';
import { FakeClock } from '../support/fake-clock.ts';

const PAGE_SIZE = 10;
const MAX = 200;

/** A server's way with `page`: honest, or one of the ways servers get it wrong. */
type Behaviour =
  | { kind: 'honest' }
  | { kind: 'ignores-page' }
  | { kind: 'ignores-size' }
  | { kind: 'repeats-last' }
  | { kind: 'wrong-count'; count: number }
  | { kind: 'no-count' }
  | { kind: 'null-count' }
  | { kind: 'random'; pages: number[][] };

function server(list: number[], b: Behaviour): (page: number) => Page<number> {
  const slice = (page: number): number[] => list.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  return (page) => {
    switch (b.kind) {
      case 'honest':
        return { items: slice(page), total: list.length };
      case 'ignores-page':
        return { items: slice(1) };
      case 'ignores-size':
        return { items: list };
      case 'repeats-last':
        return { items: slice(Math.min(page, Math.max(1, Math.ceil(list.length / PAGE_SIZE)))) };
      case 'wrong-count':
        return { items: slice(page), total: b.count };
      case 'no-count':
        return { items: slice(page) };
      case 'null-count':
        return { items: slice(page), total: null };
      case 'random':
        return { items: b.pages[(page - 1) % Math.max(1, b.pages.length)] ?? [] };
    }
  };
}

const behaviour: fc.Arbitrary<Behaviour> = fc.oneof(
  fc.constant({ kind: 'honest' as const }),
  fc.constant({ kind: 'ignores-page' as const }),
  fc.constant({ kind: 'ignores-size' as const }),
  fc.constant({ kind: 'repeats-last' as const }),
  fc.nat(400).map((count) => ({ kind: 'wrong-count' as const, count })),
  fc.constant({ kind: 'no-count' as const }),
  fc.constant({ kind: 'null-count' as const }),
  fc
    .array(fc.array(fc.nat(300), { minLength: PAGE_SIZE, maxLength: PAGE_SIZE + 2 }), { minLength: 1, maxLength: 5 })
    .map((pages) => ({ kind: 'random' as const, pages })),
);

async function read(list: number[], b: Behaviour, o: { maxPages?: number; fail?: (page: number) => Error | undefined } = {}) {
  const clock = new FakeClock();
  const answer = server(list, b);
  let requests = 0;
  const times: number[] = [];
  const result: PagedList<number> | Error = await readPages({
    read: async (page: number) => {
      requests++;
      times.push(clock.now());
      const failure = o.fail?.(page);
      if (failure !== undefined) throw failure;
      return answer(page);
    },
    key: String,
    pageSize: PAGE_SIZE,
    maxItems: MAX,
    ...(o.maxPages === undefined ? {} : { maxPages: o.maxPages }),
    paceMs: 200,
    clock,
    signal: new AbortController().signal,
    what: 'the list',
  }).catch((e: unknown) => e as Error);
  return { result, requests, times };
}

describe('the paging loop', () => {
  it('whatever the server does with page: it ends, each request brings something new, paced, each item kept once, within the bound', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.nat(1000), { maxLength: 400 }), behaviour, async (list, b) => {
        const { result, requests, times } = await read(list, b);
        // Every request but the last brought at least one new item, and at most MAX are kept.
        expect(requests).toBeLessThanOrEqual(MAX + 2);
        // The first request goes at once; every other one after the pause.
        expect(times[0]).toBe(0);
        for (let i = 1; i < times.length; i++) expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(200);
        if (result instanceof Error) throw result;
        // Each item once, within the bound; what a page that went wrong left is kept, and said.
        expect(new Set(result.items).size).toBe(result.items.length);
        expect(result.items.length).toBeLessThanOrEqual(MAX);
        if (result.incomplete !== undefined)
          expect(result.incomplete.said).toMatch(/^the list may be incomplete: (page \d+ brought nothing|it holds more than 200)/);
        if (b.kind !== 'random') for (const item of result.items) expect(list).toContain(item);
        if (b.kind === 'honest') expect(result.items).toEqual(list.slice(0, MAX));
        if (b.kind === 'honest') expect(result.incomplete === undefined).toBe(list.length <= MAX);
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    [
      'a server that ignores page and sends no count',
      { kind: 'ignores-page' } as Behaviour,
      25,
      /^the list may be incomplete: page 2 brought nothing that earlier pages had not \(10 items seen before\), so the server ignores "page"; stopped after 2 requests; 10 read$/,
      2,
      10,
    ],
    [
      'a list beyond the bound',
      { kind: 'honest' } as Behaviour,
      250,
      /^the list may be incomplete: it holds more than 200 items \(21 pages read\), more than the action reads; 200 read$/,
      21,
      200,
    ],
    ['one item beyond the bound', { kind: 'honest' } as Behaviour, 201, /holds more than 200 items \(21 pages read\)/, 21, 200],
    ['a count of null is no count', { kind: 'null-count' } as Behaviour, 20, undefined, 3, 20],
    ['a short first page ends it', { kind: 'ignores-page' } as Behaviour, 5, undefined, 1, 5],
    ['the count reached ends it, a full last page too', { kind: 'honest' } as Behaviour, 20, undefined, 2, 20],
    ['without a count, a full last page costs one more request', { kind: 'no-count' } as Behaviour, 20, undefined, 3, 20],
  ])('%s', async (_, b, n, message, requests, kept) => {
    const list = Array.from({ length: n }, (_, i) => i);
    const r = await read(list, b);
    if (r.result instanceof Error) throw r.result;
    expect(r.result.items).toEqual(list.slice(0, kept));
    if (message === undefined) expect(r.result.incomplete).toBeUndefined();
    else {
      expect(r.result.incomplete?.said).toMatch(message);
      // No page failed: there is no failure behind the gap.
      expect(r.result.incomplete).not.toHaveProperty('cause');
    }
    expect(r.requests).toBe(requests);
  });

  it('an item a page lists twice, or a later page again, is one item: a history page that lists a build twice lists one build', async () => {
    const pages = [
      [1, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      [9, 10, 11, 11],
    ];
    const r = await read([], { kind: 'random', pages });
    if (r.result instanceof Error) throw r.result;
    expect(r.result).toEqual({ items: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] });
  });

  it('a page that fails after others: what they brought is kept, with why, and the failure; the first page failing is thrown', async () => {
    const list = Array.from({ length: 35 }, (_, i) => i);
    const failure = new Error('HTTP 502');
    const later = await read(list, { kind: 'honest' }, { fail: (page) => (page === 3 ? failure : undefined) });
    if (later.result instanceof Error) throw later.result;
    expect(later.result.items).toEqual(list.slice(0, 20));
    expect(later.result.incomplete).toEqual({
      said: 'the list may be incomplete: page 3 could not be read (HTTP 502); 20 read',
      cause: failure,
    });
    expect(later.requests).toBe(3);
    const first = await read(list, { kind: 'honest' }, { fail: () => failure });
    expect(first.result).toBe(failure);
  });

  it('a cancel on a later page is a cancel, not a gap', async () => {
    const r = await read(
      Array.from({ length: 35 }, (_, i) => i),
      { kind: 'honest' },
      { fail: (page) => (page === 2 ? new CancelledError() : undefined) },
    );
    expect(r.result).toBeInstanceOf(CancelledError);
  });

  it('maxPages bounds a search on purpose: no gap is said, and no page past it is asked for', async () => {
    const list = Array.from({ length: 35 }, (_, i) => i);
    const r = await read(list, { kind: 'no-count' }, { maxPages: 2 });
    expect(r.result).toEqual({ items: list.slice(0, 20) });
    expect(r.requests).toBe(2);
    const one = await read(list, { kind: 'no-count' }, { maxPages: 1 });
    expect(one.result).toEqual({ items: list.slice(0, 10) });
    expect(one.requests).toBe(1);
  });

  it('a cancel during the pause ends it as a cancel, with no further request', async () => {
    const cancel = new AbortController();
    let requests = 0;
    const result = readPages({
      read: async () => {
        requests++;
        cancel.abort();
        return { items: Array.from({ length: PAGE_SIZE }, (_, i) => requests * 100 + i) };
      },
      key: String,
      pageSize: PAGE_SIZE,
      maxItems: MAX,
      paceMs: 200,
      clock: new FakeClock(),
      signal: cancel.signal,
      what: 'the list',
    });
    await expect(result).rejects.toBeInstanceOf(CancelledError);
    expect(requests).toBe(1);
  });
});
