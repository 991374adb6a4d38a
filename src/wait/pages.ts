// The one loop that asks a server for more, page by page. Whatever the server does with `page`
// (ignores it, repeats a page or an item, never sends a count, sends a wrong one, fails half-way),
// every request must bring something new or the loop ends; each item is kept once, by its
// identity; requests are paced, so a long list is not a burst at the user's own server; what is
// kept is bounded; and when a page goes wrong after others were read, what they brought is kept,
// with why the list may be incomplete: the caller decides whether a partial list will do.
import type { Clock } from '../base/clock.ts';
import { CancelledError, errorMessage } from '../base/errors.ts';

export interface Page<T> {
  items: readonly T[];
  /** How many items the whole list holds, when the server says. */
  total?: number | null | undefined;
}

export interface PagesOptions<T> {
  /** Page `page` (from 1) of the list. */
  read(page: number): Promise<Page<T>>;
  /** The item's identity (a build's id, a file's path): an item seen before is not new, and not kept twice. */
  key(item: T): string;
  pageSize: number;
  /** At most this many items are kept; a longer list is cut there, not a step that eats the runner's memory. */
  maxItems: number;
  /** At most this many pages are read: a search bounded on purpose, whose end is no gap. Default: no bound. */
  maxPages?: number;
  /** The pause between two requests. */
  paceMs: number;
  clock: Clock;
  signal: AbortSignal;
  /** What the list is, for messages: "the callbacks of project demo". */
  what: string;
}

/** What was read: every item, each once, and why the list may be incomplete when it may be. */
export interface PagedList<T> {
  items: T[];
  /** "the build's artifacts may be incomplete: …", with the failure behind it when a page failed. */
  incomplete?: { said: string; cause?: unknown } | undefined;
}

/** Pause between two page requests by default: at most a few requests a second at the user's server. */
export const PAGE_PACE_MS = 200;

/**
 * The rule every paging loop follows, numbered pages or a cursor's `hasMore`: ask again only when
 * the server says there is more **and** the page brought something not seen before (a server that
 * repeats a page, or ignores where to start, would otherwise be asked until a bound runs out).
 */
export function nextPage({ more, fresh }: { more: boolean; fresh: number }): 'next' | 'end' | 'stalled' {
  if (!more) return 'end';
  return fresh === 0 ? 'stalled' : 'next';
}

/**
 * Every item of the list, each once (by `key`). Ends at a short or empty page, when the server's
 * count is reached, or after `maxPages`. A page that brings nothing new (the server ignores
 * `page`), a list past `maxItems`, or a page that fails after others were read ends it with what
 * was seen and why it may be incomplete. The first page's failure, and a cancel, are thrown.
 */
export async function readPages<T>(options: PagesOptions<T>): Promise<PagedList<T>> {
  const items: T[] = [];
  const seen = new Set<string>();
  const incomplete = (why: string, cause?: unknown): PagedList<T> => ({
    items,
    incomplete: { said: `${options.what} may be incomplete: ${why}; ${items.length} read`, ...(cause === undefined ? {} : { cause }) },
  });
  for (let page = 1; ; page++) {
    if (page > 1)
      await options.clock.sleep(options.paceMs, options.signal).catch(() => {
        throw new CancelledError();
      });
    let got: Page<T>;
    try {
      got = await options.read(page);
    } catch (error) {
      if (page === 1 || error instanceof CancelledError) throw error;
      return incomplete(`page ${page} could not be read (${errorMessage(error)})`, error);
    }
    let fresh = 0;
    for (const item of got.items) {
      const key = options.key(item);
      if (seen.has(key)) continue;
      if (items.length >= options.maxItems)
        return incomplete(`it holds more than ${options.maxItems} items (${page} pages read), more than the action reads`);
      seen.add(key);
      items.push(item);
      fresh++;
    }
    const total = got.total;
    const step = nextPage({ more: got.items.length >= options.pageSize && !(typeof total === 'number' && items.length >= total), fresh });
    if (step === 'end' || page === options.maxPages) return { items };
    if (step === 'stalled')
      return incomplete(
        `page ${page} brought nothing that earlier pages had not (${got.items.length} items seen before), so the server ignores "page"; stopped after ${page} requests`,
      );
  }
}
