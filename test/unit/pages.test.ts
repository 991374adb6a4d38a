import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CancelledError, PagingError } from '../../src/base/errors.ts';
import { type Page, readAllPages } from '../../src/wait/pages.ts';
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

async function read(list: number[], b: Behaviour) {
  const clock = new FakeClock();
  const answer = server(list, b);
  let requests = 0;
  const times: number[] = [];
  const result = await readAllPages({
    read: async (page) => {
      requests++;
      times.push(clock.now());
      return answer(page);
    },
    key: String,
    pageSize: PAGE_SIZE,
    maxItems: MAX,
    paceMs: 200,
    clock,
    signal: new AbortController().signal,
    what: 'the list',
  }).catch((e: unknown) => e);
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
        if (result instanceof Error) {
          expect(result).toBeInstanceOf(PagingError);
          expect(result.message).toMatch(/^the list(: page \d+ brought nothing| holds more than 200)/);
        } else {
          expect(new Set(result as number[]).size).toBe((result as number[]).length);
          expect((result as number[]).length).toBeLessThanOrEqual(MAX);
        }
        if (b.kind === 'honest') expect(result).toEqual(list.length > MAX ? expect.any(PagingError) : list);
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    [
      'a server that ignores page and sends no count',
      { kind: 'ignores-page' } as Behaviour,
      25,
      /page 2 brought nothing .* stopped after 2 requests/,
      2,
    ],
    ['a list beyond the bound', { kind: 'honest' } as Behaviour, 250, /holds more than 200 items \(21 pages read\)/, 21],
    ['one item beyond the bound', { kind: 'honest' } as Behaviour, 201, /holds more than 200 items \(21 pages read\)/, 21],
    ['a count of null is no count', { kind: 'null-count' } as Behaviour, 20, undefined, 3],
    ['a short first page ends it', { kind: 'ignores-page' } as Behaviour, 5, undefined, 1],
    ['the count reached ends it, a full last page too', { kind: 'honest' } as Behaviour, 20, undefined, 2],
    ['without a count, a full last page costs one more request', { kind: 'no-count' } as Behaviour, 20, undefined, 3],
  ])('%s', async (_, b, n, message, requests) => {
    const list = Array.from({ length: n }, (_, i) => i);
    const r = await read(list, b);
    if (message === undefined) expect(r.result).toEqual(list);
    else expect((r.result as Error).message).toMatch(message);
    expect(r.requests).toBe(requests);
  });

  it('a cancel during the pause ends it as a cancel, with no further request', async () => {
    const cancel = new AbortController();
    let requests = 0;
    const result = readAllPages({
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
