import { describe, expect, it } from 'vitest';
import { redactUrl, Secrets } from '../../src/redact.ts';

describe('redactUrl', () => {
  it.each([
    ['https://h/p?access_token=abc%2B%3D', 'https://h/p?access_token=***'],
    ['https://h/p?a=1&access_token=abc&b=2', 'https://h/p?a=1&access_token=***&b=2'],
    ['https://h/p?url=x&secretToken=s3cr3t&event=E', 'https://h/p?url=x&secretToken=***&event=E'],
    ['https://h/p?ACCESS_TOKEN=abc', 'https://h/p?ACCESS_TOKEN=***'],
    ['https://h/p?access%5Ftoken=abc', 'https://h/p?access%5Ftoken=***'],
    ['https://h/p?access_token', 'https://h/p?access_token=***'],
    ['https://h/p?token=keep', 'https://h/p?token=keep'],
    ['https://h/p', 'https://h/p'],
    ['https://h/p?access_token=abc#frag', 'https://h/p?access_token=***'],
  ])('%s → %s', (url, expected) => expect(redactUrl(url)).toBe(expected));
});

describe('Secrets', () => {
  it('masks each form of a secret once and scrubs them all from text', () => {
    const masked: string[] = [];
    const s = new Secrets((v) => masked.push(v));
    s.add('abc%2Bdef%3D');
    s.add('abc%2Bdef%3D');
    expect(masked).toEqual(['abc%2Bdef%3D', 'abc+def=']);
    expect(s.redact('a abc%2Bdef%3D b abc+def= c')).toBe('a *** b *** c');
  });

  it('ignores empty and very short values, which would mask half the log', () => {
    const masked: string[] = [];
    const s = new Secrets((v) => masked.push(v));
    s.add('');
    s.add(undefined);
    s.add('ab');
    expect(masked).toEqual([]);
  });
});
