// The build's files through the built action, as the runner runs it: what only a process shows —
// the download's own file (download.js) loaded when asked, the runner's cancel (SIGINT) during a
// body leaving no temporary file, the environment's proxy taken for the files too, and Node's
// trust store for an https gateway that redirects down to plain http (refused, the storage never
// asked). The words and hostile cases are run() in process: test/run/download*.test.ts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it, type TestContext } from 'vitest';
import { runStep, useInstalledAction } from '../support/dist-runner.ts';
import { APP_FILES, downloadDir, entries, listed } from '../support/download-world.ts';
import { failedWith } from '../support/expect-step.ts';
import { startProxy } from '../support/proxy.ts';
import { makePki, type TestPki } from '../support/tls.ts';
import { type World, worldForTest } from '../support/world.ts';

const action = useInstalledAction({ beforeAll, afterAll });
let pki: TestPki;
let caFile = '';
beforeAll(async () => {
  pki = await makePki();
  const dir = await mkdtemp(join(tmpdir(), 'bkci-pki-'));
  caFile = join(dir, 'ca.pem');
  await writeFile(caFile, pki.caCert);
});
afterAll(() => rm(join(caFile, '..'), { recursive: true, force: true }));

/** A world in real time whose p-app build ended with the app's files; that build's id. */
async function ended(test: TestContext, o: { tls?: boolean } = {}): Promise<{ w: World; id: string }> {
  const w = await worldForTest({ realTime: true, ...(o.tls ? { tls: { key: pki.key, cert: pki.cert } } : {}) }, test);
  w.pipeline({ artifacts: APP_FILES });
  return { w, id: w.emu.seedBuild({ pipelineId: 'p-app', status: 'SUCCEED' }).id };
}

describe.concurrent('the download, through the built action', () => {
  it('start-build brings the files the patterns choose into the workspace', async (test) => {
    const { expect } = test;
    const w = await worldForTest({ realTime: true }, test);
    w.pipeline({ artifacts: APP_FILES, phases: [{ status: 'RUNNING', ms: 300 }] });
    const r = await runStep(action(), {
      inputs: {
        operation: 'start-build',
        ...w.connection(),
        'pipeline-id': 'p-app',
        'poll-interval': '1s',
        download: 'app/*.ipa\nreports/',
      },
    });
    expect(r.errors).toEqual([]);
    const folder = r.outputs['download-path'] ?? '';
    expect(folder).toMatch(/\/bkci-artifacts$/);
    expect(await listed(folder)).toEqual(['app', 'app/App.ipa', 'reports', 'reports/junit.xml']);
    expect(entries(r.outputs).map((e) => [e.name, e.verified])).toEqual([
      ['App.ipa', 'sha256'],
      ['junit.xml', 'sha256'],
    ]);
  });

  it('a cancel during a body leaves no temporary file, and the step exits within 7 s', async (test) => {
    const { expect } = test;
    const { w, id } = await ended(test);
    w.emu.faults.add({ pattern: /App\.ipa$/, fault: { kind: 'stall', bytes: 100_000 } });
    const { dir } = await downloadDir();
    let signalledAt = 0;
    const r = await runStep(action(), {
      inputs: { operation: 'download-artifacts', ...w.connection(), 'build-id': id, download: 'app/App.ipa', 'download-path': dir },
      onSpawn: (kill) => {
        const timer = setInterval(() => {
          if (w.emu.requests({ path: 'App.ipa' }).length === 0) return;
          clearInterval(timer);
          setTimeout(() => {
            signalledAt = Date.now();
            kill('SIGINT');
          }, 300);
        }, 10);
      },
    });
    expect(Date.now() - signalledAt).toBeLessThan(7000);
    failedWith(r, /the job was cancelled during the download; no partial file was kept$/, expect);
    expect(await listed(dir)).toEqual([]);
  });

  it('behind HTTP_PROXY the files go through the proxy too', async (test) => {
    const { expect } = test;
    const { w, id } = await ended(test);
    const proxy = await startProxy();
    test.onTestFinished(() => proxy.close());
    const { dir } = await downloadDir();
    const r = await runStep(action(), {
      inputs: { operation: 'download-artifacts', ...w.connection(), 'build-id': id, 'download-path': dir },
      env: { HTTP_PROXY: proxy.url },
    });
    expect(r.errors).toEqual([]);
    expect(entries(r.outputs)).toHaveLength(3);
    expect(proxy.log.filter((l) => l.target.includes('/bkrepo/api/user/generic/'))).toHaveLength(3);
  });

  it('over https, a redirect down to plain http is refused: the storage origin hears nothing', async (test) => {
    const { expect } = test;
    const { w, id } = await ended(test, { tls: true });
    w.emu.files.set({ storage: true });
    const { dir } = await downloadDir();
    const r = await runStep(action(), {
      inputs: { operation: 'download-artifacts', ...w.connection(), 'build-id': id, download: 'reports/*', 'download-path': dir },
      env: { NODE_EXTRA_CA_CERTS: caFile },
    });
    failedWith(
      r,
      /reports\/junit\.xml: not fetched: it was redirected from https to plain http \(http:\/\/127\.0\.0\.1:\d+\), which would carry it in the clear/,
      expect,
    );
    expect(w.emu.files.storageLog).toEqual([]);
    expect(await listed(dir)).toEqual([]);
  });
});
