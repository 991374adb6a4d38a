import { describe, expect, it } from 'vitest';
import { collapse, cut, escapeMarkdown, hasSpaceOrControl, isControl, plain } from '../../src/base/text.ts';

describe('plain', () => {
  it.each([
    ['ok', 'ok'],
    ['a\n::warning::x', 'a ⏎ ::warning::x'],
    ['a\r\n::add-mask::y', 'a ⏎ ::add-mask::y'],
    ['::error::z', ':\u200b:error::z'],
    ['  ::error::z', '  :\u200b:error::z'],
    [':single', ':single'],
    ['%0A::error::z', '%0A::error::z'],
  ])('%j → %j', (input, output) => expect(plain(input)).toBe(output));

  it('never leaves a line that starts a workflow command', () => {
    for (const input of ['x\n::warning::x', '\r::set-output name=a::b', '\u2028::error::u', '::debug::d']) {
      for (const line of plain(input).split(/\r?\n/)) expect(line.trimStart().startsWith('::')).toBe(false);
    }
  });

  it('cuts very long text and says so', () => expect(plain('x'.repeat(30), 10)).toBe(`${'x'.repeat(10)}… (20 more characters)`));
});

describe('escapeMarkdown', () => {
  it.each([
    ['<img src=x onerror=alert(1)>', '&lt;img src=x onerror=alert(1)&gt;'],
    ['a | b', 'a \\| b'],
    ['**bold** _it_ `code`', '\\*\\*bold\\*\\* \\_it\\_ \\`code\\`'],
    ['[link](http://x)', '\\[link\\](`http://x`)'],
    // Nothing escaped that renders as itself: JSON, an event name, a heading mark mid-line.
    ['{"status":400} BUILD_END my_proj #3 (see below)!', '{"status":400} BUILD_END my_proj #3 (see below)!'],
    ['_edge_ snake_case', '\\_edge\\_ snake_case'],
    ['line\nbreak', 'line ⏎ break'],
  ])('%j → %j', (input, output) => expect(escapeMarkdown(input)).toBe(output));
});

describe('collapse', () => {
  it.each([
    [
      '<html><head><title>503 Service Unavailable</title></head><body><center><h1>503 Service Unavailable</h1></center><hr><center>openresty</center></body></html>',
      '503 Service Unavailable 503 Service Unavailable openresty',
    ],
    ['<style>p{}</style><p>后台正在部署中，请稍后。</p>', '后台正在部署中，请稍后。'],
    ['plain  text\n\nhere', 'plain text here'],
  ])('%#', (input, output) => expect(collapse(input)).toBe(output));
});

describe('the bounds and checks under every guard', () => {
  it.each([
    ['abc', 3, 'abc'],
    ['abcd', 3, 'abc… (1 more characters)'],
  ])('cut(%j, %i) → %j', (text, max, out) => expect(cut(text, max)).toBe(out));

  it.each([
    [0x00, true],
    [0x1f, true],
    [0x20, false],
    [0x7e, false],
    [0x7f, true],
  ])('isControl(%i) is %s', (code, control) => expect(isControl(code)).toBe(control));

  it.each([
    ['abc', false],
    ['a b', true],
    ['a\u0001b', true],
    ['a\u007fb', true],
  ])('hasSpaceOrControl(%j) is %s', (text, yes) => expect(hasSpaceOrControl(text)).toBe(yes));

  it.each([
    ['a & b', 'a &amp; b'],
    ['see http://. now', 'see `http://`. now'],
  ])('escapeMarkdown(%j) → %j', (text, out) => expect(escapeMarkdown(text)).toBe(out));
});
