// The build's files in the runner through run(), against the emulator over loopback: every build
// operation's `download` and download-artifacts, the patterns, the outputs and the summary, who
// receives the login ticket, and what is said when bk-ci refuses (docs/download.md).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_FILES, downloadDir, entries, fileRequests, listed, madeUp, REPORT, sha256, sha256Of } from '../support/download-world.ts';
import { cleanupRuns, P_APP, stepIn } from '../support/in-process.ts';
import { useWorld } from '../support/world.ts';

afterAll(cleanupRuns);

/** A build of p-app (files APP_FILES) started by alice, paused at the review of stage Release; `after`, what it does once approved. */
function pausedAtReview(w: ReturnType<typeof useWorld>, after: { status: string; ms: number; stage: string }[]): string {
  w.pipeline({
    artifacts: APP_FILES,
    stages: ['Build', 'Release'],
    phases: [
      { status: 'RUNNING', ms: 0, stage: 'Build' },
      { status: 'STAGE_SUCCESS', stage: 'Release', review: { groups: [{ name: 'QA', reviewers: ['alice'] }] } },
      ...after,
    ],
  });
  return (JSON.parse(w.emu.builds.start('demo', 'p-app', 'alice', {}).body) as { data: { id: string } }).data.id;
}

describe('start-build with download', () => {
  const w = useWorld();
  const step = stepIn(w, { operation: 'start-build', ...P_APP });

  it('writes the files the patterns choose, whole and verified, with their outputs and the summary', async () => {
    w.pipeline({ artifacts: APP_FILES });
    const { dir } = await downloadDir();
    const r = await step({ download: 'app/*.ipa\nreports/**', 'download-path': dir });
    expect(r.errors).toEqual([]);
    const id = r.outputs['build-id'] ?? '';
    expect(await listed(dir)).toEqual(['app', 'app/App.ipa', 'reports', 'reports/junit.xml']);
    expect(await readFile(join(dir, 'reports/junit.xml'), 'utf8')).toBe(REPORT);
    expect(entries(r.outputs)).toEqual([
      {
        name: 'App.ipa',
        path: `/p-app/${id}/app/App.ipa`,
        file: join(dir, 'app/App.ipa'),
        size: 300_000,
        sha256: madeUp(id, 'app/App.ipa', 300_000),
        verified: 'sha256',
      },
      {
        name: 'junit.xml',
        path: '/reports/junit.xml',
        file: join(dir, 'reports/junit.xml'),
        size: REPORT.length,
        sha256: sha256(REPORT),
        verified: 'sha256',
      },
    ]);
    expect(await sha256Of(join(dir, 'app/App.ipa'))).toBe(madeUp(id, 'app/App.ipa', 300_000));
    expect(r.outputs['download-path']).toBe(dir);
    expect(r.summary).toContain('#### Downloaded files (2)');
    expect(r.summary).toContain('| app/App.ipa | 293 KiB | SHA-256 |');
    expect(r.summary).toContain('1 more file of the build matched no download pattern.');
    expect(r.stdout).toContain('downloaded app/App.ipa (293 KiB, SHA-256 verified)');
    // The login ticket, and nothing else: no access token, no user header, no other credential.
    for (const req of fileRequests(w)) {
      expect(req.headers.cookie).toBe(`bk_token=${w.bkToken}`);
      expect(req.query).toBe('');
      expect(Object.keys(req.headers).sort()).toEqual(['accept-encoding', 'connection', 'cookie', 'host', 'user-agent']);
    }
  });

  it('a ! pattern leaves files out; a pattern that matches nothing fails the step, naming the files, after the others are written', async () => {
    w.pipeline({ artifacts: APP_FILES });
    const { dir } = await downloadDir();
    const r = await step({ download: 'app/**, !**/*.zip, *.apk', 'download-path': dir });
    expect(r.code).toBe(1);
    expect(await listed(dir)).toEqual(['app', 'app/App.ipa']);
    expect(r.errors[0]).toMatch(
      /^bk-ci start-build failed: build #1 \(b-\w+\) ended SUCCEED, but the download pattern "\*\.apk" matches none of the build's 3 files: app\/App\.ipa, app\/App\.dSYM\.zip, reports\/junit\.xml$/,
    );
    expect(r.summary).toContain('/app/App.dSYM.zip | left out by !\\*\\*/\\*.zip |');
    expect(entries(r.outputs).map((e) => e.name)).toEqual(['App.ipa']);
    expect(r.outputs.conclusion).toBe('success');
  });

  it("downloads a failed build's files too: the verdict stays the build's", async () => {
    w.pipeline({ artifacts: APP_FILES, result: 'FAILED' });
    const { dir } = await downloadDir();
    const r = await step({ download: 'reports/*', 'download-path': dir });
    expect(r.code).toBe(1);
    expect(r.errors[0]).toMatch(/^bk-ci start-build failed: build #1 \(b-\w+\) of pipeline p-app ended FAILED/);
    expect(await listed(dir)).toEqual(['reports', 'reports/junit.xml']);
    expect(r.outputs.conclusion).toBe('failure');
    expect(entries(r.outputs)).toHaveLength(1);
  });

  it('refuses download without wait: the files come once the build has ended', async () => {
    const r = await step({ download: '**', wait: 'false' });
    expect(r.errors[0]).toContain('download needs wait: true');
    expect(w.emu.requests({ path: 'build_start' })).toEqual([]);
  });
});

describe('the other build operations take download at their end', () => {
  const w = useWorld();

  it('build-status of a build that ended, waiting or not', async () => {
    w.pipeline({ artifacts: APP_FILES });
    const { id } = w.emu.seedBuild({ pipelineId: 'p-app', status: 'FAILED' });
    for (const wait of ['true', 'false']) {
      const { dir } = await downloadDir();
      const r = await stepIn(w)({ operation: 'build-status', 'build-id': id, download: '*/*.ipa', 'download-path': dir, wait });
      expect(r.errors[0]).toMatch(/ended FAILED/);
      expect(await listed(dir)).toEqual(['app', 'app/App.ipa']);
    }
  });

  it('build-status of a build still running, without wait: nothing is downloaded, and the step says why', async () => {
    w.pipeline({ artifacts: APP_FILES });
    const { id } = w.emu.seedBuild({ pipelineId: 'p-app', status: 'RUNNING' });
    const { dir } = await downloadDir();
    const r = await stepIn(w)({ operation: 'build-status', 'build-id': id, download: '**', 'download-path': dir, wait: 'false' });
    expect(r.errors).toEqual([
      "bk-ci build-status failed: the build's files were not downloaded: the build has not ended (wait: true waits for its end)",
    ]);
    expect(r.outputs.downloaded).toBe('[]');
    expect(await listed(dir)).toEqual([]);
  });

  it('retry-build, once the new run has ended', async () => {
    w.pipeline({ artifacts: APP_FILES });
    const { id } = w.emu.seedBuild({ pipelineId: 'p-app', status: 'FAILED' });
    const { dir } = await downloadDir();
    const r = await stepIn(w)({
      operation: 'retry-build',
      'build-id': id,
      'pipeline-id': 'p-app',
      download: 'app/App.ipa',
      'download-path': dir,
    });
    expect(r.errors).toEqual([]);
    expect(r.outputs['execute-count']).toBe('2');
    expect(await listed(dir)).toEqual(['app', 'app/App.ipa']);
  });

  it('review-build needs wait: true for it, and then downloads once the build has ended', async () => {
    const id = pausedAtReview(w, [{ status: 'RUNNING', ms: 1000, stage: 'Release' }]);
    const review = { operation: 'review-build', 'build-id': id, 'pipeline-id': 'p-app', decision: 'approve', download: 'reports/' };
    const refused = await stepIn(w)(review);
    expect(refused.errors[0]).toContain('download needs wait: true');
    const { dir } = await downloadDir();
    const r = await stepIn(w)({ ...review, wait: 'true', 'download-path': dir, 'poll-interval': '1s' });
    expect(r.errors).toEqual([]);
    expect(await listed(dir)).toEqual(['reports', 'reports/junit.xml']);
  });
});

describe('download-artifacts', () => {
  const w = useWorld();

  it("downloads a failed build's files, and succeeds: the build's verdict is not the step's", async () => {
    w.pipeline({ artifacts: APP_FILES });
    const { id } = w.emu.seedBuild({ pipelineId: 'p-app', status: 'FAILED' });
    const { dir } = await downloadDir();
    const r = await stepIn(w)({ operation: 'download-artifacts', 'build-id': id, download: 'reports/', 'download-path': dir });
    expect(r.errors).toEqual([]);
    expect(r.code).toBe(0);
    expect(await listed(dir)).toEqual(['reports', 'reports/junit.xml']);
  });

  it('refuses a build paused at a stage review, saying that it waits for that review rather than a bare status', async () => {
    const id = pausedAtReview(w, []);
    const { dir } = await downloadDir();
    const r = await stepIn(w)({ operation: 'download-artifacts', 'build-id': id, 'download-path': dir });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatch(
      /is still STAGE_SUCCESS, waiting for the review of stage 'Release': its files are downloaded once it has ended/,
    );
    expect(await listed(dir)).toEqual([]);
  });
});
