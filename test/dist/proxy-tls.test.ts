import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/server.ts';
import { cleanupSteps, installAction, runStep } from '../support/dist-runner.ts';
import { startProxy } from '../support/proxy.ts';
import { makePki, type TestPki } from '../support/tls.ts';

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

async function withEmulator(tls: boolean, fn: (emu: Emulator, bkToken: string) => Promise<void>): Promise<void> {
  const emu = await startEmulator({ flavour: 'bkci', ...(tls ? { tls: { key: pki.key, cert: pki.cert } } : {}) });
  emu.seedProject({ englishName: 'demo', projectName: 'Demo', creator: 'alice' });
  try {
    await fn(emu, emu.addUser('alice').bkToken);
  } finally {
    await emu.close();
  }
}

describe('proxies and private CAs, the built action', () => {
  it('sends plain-http requests through HTTP_PROXY', async () => {
    const proxy = await startProxy();
    await withEmulator(false, async (emu, bkToken) => {
      const r = await runStep(actionDir, {
        inputs: { operation: 'get-project', 'base-url': emu.url, 'bk-token': bkToken, 'project-id': 'demo' },
        env: { HTTP_PROXY: proxy.url },
      });
      expect(r.code).toBe(0);
      expect(proxy.log.map((l) => l.target.split('?')[0])).toEqual([
        `${emu.url}/ms/auth/api/user/token/get`,
        `${emu.url}/ms/openapi/api/apigw/v3/projects/demo`,
      ]);
    });
    await proxy.close();
  });

  it('reads a long list through HTTPS_PROXY as it arrives, the same as without a proxy', async () => {
    const proxy = await startProxy();
    await withEmulator(true, async (emu, bkToken) => {
      for (let i = 0; i < 2000; i++) emu.seedProject({ englishName: `p-${i}`, projectName: `项目 ${i}`, creator: 'alice' });
      const inputs = { operation: 'list-projects', 'base-url': emu.url, 'bk-token': bkToken };
      const proxied = await runStep(actionDir, { inputs, env: { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: caFile } });
      const direct = await runStep(actionDir, { inputs, env: { NODE_EXTRA_CA_CERTS: caFile } });
      expect(proxied.code).toBe(0);
      expect(proxied.outputs.count).toBe('2001');
      expect(proxy.log.map((l) => l.target)).toContain(`${new URL(emu.url).host}`);
      const [a, b] = await Promise.all([proxied, direct].map((r) => readFile(r.outputs['data-file'] ?? '', 'utf8')));
      expect(a).toBe(b);
      expect(JSON.parse(a ?? '')).toHaveLength(2001);
    });
    await proxy.close();
  });

  it('bypasses the proxy for hosts in NO_PROXY', async () => {
    const proxy = await startProxy();
    await withEmulator(false, async (emu, bkToken) => {
      const r = await runStep(actionDir, {
        inputs: { operation: 'get-project', 'base-url': emu.url, 'bk-token': bkToken, 'project-id': 'demo' },
        env: { HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' },
      });
      expect(r.code).toBe(0);
      expect(proxy.log).toEqual([]);
      expect(emu.requests()).toHaveLength(2);
    });
    await proxy.close();
  });

  it('tunnels https through HTTPS_PROXY with CONNECT, trusting a private CA from NODE_EXTRA_CA_CERTS', async () => {
    const proxy = await startProxy();
    await withEmulator(true, async (emu, bkToken) => {
      const r = await runStep(actionDir, {
        inputs: { operation: 'get-project', 'base-url': emu.url, 'bk-token': bkToken, 'project-id': 'demo' },
        env: { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: caFile },
      });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.outputs.data ?? '')).toMatchObject({ englishName: 'demo' });
      expect(proxy.log).toEqual([{ method: 'CONNECT', target: emu.url.replace('https://', '') }]);
    });
    await proxy.close();
  });

  it('fails readably on a certificate it cannot verify', async () => {
    await withEmulator(true, async (emu, bkToken) => {
      const r = await runStep(actionDir, {
        inputs: { operation: 'get-project', 'base-url': emu.url, 'bk-token': bkToken, 'project-id': 'demo' },
      });
      expect(r.code).toBe(1);
      expect(r.errors).toHaveLength(1);
      expect(r.errors[0]).toMatch(
        /GET https:\/\/127\.0\.0\.1:\d+\/ms\/auth\/api\/user\/token\/get failed: unable to verify the first certificate\. If the gateway uses a certificate from a private CA, .*NODE_EXTRA_CA_CERTS/,
      );
      expect(emu.requests()).toHaveLength(0);
      expect(r.stdout).not.toMatch(/retry/);
    });
  });
});
