import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as wc from '../../src/workflow-commands.ts';
import { parseOutputFile, unescapeData } from '../support/runner.ts';

let dir: string;
let stdout: string[];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wc-'));
  await writeFile(join(dir, 'output'), '');
  await writeFile(join(dir, 'summary'), '');
  vi.stubEnv('GITHUB_OUTPUT', join(dir, 'output'));
  vi.stubEnv('GITHUB_STEP_SUMMARY', join(dir, 'summary'));
  stdout = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout.push(String(chunk));
    return true;
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  process.exitCode = undefined;
  await rm(dir, { recursive: true, force: true });
});

describe('the runner protocol', () => {
  it.each([
    ['base-url', 'INPUT_BASE-URL', '  https://x  ', 'https://x'],
    ['poll interval', 'INPUT_POLL_INTERVAL', '5s', '5s'],
    ['missing', 'INPUT_NOPE', undefined, ''],
  ])('getInput(%j) reads %s, trimmed', (name, variable, value, expected) => {
    if (value !== undefined) vi.stubEnv(variable, value);
    expect(wc.getInput(name)).toBe(expected);
  });

  it.each([
    ['setSecret', () => wc.setSecret('a%b\r\nc'), '::add-mask::a%25b%0D%0Ac\n'],
    ['debug', () => wc.debug('x\ny'), '::debug::x%0Ay\n'],
    ['warning', () => wc.warning('50%'), '::warning::50%25\n'],
    ['info is plain text', () => wc.info('::not-a-command'), '::not-a-command\n'],
  ])('%s', (_, act, line) => {
    act();
    expect(stdout.join('')).toBe(line);
  });

  it('setFailed annotates once and sets exit code 1', () => {
    wc.setFailed('boom\n::warning::x');
    expect(stdout).toEqual(['::error::boom%0A::warning::x\n']);
    expect(unescapeData('boom%0A::warning::x')).toBe('boom\n::warning::x');
    expect(process.exitCode).toBe(1);
  });

  it('setOutput writes the heredoc form the runner reads, any value included', async () => {
    wc.setOutput('data', '{"a":1}');
    wc.setOutput('multi', 'line 1\nline 2\n<<EOF\n');
    wc.setOutput('empty', '');
    expect(parseOutputFile(await readFile(join(dir, 'output'), 'utf8'))).toEqual({
      data: '{"a":1}',
      multi: 'line 1\nline 2\n<<EOF\n',
      empty: '',
    });
  });

  it('setOutput fails clearly without GITHUB_OUTPUT', () => {
    vi.stubEnv('GITHUB_OUTPUT', '');
    expect(() => wc.setOutput('x', 'y')).toThrow(/GITHUB_OUTPUT is not set/);
  });

  it('appendSummary appends, and is skipped without a summary file', async () => {
    expect(wc.appendSummary('# one\n')).toBe(true);
    expect(wc.appendSummary('two\n')).toBe(true);
    expect(await readFile(join(dir, 'summary'), 'utf8')).toBe('# one\ntwo\n');
    vi.stubEnv('GITHUB_STEP_SUMMARY', '');
    expect(wc.appendSummary('three')).toBe(false);
  });
});
