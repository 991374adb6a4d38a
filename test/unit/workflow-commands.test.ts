import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as wc from '../../src/runner/workflow-commands.ts';
import { parseOutputFile } from '../support/dist-runner.ts';

let dir: string;
let stdout: string[];
const summaryFile = join(tmpdir(), `wc-summary-${process.pid}.md`);
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wc-'));
  await writeFile(join(dir, 'output'), '');
  await writeFile(summaryFile, '');
  vi.stubEnv('GITHUB_OUTPUT', join(dir, 'output'));
  vi.stubEnv('GITHUB_STEP_SUMMARY', summaryFile);
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
// One summary file for the file's tests (@actions/core's summary keeps the path it first read), removed at the end.
afterAll(() => rm(summaryFile, { force: true }));

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
    ['info cannot start a command', () => wc.info('::not-a-command'), ':\u200b:not-a-command\n'],
    ['info cannot hold an old-style command', () => wc.info('a ##[error]b ###[x'), 'a #\u200b#[error]b ##\u200b#[x\n'],
    ['a warning cannot hold one either', () => wc.warning('##[set-env name=A]b'), '::warning::#\u200b#[set-env name=A]b\n'],
    ['debug neither', () => wc.debug('x\r\n##[group]y'), '::debug::x%0D%0A#\u200b#[group]y\n'],
    ['nor a line inside a message', () => wc.warning('a\n::error::b\r  ::x'), '::warning::a%0A:\u200b:error::b%0D  :\u200b:x\n'],
  ])('%s', (_, act, line) => {
    act();
    expect(stdout.join('')).toBe(line);
  });

  it('setFailed annotates once and sets exit code 1', () => {
    wc.setFailed('boom\n::warning::x');
    expect(stdout).toEqual(['::error::boom%0A:\u200b:warning::x\n']);
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

  it('without GITHUB_OUTPUT, setOutput falls back to the old command, as @actions/core does', () => {
    vi.stubEnv('GITHUB_OUTPUT', '');
    wc.setOutput('x', 'a\nb ##[error]c');
    expect(stdout.join('')).toBe('\n::set-output name=x::a%0Ab #\u200b#[error]c\n');
  });

  it('appendSummary appends, and is skipped without a summary file', async () => {
    expect(await wc.appendSummary('# one\n')).toBe(true);
    expect(await wc.appendSummary('two\n')).toBe(true);
    expect(await readFile(summaryFile, 'utf8')).toBe('# one\ntwo\n');
    vi.stubEnv('GITHUB_STEP_SUMMARY', '');
    expect(await wc.appendSummary('three')).toBe(false);
  });
});
