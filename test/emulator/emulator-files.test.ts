// The build's files as the emulator serves them behind bk-ci's gateway (emulator/files.ts;
// docs/bkci/artifacts-and-variables.md): the login cookie (or none, without login), the project's
// members only, bk-repo's headers, ranges (206, 416), the local realm without them, a redirect to a
// second origin for storage, and the faults on bytes (cut, stall, a wrong checksum, other headers).
import { createHash } from 'node:crypto';
import { get as httpGet } from 'node:http';
import { describe, expect, it } from 'vitest';
import { FileBytes, readRange } from '../../emulator/file-bytes.ts';
import { startBuild, v4 } from '../support/emu-v4.ts';
import { raw } from '../support/raw-http.ts';
import { worldForTest } from '../support/world.ts';

const TEXT = 'the report, in full';

/** A world whose pipeline p-app archives two files, one build of it ended; the link bk-ci gives each. */
async function filesWorld(
  files: { realm?: 'bkrepo' | 'local'; login?: boolean; storage?: boolean } = {},
  onHold?: (r: { method: string; path: string }) => void,
) {
  const w = await worldForTest({ files, ...(onHold === undefined ? {} : { onHold }) });
  w.pipeline({
    phases: [{ status: 'RUNNING', ms: 1000 }],
    artifacts: [
      { path: 'app/App.ipa', size: 300_000 },
      { path: 'reports/index.html', content: TEXT, type: 'CUSTOM_DIR' },
    ],
  });
  const api = v4(w.emu, 'demo', 'alice');
  const buildId = await startBuild(api, 'p-app');
  w.clock.t += 2000;
  const listed = (await api.get('artifactories/file_info', { buildId })).json() as {
    data: { records: { fullPath: string; artifactoryType: string; size: number }[] };
  };
  const links: string[] = [];
  for (const r of listed.data.records) {
    const res = await api.get('artifactories/user_download_url', { artifactoryType: r.artifactoryType, path: r.fullPath });
    links.push((res.json() as { data: { url: string } }).data.url);
  }
  const get = (link: string, headers: Record<string, string> = {}) => {
    const u = new URL(link);
    return raw(`${u.protocol}//${u.host}`, 'GET', `${u.pathname}${u.search}`, { headers });
  };
  const cookie = { cookie: `bk_token=${w.bkToken}` };
  return { w, records: listed.data.records, links, get, cookie };
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('the build files, realm bkrepo', () => {
  it('answer the bk_token cookie of a member with bk-repo’s headers; without it, the gateway’s 401', async () => {
    const { links, get, cookie, w } = await filesWorld();
    const [ipa = '', report = ''] = links;
    expect(ipa).toMatch(/\/bkrepo\/api\/user\/generic\/%2Fdemo%2Fpipeline%2F%2Fp-app%2Fb-/);
    expect((await get(ipa)).status).toBe(401);
    expect((await get(ipa, { cookie: 'bk_token=not-a-ticket' })).status).toBe(401);
    const res = await get(report, cookie);
    expect(res.status).toBe(200);
    expect(res.body).toBe(TEXT);
    expect(res.headers).toMatchObject({
      'content-length': String(TEXT.length),
      'accept-ranges': 'bytes',
      etag: sha(TEXT),
      'x-checksum-sha256': sha(TEXT),
      'content-range': `bytes 0-${TEXT.length - 1}/${TEXT.length}`,
    });
    // Someone who is not in the project: bk-repo's download permission says no.
    const { bkToken } = w.emu.addUser('mallory');
    expect((await get(report, { cookie: `bk_token=${bkToken}` })).status).toBe(403);
  });

  it('take one range: 206 with Content-Range, or 416 past the end', async () => {
    const { links, get, cookie } = await filesWorld();
    const report = links[1] ?? '';
    const part = await get(report, { ...cookie, range: 'bytes=4-' });
    expect(part.status).toBe(206);
    expect(part.body).toBe(TEXT.slice(4));
    expect(part.headers['content-range']).toBe(`bytes 4-${TEXT.length - 1}/${TEXT.length}`);
    expect((await get(report, { ...cookie, range: 'bytes=-3' })).body).toBe(TEXT.slice(-3));
    const past = await get(report, { ...cookie, range: `bytes=${TEXT.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${TEXT.length}`);
    expect(readRange('bytes=1-2,4-5', 10)).toBe('unsatisfiable');
    expect(readRange(undefined, 10)).toBeUndefined();
    expect(readRange('bytes=2-100', 10)).toEqual({ start: 2, end: 10 });
  });

  it('make up a large file’s bytes from its path, the same each time, without holding them', () => {
    const big = new FileBytes('demo/pipeline/x', 3 * 1024 * 1024 + 5);
    const again = new FileBytes('demo/pipeline/x', 3 * 1024 * 1024 + 5);
    const whole = Buffer.concat([...big.chunks(0, big.size)]);
    expect(whole.length).toBe(big.size);
    expect(big.sha256()).toBe(createHash('sha256').update(whole).digest('hex'));
    expect(again.sha256()).toBe(big.sha256());
    expect(new FileBytes('demo/pipeline/y', big.size).sha256()).not.toBe(big.sha256());
    expect(Buffer.concat([...big.chunks(1_048_570, 1_048_580)])).toEqual(whole.subarray(1_048_570, 1_048_580));
  });

  it('serve any caller in an installation without login (the sample provider)', async () => {
    const { links, get } = await filesWorld({ login: false });
    expect((await get(links[1] ?? '')).body).toBe(TEXT);
  });

  it('redirect to the storage origin, which serves the bytes on its signed link without bk-repo’s checksum', async () => {
    const { links, get, cookie, w } = await filesWorld({ storage: true });
    const first = await get(links[1] ?? '', cookie);
    expect(first.status).toBe(302);
    const location = String(first.headers.location);
    expect(location.startsWith(`${w.emu.files.storageUrl}/cos/`)).toBe(true);
    const stored = await get(location);
    expect(stored.status).toBe(200);
    expect(stored.body).toBe(TEXT);
    expect(stored.headers['x-checksum-sha256']).toBeUndefined();
    expect(stored.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await get(location.replace(/sign=\w+/, 'sign=forged'))).status).toBe(403);
    expect(w.emu.files.storageLog.map((r) => r.headers.cookie)).toEqual([undefined, undefined]);
  });

  it('apply the faults on bytes: a cut, a stall, a wrong checksum, other headers', async () => {
    const { links, get, cookie, w } = await filesWorld();
    const report = links[1] ?? '';
    w.emu.faults.add({ pattern: /bkrepo/, fault: { kind: 'checksum' } });
    const wrong = await get(report, cookie);
    expect(wrong.body).toBe(TEXT);
    expect(wrong.headers['x-checksum-sha256']).not.toBe(sha(TEXT));
    w.emu.faults.add({ pattern: /bkrepo/, fault: { kind: 'headers', set: { 'accept-ranges': null, etag: 'other' } } });
    const changed = await get(report, cookie);
    expect(changed.headers['accept-ranges']).toBeUndefined();
    expect(changed.headers.etag).toBe('other');
    w.emu.faults.add({ pattern: /bkrepo/, fault: { kind: 'cut', bytes: 5 } });
    await expect(get(report, cookie)).rejects.toThrow();
  });

  it('a stall sends the headers and the first bytes, tells the test’s clock, and then nothing', async () => {
    const held: string[] = [];
    const { links, cookie, w } = await filesWorld({}, (r) => held.push(r.path));
    w.emu.faults.add({ pattern: /bkrepo/, fault: { kind: 'stall', bytes: 7 } });
    const came = await new Promise<string>((resolve, reject) => {
      const req = httpGet(links[1] ?? '', { headers: cookie }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => {
          body += c.toString();
          if (body.length >= 7) setTimeout(() => resolve(body), 50);
        });
      });
      req.on('error', reject);
    });
    expect(came).toBe(TEXT.slice(0, 7));
    expect(held).toEqual([expect.stringMatching(/^\/bkrepo\/api\/user\/generic\//)]);
  });
});

describe('the build files, realm local', () => {
  it('list bk-archive paths and answer with three headers and no Content-Length, checksum or ranges', async () => {
    const { records, links, get, cookie } = await filesWorld({ realm: 'local' });
    expect(records.map((r) => r.fullPath)).toEqual([
      expect.stringMatching(/^bk-archive\/demo\/p-app\/b-\w+\/app\/App\.ipa$/),
      'bk-custom/demo/reports/index.html',
    ]);
    expect(links[1]).toMatch(
      /\/ms\/artifactory\/api\/user\/artifactories\/file\/download\/local\?filePath=%2Fbk-custom%2Fdemo%2Freports%2Findex\.html$/,
    );
    const res = await get(links[1] ?? '', { ...cookie, range: 'bytes=4-' });
    expect(res.status).toBe(200);
    expect(res.body).toBe(TEXT);
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['x-checksum-sha256']).toBeUndefined();
    expect(res.headers['content-disposition']).toBe('attachment;filename=index.html');
    expect((await get(links[1] ?? '')).status).toBe(401);
  });

  it('the control API switches how files are served', async () => {
    const { w } = await filesWorld();
    const res = await raw(w.emu.url, 'POST', '/__emulator/files', { body: JSON.stringify({ realm: 'local', storage: true }) });
    expect(res.json()).toEqual({ realm: 'local', login: true, storage: true, storageUrl: w.emu.files.storageUrl });
    expect((await raw(w.emu.url, 'POST', '/__emulator/files', { body: '{"realm":"disk"}' })).status).toBe(400);
  });
});
