// The `download` input's patterns, by table: what `*`, `**`, `?`, a trailing `/` and `!` choose,
// and the patterns refused before any request (src/download/glob.ts).
import { describe, expect, it } from 'vitest';
import { chosen, compile, patternProblem } from '../../src/download/glob.ts';

const MATCHES: [string, string, boolean][] = [
  ['**', 'a', true],
  ['**', 'app/b/c.ipa', true],
  ['*', 'a.txt', true],
  ['*', '.hidden', true],
  ['*', 'app/a.txt', false],
  ['app/*.ipa', 'app/App.ipa', true],
  ['app/*.ipa', 'app/sub/App.ipa', false],
  ['app/*.ipa', 'App.ipa', false],
  ['app/*.ipa', 'app/App.ipa.sig', false],
  ['**/*.apk', 'x.apk', true],
  ['**/*.apk', 'a/b/x.apk', true],
  ['**/*.apk', 'a/b/x.apks', false],
  ['a/**', 'a', false],
  ['a/**', 'a/b', true],
  ['a/**', 'a/b/c', true],
  ['a/**', 'ab/c', false],
  ['a/**/b', 'a/b', true],
  ['a/**/b', 'a/x/y/b', true],
  ['a/**/b', 'a/xb', false],
  ['a/**/**/b', 'a/b', true],
  ['**/**', 'a/b', true],
  ['reports/', 'reports/x/y.html', true],
  ['reports/', 'reports', false],
  ['./app/*.ipa', 'app/App.ipa', true],
  ['/app/*.ipa', 'app/App.ipa', true],
  ['v?.zip', 'v1.zip', true],
  ['v?.zip', 'v10.zip', false],
  ['v?.zip', 'v/.zip', false],
  ['x[1].txt', 'x[1].txt', true],
  ['x[1].txt', 'x1.txt', false],
  ['a.b', 'axb', false],
  ['(a)+', '(a)+', true],
  ['App.IPA', 'App.ipa', false],
  ['**', 'line\nbreak', true],
  ['*', 'line\nbreak', true],
  ['a**b', 'a/b', false],
  ['a**b', 'axyb', true],
];

describe('a download pattern', () => {
  it.each(MATCHES)('%j against %j: %s', (pattern, path, expected) => {
    expect(compile(pattern).test(path)).toBe(expected);
  });

  it('starting with ! leaves out what the others chose; alone, everything but it', () => {
    const ps = ['app/**', '!**/*.zip'].map(compile);
    expect(chosen(ps, 'app/App.ipa')).toEqual({ chosen: true });
    expect(chosen(ps, 'app/App.zip')).toEqual({ chosen: false, by: ps[1] });
    expect(chosen(ps, 'reports/r.html')).toEqual({ chosen: false });
    const only = [compile('!*.log')];
    expect(chosen(only, 'a/b.txt').chosen).toBe(true);
    expect(chosen(only, 'x.log').chosen).toBe(false);
    expect(compile('!*.log')).toMatchObject({ text: '!*.log', exclude: true });
    expect(compile('*.log')).toMatchObject({ text: '*.log', exclude: false });
  });

  it.each([
    ['!', '"!" leaves out nothing: write a pattern after the !'],
    ['!  ', '"!  " leaves out nothing: write a pattern after the !'],
    ['app\\*.ipa', '"app\\*.ipa" holds a backslash: bk-ci\'s paths use /, write app/*.ipa'],
    ['../x', '"../x" holds "..": patterns match paths below the artifact root'],
    ['a/../x', '"a/../x" holds "..": patterns match paths below the artifact root'],
    ['a\u0007b', '"a\\u0007b" holds a control character'],
    ['a\u007fb', '"a\\u007fb" holds a control character'],
  ])('%j is refused: %s', (pattern, problem) => {
    expect(patternProblem(pattern)).toBe(problem);
  });

  it.each(['**', 'a..b/*.ipa', '..x', '!a', 'app/'])('%j is taken', (pattern) => {
    expect(patternProblem(pattern)).toBeUndefined();
  });
});
