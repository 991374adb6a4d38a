// Where the login ticket may go with a download (src/download/credential.ts), by table: the first
// request to bk-ci's link, each redirect, and the headers every request carries. A guard: the
// mutation run (stryker.guards.config.json) keeps these tables honest.
import { describe, expect, it } from 'vitest';
import { cookieOrigins, firstHop, hopHeaders, MAX_REDIRECTS, originOf, redirectHop } from '../../src/download/credential.ts';

const BKCI = 'https://devops.example.com';
const ALLOWED = [BKCI, 'http://127.0.0.1:8080', 'https://cdn.example.com:8443'];

describe('the origins the ticket may go to', () => {
  it.each([
    ['https://devops.example.com/a/b?c=d', 'https://devops.example.com'],
    ['https://DevOps.Example.com:443/x', 'https://devops.example.com'],
    ['http://devops.example.com:80', 'http://devops.example.com'],
    ['http://devops.example.com:8080/', 'http://devops.example.com:8080'],
    ['http://[::1]:9/x', 'http://[::1]:9'],
    ['ftp://devops.example.com/', undefined],
    ['file:///etc/passwd', undefined],
    ['not a url', undefined],
    ['', undefined],
  ])('%j: %j', (url, origin) => {
    expect(originOf(url)).toBe(origin);
  });

  it('are base-url’s, console-url’s and download-hosts’, each once, in order', () => {
    expect(
      cookieOrigins([
        'https://devops.example.com/prefix',
        undefined,
        'https://devops.example.com',
        'https://bkapi.example.com/api/x',
        'nope',
      ]),
    ).toEqual(['https://devops.example.com', 'https://bkapi.example.com']);
    expect(cookieOrigins([])).toEqual([]);
  });
});

describe('the first request, to bk-ci’s link', () => {
  it.each([
    // [link, hop]
    [`${BKCI}/bkrepo/api/user/generic/%2Fdemo`, { go: true, url: `${BKCI}/bkrepo/api/user/generic/%2Fdemo`, cookie: true }],
    ['http://127.0.0.1:8080/x', { go: true, url: 'http://127.0.0.1:8080/x', cookie: true }],
    ['https://cdn.example.com:8443/x', { go: true, url: 'https://cdn.example.com:8443/x', cookie: true }],
    ['https://cdn.example.com/x', { go: true, url: 'https://cdn.example.com/x', cookie: false }],
    ['https://devops.example.com.evil.net/x', { go: true, url: 'https://devops.example.com.evil.net/x', cookie: false }],
    ['https://other.example.com/x', { go: true, url: 'https://other.example.com/x', cookie: false }],
    // bk-ci builds links from its configured http host: to a host base-url reaches over https, over https.
    ['http://devops.example.com/bkrepo/x?a=1', { go: true, url: `${BKCI}/bkrepo/x?a=1`, cookie: true, upgraded: true }],
    ['http://devops.example.com:80/x', { go: true, url: `${BKCI}/x`, cookie: true, upgraded: true }],
    ['http://devops.example.com:8000/x', { go: true, url: 'http://devops.example.com:8000/x', cookie: false }],
    ['http://other.example.com/x', { go: true, url: 'http://other.example.com/x', cookie: false }],
    ['http://127.0.0.1:8081/x', { go: true, url: 'http://127.0.0.1:8081/x', cookie: false }],
    ['https://user:pass@devops.example.com/x', { go: false, why: 'it carries a user name or password' }],
    ['https://user@devops.example.com/x', { go: false, why: 'it carries a user name or password' }],
    ['https://:secret@devops.example.com/x', { go: false, why: 'it carries a user name or password' }],
    ['ftp://devops.example.com/x', { go: false, why: 'it is not http(s) but ftp:' }],
    ['javascript:alert(1)', { go: false, why: 'it is not http(s) but javascript:' }],
    ['/relative/path', { go: false, why: 'it is not a URL' }],
  ])('%j', (link, hop) => {
    expect(firstHop(link, ALLOWED)).toEqual(hop);
  });

  it('is upgraded only from http’s own port: https on another port is another server', () => {
    expect(firstHop('http://devops.example.com:8000/x', ['https://devops.example.com:8000'])).toEqual({
      go: true,
      url: 'http://devops.example.com:8000/x',
      cookie: false,
    });
  });

  it('is never upgraded when no https origin of that host may have the ticket', () => {
    expect(firstHop('http://devops.example.com/x', ['http://devops.example.com'])).toEqual({
      go: true,
      url: 'http://devops.example.com/x',
      cookie: true,
    });
    expect(firstHop('http://devops.example.com/x', [])).toEqual({ go: true, url: 'http://devops.example.com/x', cookie: false });
  });
});

describe('a redirect', () => {
  it.each([
    // [from, location, redirects, hop]
    [`${BKCI}/bkrepo/x`, 'https://cos.example.com/b/x?sign=s', 1, { go: true, url: 'https://cos.example.com/b/x?sign=s', cookie: false }],
    [`${BKCI}/bkrepo/x`, '/bkrepo/y', 1, { go: true, url: `${BKCI}/bkrepo/y`, cookie: true }],
    [`${BKCI}/bkrepo/x`, 'y?z=1', 1, { go: true, url: `${BKCI}/bkrepo/y?z=1`, cookie: true }],
    [`${BKCI}/bkrepo/x`, '//cdn.example.com:8443/f', 1, { go: true, url: 'https://cdn.example.com:8443/f', cookie: true }],
    ['https://cos.example.com/x', `${BKCI}/back`, 2, { go: true, url: `${BKCI}/back`, cookie: true }],
    [
      `${BKCI}/x`,
      'http://devops.example.com/x',
      1,
      { go: false, why: 'it was redirected from https to plain http (http://devops.example.com), which would carry it in the clear' },
    ],
    [
      'https://cos.example.com/x',
      'http://127.0.0.1:8080/x',
      1,
      { go: false, why: 'it was redirected from https to plain http (http://127.0.0.1:8080), which would carry it in the clear' },
    ],
    ['http://127.0.0.1:8080/x', 'http://127.0.0.1:9090/x', 1, { go: true, url: 'http://127.0.0.1:9090/x', cookie: false }],
    ['http://127.0.0.1:8080/x', `${BKCI}/x`, 1, { go: true, url: `${BKCI}/x`, cookie: true }],
    [`${BKCI}/x`, 'https://u:p@cos.example.com/x', 1, { go: false, why: 'it carries a user name or password' }],
    [`${BKCI}/x`, 'ftp://cos.example.com/x', 1, { go: false, why: 'it is not http(s) but ftp:' }],
    [`${BKCI}/x`, undefined, 1, { go: false, why: 'a redirect named no Location' }],
    [`${BKCI}/x`, '  ', 1, { go: false, why: 'a redirect named no Location' }],
    [`${BKCI}/x`, 'http://[::1', 1, { go: false, why: 'a redirect named no URL' }],
    [`${BKCI}/x`, `${BKCI}/y`, MAX_REDIRECTS, { go: true, url: `${BKCI}/y`, cookie: true }],
    [`${BKCI}/x`, `${BKCI}/y`, MAX_REDIRECTS + 1, { go: false, why: 'it was redirected more than 5 times' }],
  ])('from %j to %j (redirect %i)', (from, location, n, hop) => {
    expect(redirectHop(from, location, n, ALLOWED)).toEqual(hop);
  });

  it('is bounded at 5', () => {
    expect(MAX_REDIRECTS).toBe(5);
  });
});

describe('the headers of a download request', () => {
  it.each([
    [{ cookie: true }, 'ticket-1', 0, { 'user-agent': 'ua', 'accept-encoding': 'identity', cookie: 'bk_token=ticket-1' }],
    [
      { cookie: true },
      'ticket-1',
      1024,
      { 'user-agent': 'ua', 'accept-encoding': 'identity', cookie: 'bk_token=ticket-1', range: 'bytes=1024-' },
    ],
    [{ cookie: false }, 'ticket-1', 0, { 'user-agent': 'ua', 'accept-encoding': 'identity' }],
    [{ cookie: false }, 'ticket-1', 1, { 'user-agent': 'ua', 'accept-encoding': 'identity', range: 'bytes=1-' }],
    [{ cookie: true }, undefined, 0, { 'user-agent': 'ua', 'accept-encoding': 'identity' }],
    [{ cookie: true }, '', 0, { 'user-agent': 'ua', 'accept-encoding': 'identity' }],
  ])('%j with %j from byte %i', (hop, token, from, headers) => {
    expect(hopHeaders(hop, token, from, 'ua')).toEqual(headers);
  });
});
