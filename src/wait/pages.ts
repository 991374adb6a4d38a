// The one loop that asks a server for more, page by page. Whatever the server does with `page`
// (ignores it, repeats a page, never sends a count, sends a wrong one), every request must bring
// something new or the loop ends; requests are paced, so a long list is not a burst at the user's
// own server; and what is kept is bounded.
import type { Clock } from '../base/clock.ts';
import { CancelledError, PagingError } from '../base/errors.ts';

export interface Page<T> {
  items: readonly T[];
  /** How many items the whole list holds, when the server says. */
  total?: number | null | undefined;
}

export interface PagesOptions<T> {
  /** Page `page` (from 1) of the list. */
  read(page: number): Promise<Page<T>>;
  /** The item's identity: an item seen before is not new, and not kept twice. */
  key(item: T): string;
  pageSize: number;
  /** At most this many items are kept; a longer list is an error, not a step that eats the runner's memory. */
  maxItems: number;
  /** The pause between two requests. */
  paceMs: number;
  clock: Clock;
  signal: AbortSignal;
  /** What the list is, for messages: "the callbacks of project demo". */
  what: string;
}

/** Pause between two page requests by default: at most a few requests a second at the user's server. */
export const PAGE_PACE_MS = 200;

/**
 * The rule every paging loop follows, numbered pages or a cursor's `hasMore`: ask again only when
 * the server says there is more **and** the page brought something not seen before (a server that
 * repeats a page, or ignores where to start, would otherwise be asked until a bound runs out).
 */
export function nextPage(p: { more: boolean; fresh: number }): 'next' | 'end' | 'stalled' {
  if (!p.more) return 'end';
  return p.fresh === 0 ? 'stalled' : 'next';
}

/**
 * Every item of the list, each once. Ends at a short or empty page, or when the server's count is
 * reached; fails, saying why, when a page brings nothing new (the server ignores `page`) or the
 * list outgrows `maxItems`.
 */
export async function readAllPages<T>(o: PagesOptions<T>): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  for (let page = 1; ; page++) {
    if (page > 1)
      await o.clock.sleep(o.paceMs, o.signal).catch(() => {
        throw new CancelledError();
      });
    const { items: got, total } = await o.read(page);
    let fresh = 0;
    for (const item of got) {
      const key = o.key(item);
      if (seen.has(key)) continue;
      if (items.length >= o.maxItems)
        throw new PagingError(`${o.what} holds more than ${o.maxItems} items (${page} pages read): more than the action reads`);
      seen.add(key);
      items.push(item);
      fresh++;
    }
    const step = nextPage({ more: got.length >= o.pageSize && !(typeof total === 'number' && items.length >= total), fresh });
    if (step === 'end') return items;
    if (step === 'stalled')
      throw new PagingError(
        `${o.what}: page ${page} brought nothing that earlier pages had not (${got.length} items seen before), so the server ignores "page" and the list cannot be read whole; stopped after ${page} requests`,
      );
  }
}
