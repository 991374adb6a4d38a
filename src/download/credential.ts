// Where the login ticket may go with a download, decided for every request, redirects included:
// the `bk_token` cookie only to the origin (scheme, host, port) of base-url, console-url or a
// download-hosts entry; anywhere else the request goes bare; https never falls back to http;
// redirects are bounded. No other credential is ever sent with a download. A guard: pure, and
// mutation-tested (test/unit/download-credential.test.ts). docs/download.md.

/** Redirects followed for one request, at most. */
export const MAX_REDIRECTS = 5;

/** Where the next request goes, and whether it may carry the cookie; or why it is not sent. */
export type Hop = { go: true; url: string; cookie: boolean; upgraded?: boolean } | { go: false; why: string };

/** The URL's origin as the rule compares them (lower-case host, default port left out), or undefined when it is not http(s). */
export function originOf(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
}

/** The origins that may receive the cookie: base-url's, console-url's, and each download-hosts entry's. */
export function cookieOrigins(urls: readonly (string | undefined)[]): string[] {
  const out: string[] = [];
  for (const url of urls) {
    const origin = originOf(url ?? '');
    if (origin !== undefined && !out.includes(origin)) out.push(origin);
  }
  return out;
}

/** A request to `text`: where it goes and whether the cookie goes with it, by its own origin only. */
function hop(text: string, allowed: readonly string[]): Hop {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { go: false, why: 'it is not a URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { go: false, why: `it is not http(s) but ${url.protocol}` };
  // Node would turn them into an Authorization header: a credential the action did not choose to send.
  if (url.username !== '' || url.password !== '') return { go: false, why: 'it carries a user name or password' };
  return { go: true, url: url.href, cookie: allowed.includes(url.origin) };
}

/**
 * The first request, to the link bk-ci gave. bk-ci builds its links from its own configured host,
 * often plain `http://` (docs/bkci/artifacts-and-variables.md): a link to a host whose https
 * origin may receive the cookie goes there over https, so the ticket never travels in the clear.
 */
export function firstHop(link: string, allowed: readonly string[]): Hop {
  const plain = hop(link, allowed);
  if (!plain.go || plain.cookie) return plain;
  const url = new URL(plain.url);
  if (url.protocol !== 'http:' || url.port !== '') return plain;
  url.protocol = 'https:';
  return allowed.includes(url.origin) ? { go: true, url: url.href, cookie: true, upgraded: true } : plain;
}

/**
 * A redirect from `from` (an answer 301, 302, 303, 307 or 308) to `location`, the `redirects`-th
 * of this request: followed when within the bound and not from https down to http, with the
 * cookie only when its own origin may have it.
 */
export function redirectHop(from: string, location: string | undefined, redirects: number, allowed: readonly string[]): Hop {
  if (redirects > MAX_REDIRECTS) return { go: false, why: `it was redirected more than ${MAX_REDIRECTS} times` };
  if (location === undefined || location.trim() === '') return { go: false, why: 'a redirect named no Location' };
  let to: URL;
  try {
    to = new URL(location, from);
  } catch {
    return { go: false, why: 'a redirect named no URL' };
  }
  if (new URL(from).protocol === 'https:' && to.protocol === 'http:')
    return { go: false, why: `it was redirected from https to plain http (${to.origin}), which would carry it in the clear` };
  return hop(to.href, allowed);
}

/**
 * Every header a download request carries: the file's bytes as they are (no content coding, so
 * sizes and checksums are the file's), the cookie when this hop may have it, the range when resuming.
 */
export function hopHeaders(
  credential: { cookie: boolean },
  token: string | undefined,
  from: number,
  userAgent: string,
): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': userAgent, 'accept-encoding': 'identity' };
  if (credential.cookie && token !== undefined && token !== '') headers.cookie = `bk_token=${token}`;
  if (from > 0) headers.range = `bytes=${from}-`;
  return headers;
}
