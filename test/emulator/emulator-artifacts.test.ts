// The emulator's artifacts with bk-repo behind bk-ci (docs/bkci/artifacts-and-variables.md): file_info
// pages that say `totalPages: 1` and count only the page (a client reads until a short page),
// FileInfo as bk-ci fills it, and user_download_url's links and its refusal for a path that is not there.
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../emulator/server.ts';
import { seededBuild } from '../support/emu-v4.ts';

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

const T0 = Date.UTC(2026, 5, 1);
interface Page {
  count: number;
  page: number;
  pageSize: number;
  totalPages: number;
  records: Record<string, unknown>[];
}

describe('artifactories/file_info', () => {
  it.each([
    ['bkci', 'bkci'],
    ['spec', 'bkci'],
    ['bkci', 'apigw'],
  ] as const)('%s flavour on the %s route: pages of bk-repo with totalPages 1, read until a short page', async (flavour, route) => {
    const built = await seededBuild(
      {
        phases: [{ status: 'RUNNING', ms: 5000 }],
        artifacts: Array.from({ length: 45 }, (_, i) => ({ path: `out/file-${i + 1}.txt`, size: i })),
      },
      { flavour, route, t0: T0 },
    );
    emu = built.emu;
    const { api, buildId, at } = built;
    const page = async (query: Record<string, number>) => {
      const res = await api.get('artifactories/file_info', { buildId, pipelineId: 'p-app', ...query });
      expect(res.status).toBe(200);
      return (res.json() as { data: Page }).data;
    };
    // Archived when the build ends, by default.
    expect(await page({})).toEqual({ count: 0, page: 1, pageSize: 20, totalPages: 1, records: [] });
    at(5000);
    const first = await page({});
    expect({ ...first, records: first.records.length }).toEqual({ count: 20, page: 1, pageSize: 20, totalPages: 1, records: 20 });
    const third = await page({ page: 3 });
    expect({ ...third, records: third.records.length }).toEqual({ count: 5, page: 3, pageSize: 20, totalPages: 1, records: 5 });
    expect((await page({ page: 2, pageSize: 40 })).records.map((r) => r.name)).toEqual([
      'file-41.txt',
      'file-42.txt',
      'file-43.txt',
      'file-44.txt',
      'file-45.txt',
    ]);
    expect((await page({ page: 4 })).records).toEqual([]);
  });

  it('FileInfo as bk-ci fills it: full path under the build, full name with the pipeline name and build number, seconds', async () => {
    const built = await seededBuild(
      {
        phases: [{ status: 'RUNNING', ms: 5000 }],
        artifacts: [
          { path: 'app/App.ipa', size: 1048576, at: 3000, properties: { appVersion: '1.10' } },
          { path: 'reports/cov.html', type: 'CUSTOM_DIR', size: 10, at: 4000 },
        ],
      },
      { t0: T0 },
    );
    emu = built.emu;
    const { api, buildId, at } = built;
    at(3500);
    const res = await api.get('artifactories/file_info', { buildId });
    expect((res.json() as { data: Page }).data.records).toEqual([
      {
        name: 'App.ipa',
        fullName: '/App/1/app/App.ipa',
        path: `/p-app/${buildId}/app/App.ipa`,
        fullPath: `/p-app/${buildId}/app/App.ipa`,
        size: 1048576,
        folder: false,
        modifiedTime: (T0 + 3000) / 1000,
        artifactoryType: 'PIPELINE',
        properties: [
          { key: 'pipelineId', value: 'p-app' },
          { key: 'buildId', value: buildId },
          { key: 'appVersion', value: '1.10' },
        ],
      },
    ]);
    at(4000);
    const both = (await api.get('artifactories/file_info', { buildId })).json() as { data: Page };
    expect(both.data.records[1]).toMatchObject({
      name: 'cov.html',
      fullName: '/reports/cov.html',
      fullPath: '/reports/cov.html',
      artifactoryType: 'CUSTOM_DIR',
    });
  });

  it('refuses as the openapi does', async () => {
    const built = await seededBuild({});
    emu = built.emu;
    const { api, buildId } = built;
    const refusal = async (query: Record<string, string>) => {
      const res = await api.get('artifactories/file_info', query);
      return [res.status, res.json()];
    };
    expect(await refusal({})).toEqual([400, { status: 400, message: '参数校验失败:request param buildId cannot be empty' }]);
    expect(await refusal({ buildId, pipelineId: 'p-x' })).toEqual([
      400,
      { status: 400, message: '参数校验失败:{0} PipelineId is invalid ' },
    ]);
    expect(await refusal({ buildId, page: 'two' })).toEqual([400, { status: 400, message: '查询参数类型错误' }]);
  });
});

describe('artifactories/user_download_url', () => {
  it('a session link to the first match, the whole path one encoded segment; bk-ci refuses a path that is not there', async () => {
    const built = await seededBuild({
      artifacts: [
        { path: 'app/My App (1).ipa', size: 3, at: 0 },
        { path: 'app/b.txt', at: 0 },
      ],
    });
    emu = built.emu;
    const { api, buildId } = built;
    const url = async (query: Record<string, string>) => {
      const res = await api.get('artifactories/user_download_url', query);
      return [res.status, res.json()];
    };
    const fullPath = `/p-app/${buildId}/app/My App (1).ipa`;
    const link = `${emu.url}/bkrepo/api/user/generic/%2Fdemo%2Fpipeline%2F%2Fp-app%2F${buildId}%2Fapp%2FMy+App+%281%29.ipa`;
    expect(await url({ artifactoryType: 'PIPELINE', path: fullPath })).toEqual([200, { status: 0, data: { url: link, url2: link } }]);
    // A folder (a path ending in /) is its first file.
    expect(await url({ artifactoryType: 'PIPELINE', path: `/p-app/${buildId}/app/` })).toEqual([
      200,
      { status: 0, data: { url: link, url2: link } },
    ]);
    expect(await url({ artifactoryType: 'PIPELINE', path: `/p-app/${buildId}/app/nope.ipa` })).toEqual([
      400,
      { status: 2100004, message: `参数值[/p-app/${buildId}/app/nope.ipa]为非法数据` },
    ]);
    // The custom repository is another place: the same path is not there.
    expect((await url({ artifactoryType: 'CUSTOM_DIR', path: fullPath }))[1]).toMatchObject({ status: 2100004 });
    expect(await url({ artifactoryType: 'PIPELINE', path: '/p-app/../x' })).toEqual([
      400,
      { status: 2100004, message: '参数值[/p-app/../x]为非法数据' },
    ]);
    expect(await url({ artifactoryType: 'DISK', path: fullPath })).toEqual([400, { status: 400, message: '查询参数类型错误' }]);
    expect(await url({ path: fullPath })).toEqual([
      400,
      { status: 400, message: '参数校验失败:request param artifactoryType cannot be empty' },
    ]);
  });

  it('the spec flavour answers 404 for a path that is not there', async () => {
    const built = await seededBuild({}, { flavour: 'spec' });
    emu = built.emu;
    const res = await built.api.get('artifactories/user_download_url', { artifactoryType: 'PIPELINE', path: '/nope' });
    expect([res.status, res.json()]).toEqual([404, { status: 404, message: '参数值[/nope]为非法数据' }]);
  });
});
