// Who receives the login ticket with a download, and what the step says when bk-ci refuses it:
// the bk_token cookie only to the origins of base-url, console-url and download-hosts, a redirect
// to storage followed bare (shown by what the storage origin received), one bare try without
// bk-token, 401 and 403 in words (docs/download.md). And download-artifacts, for a build an
// earlier job started.
import { afterAll, describe, expect, it } from 'vitest';
import { APP_FILES, downloadDir, entries, fileRequests, listed } from '../support/download-world.ts';
import { cleanupRuns, stepIn } from '../support/in-process.ts';
import { useWorld } from '../support/world.ts';

afterAll(cleanupRuns);

describe('the login ticket goes only where it belongs', () => {
  const w = useWorld({ users: ['alice', 'mallory'] });
  const download = stepIn(w, { operation: 'download-artifacts' });
  const ended = (status = 'SUCCEED'): string => {
    w.pipeline({ artifacts: APP_FILES });
    return w.emu.seedBuild({ pipelineId: 'p-app', status }).id;
  };

  it('a redirect to the storage origin is followed without it: the storage received no cookie, and the size is verified', async () => {
    const id = ended();
    w.emu.files.set({ storage: true });
    const { dir } = await downloadDir();
    const r = await download({ 'build-id': id, 'download-path': dir });
    expect(r.errors).toEqual([]);
    expect(await listed(dir)).toEqual(['app', 'app/App.dSYM.zip', 'app/App.ipa', 'reports', 'reports/junit.xml']);
    expect(entries(r.outputs).map((e) => e.verified)).toEqual(['size', 'size', 'size']);
    expect(w.emu.files.storageLog).toHaveLength(3);
    for (const req of w.emu.files.storageLog) {
      expect(req.headers.cookie).toBeUndefined();
      expect(req.headers.authorization).toBeUndefined();
    }
    expect(fileRequests(w).map((q) => q.headers.cookie)).toEqual(Array(3).fill(`bk_token=${w.bkToken}`));
    expect(r.summary).toContain('size only (no checksum sent)');
    // The storage link's query is its signature: never shown.
    expect(r.stdout).not.toMatch(/sign=/);
  });

  it('a link to an origin that is not base-url’s goes bare; download-hosts lets the ticket go there', async () => {
    const id = ended();
    const port = new URL(w.emu.url).port;
    // base-url by another name: bk-ci builds its links from its own configured host (127.0.0.1 here).
    const aside = { 'base-url': `http://localhost:${port}`, 'build-id': id };
    const bare = await download({ ...aside, 'download-path': (await downloadDir()).dir });
    expect(bare.errors[0]).toContain(
      `http://127.0.0.1:${port} refused the download (HTTP 401) of a request sent without the login ticket: bk-token goes only to the origins of base-url, console-url and download-hosts. If http://127.0.0.1:${port} is bk-ci's own gateway`,
    );
    // Files go 4 at once: the others may be on their way before the first refusal comes back, none after.
    expect(fileRequests(w).length).toBeGreaterThan(0);
    for (const q of fileRequests(w)) expect(q.headers.cookie).toBeUndefined();
    const { dir } = await downloadDir();
    const allowed = await download({ ...aside, 'download-hosts': `http://127.0.0.1:${port}`, 'download-path': dir });
    expect(allowed.errors).toEqual([]);
    expect(await listed(dir)).toHaveLength(5);
  });

  it('without bk-token: one bare try, then one sentence on why downloads need it', async () => {
    const id = ended();
    const { dir } = await downloadDir();
    const r = await download({ 'bk-token': '', 'access-token': w.accessToken, 'user-id': 'alice', 'build-id': id, 'download-path': dir });
    expect(r.errors).toEqual([
      'bk-ci download-artifacts failed: bk-ci serves artifact files only to a logged-in BlueKing session; set bk-token (the bk_token login cookie) to download. access-token and app-code/app-secret can list artifacts and return links, not files (HTTP 401)',
    ]);
    expect(fileRequests(w)).toHaveLength(1);
    expect(fileRequests(w)[0]?.headers.cookie).toBeUndefined();
    expect(fileRequests(w)[0]?.query).toBe('');
    expect(await listed(dir)).toEqual([]);
    expect(r.summary).toContain('not tried: bk-ci refused an earlier file');
  });

  it('without bk-token, an installation without login serves the files', async () => {
    const id = ended();
    w.emu.files.set({ login: false });
    const { dir } = await downloadDir();
    const r = await download({ 'bk-token': '', 'access-token': w.accessToken, 'user-id': 'alice', 'build-id': id, 'download-path': dir });
    expect(r.errors).toEqual([]);
    expect(entries(r.outputs)).toHaveLength(3);
  });

  it('401 with bk-token: the ticket expired; 403: no download permission; the rest is not tried', async () => {
    w.pipeline({ artifacts: Array.from({ length: 9 }, (_, i) => ({ path: `out/${i}.bin`, size: 1000 })) });
    const { id } = w.emu.seedBuild({ pipelineId: 'p-app', status: 'SUCCEED' });
    w.emu.faults.add({ pattern: /bkrepo/, fault: { kind: 'status', status: 401, contentType: 'html' } });
    const expired = await download({ 'build-id': id, 'download-path': (await downloadDir()).dir });
    expect(expired.errors[0]).toContain(
      'bk-ci refused bk-token for the download (HTTP 401): the BlueKing login ticket has expired or belongs to another installation. Log in again',
    );
    const before = fileRequests(w).length;
    const denied = await download({ 'bk-token': w.tokens.mallory ?? '', 'build-id': id, 'download-path': (await downloadDir()).dir });
    expect(denied.errors[0]).toContain(
      "bk-ci refused the download (HTTP 403): the user of bk-token may not download this pipeline's files; ask a manager of the project for the pipeline's download permission",
    );
    // Four at once: those on their way when the first refusal came, and none after it.
    expect(fileRequests(w).length - before).toBeLessThanOrEqual(4);
    expect(denied.summary).toContain('not tried: bk-ci refused an earlier file');
  });
});

describe('download-artifacts', () => {
  const w = useWorld();
  const download = stepIn(w, { operation: 'download-artifacts' });

  it("downloads every file of a failed build and succeeds: the build's verdict is not the step's", async () => {
    w.pipeline({ artifacts: APP_FILES });
    const { id } = w.emu.seedBuild({ pipelineId: 'p-app', status: 'FAILED' });
    const { dir } = await downloadDir();
    const r = await download({ 'build-id': id, 'download-path': dir });
    expect(r.errors).toEqual([]);
    expect(r.stdout).toMatch(/3 files of build #\d+ \(b-\w+\), which ended FAILED, downloaded to /);
    expect(entries(r.outputs)).toHaveLength(3);
  });

  it('refuses a build still running, and names an unknown one', async () => {
    w.pipeline({ artifacts: APP_FILES });
    const { id } = w.emu.seedBuild({ pipelineId: 'p-app', status: 'RUNNING' });
    const running = await download({ 'build-id': id });
    expect(running.errors[0]).toMatch(/is still RUNNING: its files are downloaded once it has ended/);
    const unknown = await download({ 'build-id': 'b-nothere' });
    expect(unknown.errors[0]).toBe('bk-ci download-artifacts failed: no build b-nothere in project demo: check build-id and project-id');
  });

  it('says so when the build has no files', async () => {
    w.pipeline({});
    const { id } = w.emu.seedBuild({ pipelineId: 'p-app', status: 'SUCCEED' });
    const r = await download({ 'build-id': id });
    expect(r.errors[0]).toBe('bk-ci download-artifacts failed: the build has no files to download: bk-ci lists none');
  });
});
