// Proxies and private CAs, the built action: what only a process shows, the runner's real
// environment (HTTP_PROXY, HTTPS_PROXY, NO_PROXY) and Node's own trust store read at start
// (NODE_EXTRA_CA_CERTS), with the transport the bundle chooses from them. Each case is a world of
// its own (an emulator, a proxy): they run at the same time.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it, type TestContext } from 'vitest';
import { cleanupSteps, installAction, runStep } from '../support/dist-runner.ts';
import { startProxy } from '../support/proxy.ts';
import { makePki, type TestPki } from '../support/tls.ts';
import type { World } from '../support/world.ts';
import { worldForTest } from '../support/world.ts';

let actionDir: string;
let pki: TestPki;
let caFile: string;
let tmp: string;
beforeAll(async () => {
  actionDir = await installAction();
  pki = await makePki();
  tmp = await mkdtemp(join(tmpdir(), 'bkci-pki-'));
  caFile = join(tmp, 'ca.pem');
  await writeFile(caFile, pki.caCert);
});
afterAll(async () => {
  await rm(actionDir, { recursive: true, force: true });
  await rm(tmp, { recursive: true, force: true });
  await cleanupSteps();
});

/** A world in real time for this test, over https with the test CA's certificate when `tls`. */
const worldFor = (test: TestContext, tls: boolean): Promise<World> =>
  worldForTest({ realTime: true, ...(tls ? { tls: { key: pki.key, cert: pki.cert } } : {}) }, test);

/** A proxy for this test, closed when it finishes. */
async function proxyFor(test: TestContext): Promise<Awaited<ReturnType<typeof startProxy>>> {
  const proxy = await startProxy();
  test.onTestFinished(() => proxy.close());
  return proxy;
}

describe.concurrent('proxies and private CAs, the built action', () => {
  it('sends plain-http requests through HTTP_PROXY', async (test) => {
    const { expect } = test;
    const proxy = await proxyFor(test);
    const w = await worldFor(test, false);
    const r = await runStep(actionDir, {
      inputs: { operation: 'get-project', ...w.connection() },
      env: { HTTP_PROXY: proxy.url },
    });
    expect(r.code).toBe(0);
    expect(proxy.log.map((l) => l.target.split('?')[0])).toEqual([
      `${w.emu.url}/ms/auth/api/user/token/get`,
      `${w.emu.url}/ms/openapi/api/apigw/v3/projects/demo`,
    ]);
  });

  it('reads a long list through HTTPS_PROXY as it arrives, the same as without a proxy', async (test) => {
    const { expect } = test;
    const proxy = await proxyFor(test);
    const w = await worldFor(test, true);
    for (let i = 0; i < 2000; i++) w.emu.seedProject({ englishName: `p-${i}`, projectName: `项目 ${i}`, creator: 'alice' });
    const inputs = { operation: 'list-projects', 'base-url': w.emu.url, 'bk-token': w.bkToken };
    const [proxied, direct] = await Promise.all([
      runStep(actionDir, { inputs, env: { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: caFile } }),
      runStep(actionDir, { inputs, env: { NODE_EXTRA_CA_CERTS: caFile } }),
    ]);
    expect(proxied.code).toBe(0);
    expect(proxied.outputs.count).toBe('2001');
    expect(proxy.log.map((l) => l.target)).toContain(`${new URL(w.emu.url).host}`);
    const [a, b] = await Promise.all([proxied, direct].map((r) => readFile(r.outputs['data-file'] ?? '', 'utf8')));
    expect(a).toBe(b);
    expect(JSON.parse(a ?? '')).toHaveLength(2001);
  });

  it('bypasses the proxy for hosts in NO_PROXY', async (test) => {
    const { expect } = test;
    const proxy = await proxyFor(test);
    const w = await worldFor(test, false);
    const r = await runStep(actionDir, {
      inputs: { operation: 'get-project', ...w.connection() },
      env: { HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' },
    });
    expect(r.code).toBe(0);
    expect(proxy.log).toEqual([]);
    expect(w.emu.requests()).toHaveLength(2);
  });

  it('tunnels https through HTTPS_PROXY with CONNECT, trusting a private CA from NODE_EXTRA_CA_CERTS', async (test) => {
    const { expect } = test;
    const proxy = await proxyFor(test);
    const w = await worldFor(test, true);
    const r = await runStep(actionDir, {
      inputs: { operation: 'get-project', ...w.connection() },
      env: { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: caFile },
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.outputs.data ?? '')).toMatchObject({ englishName: 'demo' });
    expect(proxy.log).toEqual([{ method: 'CONNECT', target: w.emu.url.replace('https://', '') }]);
  });

  it('fails readably on a certificate it cannot verify', async (test) => {
    const { expect } = test;
    const w = await worldFor(test, true);
    const r = await runStep(actionDir, { inputs: { operation: 'get-project', ...w.connection() } });
    expect(r.code).toBe(1);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatch(
      /GET https:\/\/127\.0\.0\.1:\d+\/ms\/auth\/api\/user\/token\/get failed: unable to verify the first certificate\. If the gateway uses a certificate from a private CA, .*NODE_EXTRA_CA_CERTS/,
    );
    expect(w.emu.requests()).toHaveLength(0);
    expect(r.stdout).not.toMatch(/retry/);
  });
});
