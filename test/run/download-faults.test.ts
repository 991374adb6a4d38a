// Whole or nothing, and only inside: a cut resumes with Range where the server offers it (the
// bytes sent add up to the file once) and starts again where it does not or the file changed; a
// silence is a cut; 5xx and 429 are retried within `retries`; a wrong checksum keeps no file; a
// path from bk-ci that would lead outside download-path is refused and nothing is written outside;
// a symbolic link on the way is not followed (docs/download.md). run() against the emulator.
import { mkdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { downloadDir, entries, fileRequests, listed, madeUp, sha256Of } from '../support/download-world.ts';
import { cleanupRuns, stepIn } from '../support/in-process.ts';
import { useWorld } from '../support/world.ts';

afterAll(cleanupRuns);

const SIZE = 300_000;
const w = useWorld();
const download = stepIn(w, { operation: 'download-artifacts' });

/** A build that ended with one file, app/App.ipa; its id. */
function oneFile(size = SIZE): string {
  w.pipeline({ artifacts: [{ path: 'app/App.ipa', size }] });
  return w.emu.seedBuild({ pipelineId: 'p-app', status: 'SUCCEED' }).id;
}

const BKREPO = /^\/bkrepo\//;

describe('a transfer cut or silent', () => {
  it.each([
    ['without an ETag', null],
    ['with a weak ETag', 'W/"v1"'],
  ])('%s nothing proves the rest is the same file: a cut starts again, never resumes (a door not listed)', async (_, etag) => {
    const id = oneFile();
    const bare = { etag, 'x-checksum-sha256': null };
    w.emu.faults.add(
      { pattern: BKREPO, fault: { kind: 'cut', bytes: 100_000, set: bare } },
      { pattern: BKREPO, fault: { kind: 'headers', set: bare } },
    );
    const { dir } = await downloadDir();
    const r = await download({ 'build-id': id, 'download-path': dir });
    expect(fileRequests(w).map((q) => q.headers.range)).toEqual([undefined, undefined]);
    expect(r.errors).toEqual([]);
    expect(await sha256Of(join(dir, 'app/App.ipa'))).toBe(madeUp(id, 'app/App.ipa', SIZE));
  });

  it('resumes with Range where it stopped: the bytes sent add up to the file once', async () => {
    const id = oneFile();
    w.emu.faults.add({ pattern: BKREPO, fault: { kind: 'cut', bytes: 100_000 } });
    const { dir } = await downloadDir();
    const r = await download({ 'build-id': id, 'download-path': dir });
    expect(r.errors).toEqual([]);
    // What came before the cut is kept (up to the 100,000 bytes sent); the rest is asked for from there.
    const [whole, rest] = fileRequests(w).map((q) => q.headers.range);
    const kept = Number(/^bytes=(\d+)-$/.exec(String(rest))?.[1]);
    expect(whole).toBeUndefined();
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(100_000);
    expect(r.stdout).toMatch(
      new RegExp(`app/App\\.ipa: the connection failed \\(\\w+\\); resuming at byte ${kept}, retry 1 of 3 in \\d+ms`),
    );
    expect(await sha256Of(join(dir, 'app/App.ipa'))).toBe(madeUp(id, 'app/App.ipa', SIZE));
    expect(r.summary).toContain('resumed 1×');
    expect(await listed(dir)).toEqual(['app', 'app/App.ipa']);
  });

  it('starts again when the answer to Range is another file (its ETag changed), or 416', async () => {
    const id = oneFile();
    w.emu.faults.add(
      { pattern: BKREPO, fault: { kind: 'cut', bytes: 100_000 } },
      { pattern: BKREPO, fault: { kind: 'headers', set: { etag: 'a-new-upload' } } },
      { pattern: BKREPO, fault: { kind: 'cut', bytes: 50_000 } },
      { pattern: BKREPO, fault: { kind: 'status', status: 416 } },
    );
    const { dir } = await downloadDir();
    const r = await download({ 'build-id': id, 'download-path': dir, retries: '4' });
    expect(r.errors).toEqual([]);
    const resumed = expect.stringMatching(/^bytes=[1-9]\d*-$/);
    expect(fileRequests(w).map((q) => q.headers.range)).toEqual([undefined, resumed, undefined, resumed, undefined]);
    expect(r.stdout).toMatch(/did not continue the file \(Content-Range bytes \d+-299999\/300000, ETag changed\)/);
    expect(r.stdout).toContain('the server refused the range (HTTP 416)');
    expect(await sha256Of(join(dir, 'app/App.ipa'))).toBe(madeUp(id, 'app/App.ipa', SIZE));
    expect(r.summary).toContain('started again 2×');
  });

  it('starts again where the server offers no ranges (the local realm), and verifies the size', async () => {
    w.emu.files.set({ realm: 'local' });
    const id = oneFile();
    w.emu.faults.add({ path: '/ms/artifactory/api/user/artifactories/file/download/local', fault: { kind: 'cut', bytes: 70_000 } });
    const { dir } = await downloadDir();
    const r = await download({ 'build-id': id, 'download-path': dir });
    expect(r.errors).toEqual([]);
    const asked = w.emu.requests({ path: '/file/download/local' });
    expect(asked.map((q) => q.headers.range)).toEqual([undefined, undefined]);
    expect(entries(r.outputs)[0]).toMatchObject({ verified: 'size', size: SIZE, path: `bk-archive/demo/p-app/${id}/app/App.ipa` });
    expect(await listed(dir)).toEqual(['app', 'app/App.ipa']);
  });

  it('retries 5xx and 429 as every read is, Retry-After honoured, and gives up after retries', async () => {
    const id = oneFile();
    w.emu.faults.add(
      { pattern: BKREPO, fault: { kind: 'status', status: 503, headers: { 'retry-after': '7' } } },
      { pattern: BKREPO, fault: { kind: 'status', status: 429 } },
    );
    const r = await download({ 'build-id': id, 'download-path': (await downloadDir()).dir });
    expect(r.errors).toEqual([]);
    expect(w.clock.sleeps).toContain(7000);
    w.emu.faults.add({ pattern: BKREPO, times: Infinity, fault: { kind: 'status', status: 502 } });
    const { dir } = await downloadDir();
    const failed = await download({ 'build-id': id, 'download-path': dir, retries: '2' });
    expect(failed.errors[0]).toMatch(
      /1 file could not be downloaded: \/p-app\/b-\w+\/app\/App\.ipa \(HTTP 502 \(injected 502\) \(after 2 retries\)\)$/,
    );
    expect(await listed(dir)).toEqual([]);
  });
});

describe('a silence', () => {
  /** The stalled body's bytes are on disk (in the temporary file) before the test lets request-timeout pass. */
  let dir = '';
  const s = useWorld({
    onHold: () => {
      const lapse = async (): Promise<void> => {
        for (let i = 0; i < 500; i++) {
          const parts = (await listed(dir)).filter((f) => f.endsWith('.part'));
          const size = parts[0] === undefined ? 0 : (await stat(join(dir, parts[0]))).size;
          if (size >= 120_000) break;
          await new Promise((r) => setTimeout(r, 10));
        }
        s.clock.lapse();
      };
      void lapse();
    },
  });

  it('takes request-timeout as the longest silence: a stalled body resumes where it stopped', async () => {
    s.pipeline({ artifacts: [{ path: 'app/App.ipa', size: SIZE }] });
    const { id } = s.emu.seedBuild({ pipelineId: 'p-app', status: 'SUCCEED' });
    s.emu.faults.add({ pattern: BKREPO, fault: { kind: 'stall', bytes: 120_000 } });
    dir = (await downloadDir()).dir;
    const r = await stepIn(s)({ operation: 'download-artifacts', 'build-id': id, 'download-path': dir, 'request-timeout': '20s' });
    expect(r.errors).toEqual([]);
    expect(r.stdout).toContain('app/App.ipa: nothing came for 20s (request-timeout); resuming at byte 120000');
    expect(fileRequests(s).map((q) => q.headers.range)).toEqual([undefined, 'bytes=120000-']);
    expect(await sha256Of(join(dir, 'app/App.ipa'))).toBe(madeUp(id, 'app/App.ipa', SIZE));
  });
});

describe('whole and verified, or not kept', () => {
  it('a 206 to a request for the whole file is no answer to take: refused in words, none of its body in the log (a door not listed)', async () => {
    const id = oneFile();
    const body = 'PARTIAL-CONTENT-OF-A-FILE-'.repeat(20);
    w.emu.faults.add({
      pattern: BKREPO,
      times: Infinity,
      fault: { kind: 'status', status: 206, body, contentType: 'text', headers: { 'content-range': 'bytes 0-9/300000' } },
    });
    const { dir } = await downloadDir();
    const r = await download({ 'build-id': id, 'download-path': dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/app\/App\.ipa.*HTTP 206.*whole file/);
    expect(r.stdout + r.summary).not.toContain('PARTIAL-CONTENT');
    expect(await listed(dir)).toEqual([]);
  });

  it('a checksum that does not match keeps no file, and says what was expected and what came', async () => {
    const id = oneFile();
    w.emu.faults.add({ pattern: BKREPO, fault: { kind: 'checksum' } });
    const { dir } = await downloadDir();
    const r = await download({ 'build-id': id, 'download-path': dir });
    const came = madeUp(id, 'app/App.ipa', SIZE);
    expect(r.errors[0]).toMatch(
      new RegExp(`app/App\\.ipa \\(its SHA-256 is ${came}, but the server's X-Checksum-Sha256 says [0-9a-f]{64}\\)$`),
    );
    expect(await listed(dir)).toEqual([]);
    expect(r.outputs.downloaded).toBe('[]');
  });

  it('a size other than bk-ci lists keeps no file', async () => {
    const id = oneFile();
    w.emu.faults.add({ pattern: BKREPO, fault: { kind: 'headers', set: { 'content-length': '1000' } } });
    const { dir } = await downloadDir();
    const r = await download({ 'build-id': id, 'download-path': dir, retries: '0' });
    expect(r.errors[0]).toContain(`bk-ci lists ${SIZE} bytes, but the server's Content-Length is 1000`);
    expect(await listed(dir)).toEqual([]);
  });
});

describe('only inside download-path', () => {
  /** bk-ci's file list, replaced by one a hostile server could send, beside a real file. */
  const HOSTILE = [
    '../../escaped.txt',
    '/etc/passwd-copy',
    'C:/Windows/evil.dll',
    'dir\\..\\..\\evil.txt',
    'bad\u0000name.txt',
    'line\nbreak.txt',
    'a/./b.txt',
    'twice.txt',
    'TWICE.txt',
  ];

  it('refuses each hostile path by name, writes the others, then fails; nothing lands outside', async () => {
    const id = oneFile();
    const good = { name: 'App.ipa', fullPath: `/p-app/${id}/app/App.ipa`, size: SIZE, folder: false, artifactoryType: 'PIPELINE' };
    const records = [
      good,
      ...HOSTILE.map((p) => ({ name: p, fullPath: `/p-app/${id}/${p}`, size: 1, folder: false, artifactoryType: 'PIPELINE' })),
      { name: 'app', fullPath: `/p-app/${id}/app/`, size: 0, folder: true, artifactoryType: 'PIPELINE' },
    ];
    w.emu.faults.add({ pattern: /file_info$/, fault: { kind: 'patch', data: { records } } });
    const { outer, dir } = await downloadDir();
    const r = await download({ 'build-id': id, 'download-path': dir });
    expect(await listed(outer)).toEqual(['files', 'files/app', 'files/app/App.ipa']);
    const error = r.errors[0] ?? '';
    expect(error).toMatch(/^bk-ci download-artifacts failed: 9 files refused, their paths would not stay inside download-path: /);
    expect(error).toContain('/../../escaped.txt (refused: it holds "..", which leads out of its folder)');
    expect(error).toContain('//etc/passwd-copy (refused: it is an absolute path)');
    expect(error).toContain('/C:/Windows/evil.dll (refused: it holds a drive letter (C:), a drive on Windows)');
    expect(error).toContain('and 4 more (in the job summary)');
    for (const why of ['a backslash', 'a control character', 'it holds "."', 'the same local file as']) expect(r.summary).toContain(why);
    expect(r.stdout).toContain('bk-ci lists 1 folders among the build');
    expect(entries(r.outputs).map((e) => e.name)).toEqual(['App.ipa']);
    // Only the real file's link was asked for.
    expect(w.emu.requests({ path: 'user_download_url' })).toHaveLength(1);
  });

  it('does not follow a symbolic link on the way; one at the file itself is replaced, not written through', async () => {
    w.pipeline({
      artifacts: [
        { path: 'app/App.ipa', size: 1000 },
        { path: 'reports/junit.xml', content: 'new', type: 'CUSTOM_DIR' },
      ],
    });
    const { id } = w.emu.seedBuild({ pipelineId: 'p-app', status: 'SUCCEED' });
    const { outer, dir } = await downloadDir();
    const elsewhere = join(outer, 'elsewhere');
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, 'kept.txt'), 'mine');
    await mkdir(join(dir, 'reports'), { recursive: true });
    await symlink(elsewhere, join(dir, 'app'));
    await symlink(join(elsewhere, 'kept.txt'), join(dir, 'reports', 'junit.xml'));
    const r = await download({ 'build-id': id, 'download-path': dir });
    expect(r.errors[0]).toContain(`${join(dir, 'app')} is a symbolic link, which is not followed`);
    expect(await listed(elsewhere)).toEqual(['kept.txt']);
    expect(await readFile(join(elsewhere, 'kept.txt'), 'utf8')).toBe('mine');
    expect(await readFile(join(dir, 'reports', 'junit.xml'), 'utf8')).toBe('new');
    expect(await readlink(join(dir, 'app'))).toBe(elsewhere);
  });
});
