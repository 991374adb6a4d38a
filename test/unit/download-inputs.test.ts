// The download's inputs, read before any request (src/inputs/download.ts): patterns, download-path,
// download-hosts as origins (plain http only where base-url may be), and files only from a build
// the step sees end.
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/base/errors.ts';
import { prepareStep } from '../../src/operations/prepare-step.ts';

const BASE = { 'base-url': 'https://devops.example.com', 'bk-token': 'ticket', 'project-id': 'demo', 'build-id': 'b-1' };

async function taskOf(inputs: Record<string, string>): Promise<unknown> {
  return (await prepareStep((name) => ({ ...BASE, ...inputs })[name] ?? '')).job.task;
}
async function problem(inputs: Record<string, string>): Promise<string> {
  const e = await prepareStep((name) => ({ ...BASE, ...inputs })[name] ?? '').then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!(e instanceof InputError)) throw new Error(`no input error: ${String(e)}`);
  return e.message;
}

describe('the download inputs', () => {
  it('read patterns one a line or comma-separated, each once; hosts as origins; the folder as written', async () => {
    expect(
      await taskOf({
        operation: 'download-artifacts',
        download: 'app/*.ipa, **/*.apk\n!**/*.dSYM.zip\napp/*.ipa',
        'download-hosts': 'https://devops.example.com/\nhttps://CDN.example.com:443, http://127.0.0.1:8080',
        'download-path': 'out/files',
      }),
    ).toMatchObject({
      download: ['app/*.ipa', '**/*.apk', '!**/*.dSYM.zip'],
      'download-hosts': ['https://devops.example.com', 'https://cdn.example.com', 'http://127.0.0.1:8080'],
      'download-path': 'out/files',
    });
    expect(await taskOf({ operation: 'download-artifacts' })).toMatchObject({ 'download-path': 'bkci-artifacts' });
  });

  it.each([
    [{ download: '!' }, 'download: "!" leaves out nothing: write a pattern after the !'],
    [{ download: 'app\\x' }, 'download: "app\\x" holds a backslash'],
    [
      { 'download-hosts': 'devops.example.com' },
      'download-hosts: "devops.example.com" is not an origin: write its scheme, host and port only',
    ],
    [{ 'download-hosts': 'https://devops.example.com/bkrepo' }, 'is not an origin'],
    [{ 'download-hosts': 'https://u:secret@devops.example.com' }, 'download-hosts: "https://***@devops.example.com" is not an origin'],
    [{ 'download-hosts': 'ftp://devops.example.com' }, 'is not an origin'],
    [
      { 'download-hosts': 'http://devops.example.com' },
      'download-hosts: http://devops.example.com is plain http: the login ticket would travel in the clear',
    ],
    [{ 'download-path': '  ' }, 'download-path must be a folder, on one line'],
    [{ 'download-path': 'a\nb' }, 'download-path must be a folder, on one line'],
  ])('refuse %j', async (inputs, words) => {
    expect(await problem({ operation: 'download-artifacts', ...inputs })).toContain(words);
  });

  it('take plain http hosts with allow-insecure-http', async () => {
    expect(
      await taskOf({ operation: 'download-artifacts', 'download-hosts': 'http://devops.example.com', 'allow-insecure-http': 'true' }),
    ).toMatchObject({
      'download-hosts': ['http://devops.example.com'],
    });
  });

  it.each([
    ['start-build', { 'pipeline-id': 'p-1', wait: 'false' }],
    ['retry-build', { wait: 'false' }],
    ['review-build', { decision: 'approve' }],
  ])('%s refuses download without wait', async (operation, inputs) => {
    expect(await problem({ operation, download: '**', ...inputs })).toBe(
      'invalid input: download needs wait: true: the files are downloaded once the build has ended, and without wait the step ends before',
    );
  });

  it('build-status takes download without wait: the build it reads may have ended', async () => {
    expect(await taskOf({ operation: 'build-status', download: '**', wait: 'false' })).toMatchObject({ download: ['**'], wait: false });
  });
});
