// A build's artifacts as bk-ci lists them with bk-repo behind it (realm `bkrepo`;
// docs/bkci/artifacts-and-variables.md; bk-ci BkRepoArchiveFileServiceImpl): file_info pages whose
// `count` is the page's length and `totalPages` always 1, and user_download_url's session links.
import { z } from 'zod';
import { buildOf } from './build-ref.ts';
import type { Build, BuildWorld } from './builds.ts';
import type { Reply, Wire } from './wire.ts';

/** A file a build archives: to the pipeline repository (its path is relative to the build) or the custom one. */
export const artifactSeedSchema = z
  .object({
    /** PIPELINE: relative to the build (`app/app.ipa`); CUSTOM_DIR: the path in the custom repository. */
    path: z
      .string()
      .min(1)
      .refine((p) => !p.endsWith('/') && !p.split('/').includes('..'), 'a file path, without .. and not ending in /'),
    size: z.number().int().min(0).default(0),
    type: z.enum(['PIPELINE', 'CUSTOM_DIR']).default('PIPELINE'),
    /** ms after build_start it is archived; by default when the build ends. */
    at: z.number().int().min(0).optional(),
    /** bk-repo metadata beside pipelineId and buildId. */
    properties: z.record(z.string(), z.string()).default({}),
  })
  .strict();
export type ArtifactSeed = z.infer<typeof artifactSeedSchema>;

const ARTIFACTORY_TYPES = new Set(['PIPELINE', 'CUSTOM_DIR', 'IMAGE', 'REPORT', 'CREATIVE']);
const REPO: Record<string, string> = { PIPELINE: 'pipeline', CUSTOM_DIR: 'custom' };
const NUMBER = /^-?\d+$/;

/** A file in bk-repo: which repository, where. */
interface Node {
  repo: string;
  fullPath: string;
  build: Build;
  seed: ArtifactSeed;
  /** Epoch ms it was archived. */
  archivedAt: number;
}

/** java.net.URLEncoder.encode(s, "UTF-8"): like encodeURIComponent, but `+` for a space and `!'()~` encoded. */
function javaUrlEncode(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replaceAll('%20', '+');
}

export class ArtifactWorld {
  readonly #wire: Wire;
  readonly #now: () => number;
  readonly #builds: BuildWorld;
  readonly #baseUrl: () => string;

  constructor(wire: Wire, now: () => number, builds: BuildWorld, baseUrl: () => string) {
    this.#wire = wire;
    this.#now = now;
    this.#builds = builds;
    this.#baseUrl = baseUrl;
  }

  /** The files of a build archived by now, in the order the pipeline's seed names them. */
  #nodes(b: Build): Node[] {
    const p = this.#builds.pipelines.get(`${b.projectId}/${b.pipelineId}`);
    const end = this.#builds.state(b).endTime;
    const now = this.#now();
    const nodes: Node[] = [];
    for (const seed of p?.artifacts ?? []) {
      const archivedAt = seed.at === undefined ? end : b.startedAt + seed.at;
      if (archivedAt === null || archivedAt > now) continue;
      // A stopped build archives nothing after the stop.
      if (b.canceledAt !== undefined && archivedAt > b.canceledAt) continue;
      const relative = seed.path.replace(/^\/+/, '');
      const fullPath = seed.type === 'PIPELINE' ? `/${b.pipelineId}/${b.id}/${relative}` : `/${relative}`;
      nodes.push({ repo: REPO[seed.type] ?? 'custom', fullPath, build: b, seed, archivedAt });
    }
    return nodes;
  }

  /** FileInfo as buildGenericFileInfo fills it: no downloadUrl, shortUrl or md5; modifiedTime in seconds. */
  #fileInfo(n: Node): Record<string, unknown> {
    const p = this.#builds.pipelines.get(`${n.build.projectId}/${n.build.pipelineId}`);
    // getFullName: the pipeline repository's ids shown as the pipeline's name and the build's number.
    const fullName =
      n.repo === 'pipeline' ? n.fullPath.replace(`/${n.build.pipelineId}/${n.build.id}`, `/${p?.name ?? ''}/${n.build.num}`) : n.fullPath;
    return {
      name: n.fullPath.split('/').at(-1) ?? '',
      fullName,
      path: n.fullPath,
      fullPath: n.fullPath,
      size: n.seed.size,
      folder: false,
      // LocalDateTime.timestamp() is epochSecond, not milliseconds.
      modifiedTime: Math.floor(n.archivedAt / 1000),
      artifactoryType: n.seed.type,
      properties: [
        { key: 'pipelineId', value: n.build.pipelineId },
        { key: 'buildId', value: n.build.id },
        ...Object.entries(n.seed.properties).map(([key, value]) => ({ key, value })),
      ],
    };
  }

  /** GET v4/projects/{p}/artifactories/file_info?buildId&pipelineId&page&pageSize: bk-repo's page. */
  fileInfo(projectId: string, q: URLSearchParams): Reply {
    const found = buildOf(this.#wire, this.#builds, projectId, q);
    if ('reply' in found) return found.reply;
    const b = found.build;
    const pageText = q.get('page');
    const sizeText = q.get('pageSize');
    if ((pageText && !NUMBER.test(pageText)) || (sizeText && !NUMBER.test(sizeText))) return this.#wire.error(400, 400, '查询参数类型错误');
    // The openapi sends page ?: 1 and pageSize ?: 20 (not "everything", whatever its doc says).
    const page = pageText ? Math.max(1, Number(pageText)) : 1;
    const pageSize = sizeText ? Math.max(1, Number(sizeText)) : 20;
    const records = this.#nodes(b)
      .slice((page - 1) * pageSize, page * pageSize)
      .map((n) => this.#fileInfo(n));
    // searchFileList: Page(count = nodeList.size, totalPages = 1) whatever there is beyond this page.
    return this.#wire.ok({ count: records.length, page, pageSize, totalPages: 1, records });
  }

  /** GET v4/projects/{p}/artifactories/user_download_url?artifactoryType&path: {url, url2}, the first match. */
  userDownloadUrl(projectId: string, q: URLSearchParams): Reply {
    const type = q.get('artifactoryType');
    if (type === null) return this.#wire.error(400, 400, '参数校验失败:request param artifactoryType cannot be empty');
    if (!ARTIFACTORY_TYPES.has(type)) return this.#wire.error(400, 400, '查询参数类型错误');
    const path = q.get('path');
    if (path === null) return this.#wire.error(400, 400, '参数校验失败:request param path cannot be empty');
    const invalid = () => this.#wire.domain(path.includes('..') ? 400 : 404, 2100004, `参数值[${path}]为非法数据`);
    if (path.includes('..')) return invalid();
    // parsePathNamePair: a path ending in / is every file directly in that folder.
    const abs = `/${path.replace(/^\/+/, '')}`;
    const folder = abs.endsWith('/') ? abs : abs.slice(0, abs.lastIndexOf('/') + 1);
    const name = abs.endsWith('/') ? '*' : abs.slice(abs.lastIndexOf('/') + 1);
    const repo = REPO[type] ?? 'common';
    const match = [...this.#builds.builds.values()]
      .filter((b) => b.projectId === projectId)
      .flatMap((b) => this.#nodes(b))
      .find((n) => {
        if (n.repo !== repo) return false;
        const at = n.fullPath.lastIndexOf('/') + 1;
        return n.fullPath.slice(0, at) === folder && (name === '*' || n.fullPath.slice(at) === name);
      });
    if (match === undefined) return invalid();
    // generateFileDownloadUrl: the whole "/{project}/{repo}/{fullPath}" one encoded segment; fullPath's
    // own leading slash makes a double one.
    const url = `${this.#baseUrl()}/bkrepo/api/user/generic/${javaUrlEncode(`/${projectId}/${repo}/${match.fullPath}`)}`;
    return this.#wire.ok({ url, url2: url });
  }
}
