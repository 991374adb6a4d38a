import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../src/base/duration.ts';
import { redactUrl } from '../../src/bkci/redact-url.ts';
import { pathSegment } from '../../src/bkci/routes.ts';

describe('properties', () => {
  it('parseDuration adds up its parts, largest unit first', () => {
    fc.assert(
      fc.property(fc.nat(99), fc.nat(99), fc.nat(99), fc.nat(999), fc.boolean(), (h, m, s, ms, omitZeros) => {
        const parts: [number, string][] = [
          [h, 'h'],
          [m, 'm'],
          [s, 's'],
          [ms, 'ms'],
        ];
        const kept = parts.filter(([n]) => !omitZeros || n > 0);
        const text = kept.map(([n, u]) => `${n}${u}`).join('');
        const expected = kept.reduce(
          (sum, [n, u]) => sum + n * { h: 3_600_000, m: 60_000, s: 1000, ms: 1 }[u as 'h' | 'm' | 's' | 'ms'],
          0,
        );
        expect(parseDuration(text)).toBe(text === '' ? undefined : expected);
      }),
    );
  });

  it('parseDuration never throws, and gives undefined or a whole number of ms', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const ms = parseDuration(text);
        expect(ms === undefined || (Number.isSafeInteger(ms) && ms >= 0)).toBe(true);
      }),
    );
  });

  it('formatDuration of whole seconds from 10 s parses back to the same', () => {
    fc.assert(
      fc.property(fc.integer({ min: 10, max: 72 * 3600 }), (s) => {
        expect(parseDuration(formatDuration(s * 1000))).toBe(s * 1000);
      }),
    );
  });

  const queryValue = fc.string({ minLength: 1 }).map(encodeURIComponent);
  const otherName = fc.constantFrom('url', 'region', 'event', 'page', 'token', 'secret');

  it('redactUrl removes access_token and secretToken and keeps everything else', () => {
    fc.assert(
      fc.property(
        queryValue,
        queryValue,
        fc.array(fc.tuple(otherName, queryValue), { maxLength: 4 }),
        fc.boolean(),
        (token, secret, others, tokenFirst) => {
          const pairs = others.map(([k, v]) => `${k}=${v}`);
          const secrets = [`access_token=${token}`, `secretToken=${secret}`];
          const query = (tokenFirst ? [...secrets, ...pairs] : [...pairs, ...secrets]).join('&');
          const out = redactUrl(`https://devops.example.com/ms/openapi/api/apigw/v3/x?${query}`);
          expect(out).toContain('access_token=***');
          expect(out).toContain('secretToken=***');
          for (const p of pairs) expect(out).toContain(p);
          const rest = out
            .split('?')[1]
            ?.split('&')
            .filter((p) => !p.startsWith('access_token=') && !p.startsWith('secretToken='));
          expect(rest).toEqual(pairs);
        },
      ),
    );
  });

  it('pathSegment gives exactly one segment that decodes back to the value', () => {
    fc.assert(
      fc.property(
        fc
          .string({ minLength: 1, unit: fc.constantFrom('a', '/', '?', '#', '%', '.', ' ', '+', '&', '=', '\\', 'é', '好', ';') })
          .filter((s) => s !== '.' && s !== '..'),
        (value) => {
          const seg = pathSegment(value);
          expect(seg).not.toMatch(/[/?#\\]/);
          expect(decodeURIComponent(seg)).toBe(value);
          const url = new URL(`https://h.example/ms/openapi/api/apigw/v3/projects/${seg}/callbacks`);
          // '', ms, openapi, api, apigw, v3, projects, <value>, callbacks
          expect(url.pathname.split('/')).toHaveLength(9);
          expect(decodeURIComponent(url.pathname.split('/')[7] ?? '')).toBe(value);
        },
      ),
    );
  });

  it('pathSegment refuses the dot segments a URL parser would collapse', () => {
    for (const v of ['', '.', '..']) expect(() => pathSegment(v)).toThrow();
  });
});
