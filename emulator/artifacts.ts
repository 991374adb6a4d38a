// A build's artifacts as bk-ci lists them: with bk-repo behind it (realm `bkrepo`;
// docs/bkci/artifacts-and-variables.md; bk-ci BkRepoArchiveFileServiceImpl), file_info pages whose
// `count` is the page's length and `totalPages` always 1, and user_download_url's session links to
// `/bkrepo/api/user/generic/…`; or on bk-ci's own disk (realm `local`, DiskArchiveFileServiceImpl),
// `bk-archive/…` paths and links to `/ms/artifactory/api/user/artifactories/file/download/local`.
// The files' bytes are served by emulator/files.ts.

import type { Build } from './build-records.ts';
import { buildOf } from './build-ref.ts';
import type { BuildWorld } from './builds.ts';
import { FileBytes } from './file-bytes.ts';
import type { ArtifactSeed } from './pipeline-seed.ts';
import type { Reply, Wire } from './wire.ts';

const ARTIFACTORY_TYPES = new Set(['PIPELINE', 'CUSTOM_DIR', 'IMAGE', 'REPORT', 'CREATIVE']);
const REPO: Record<string, string> = { PIPELINE: 'pipeline', CUSTOM_DIR: 'custom' };
const NUMBER = /^-?\d+$/;

/** Where bk-ci keeps the build's files: `bkrepo` (BlueKing's artifact repository) or `local` (its own disk, the installers' default). */
export type Realm = 'bkrepo' | 'local';

/** The path the local realm's download takes its file by. */
export const LOCAL_DOWNLOAD_PATH = '/ms/artifactory/api/user/artifactories/file/download/local';

/** A file in bk-repo (or on bk-ci's disk): which repository, where. */
export interface Node {
  repo: string;
  fullPath: string;
  build: Build;
  seed: ArtifactSeed;
  /** Epoch ms it was archived. */
  archivedAt: number;
}

/** java.net.URLEncoder.encode(s, "UTF-8"): like encodeURIComponent, but `+` for a space and `!'()~` encoded. */
function javaUrlEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replaceAll('%20', '+');
}

export class ArtifactWorld {
  readonly #wire: Wire;
  readonly #now: () => number;
  readonly #builds: BuildWorld;
  readonly #baseUrl: () => string;
  /** Where the installation keeps the files; `POST /__emulator/files` changes it. */
  realm: Realm = 'bkrepo';
  readonly #bytes = new Map<string, FileBytes>();

  constructor(wire: Wire, now: () => number, builds: BuildWorld, baseUrl: () => string) {
    this.#wire = wire;
    this.#now = now;
    this.#builds = builds;
    this.#baseUrl = baseUrl;
  }

  /** The file's bytes, made once. */
  bytesOf(node: Node): FileBytes {
    const key = `${node.build.projectId}/${node.repo}${node.fullPath.startsWith('/') ? '' : '/'}${node.fullPath}`;
    let bytes = this.#bytes.get(key);
    if (bytes === undefined) {
      bytes = new FileBytes(key, node.seed.size, node.seed.content);
      this.#bytes.set(key, bytes);
    }
    return bytes;
  }

  /** The file archived now at `fullPath` of the project's repository, if any. */
  find(projectId: string, repo: string, fullPath: string): Node | undefined {
    const wanted = fullPath.replace(/^\/+/, '');
    return [...this.#builds.builds.values()]
      .filter((b) => b.projectId === projectId)
      .flatMap((b) => this.#nodes(b))
      .find((n) => n.repo === repo && n.fullPath.replace(/^\/+/, '') === wanted);
  }

  /** The local realm's file at `filePath` (`/bk-archive/{project}/…` or `/bk-custom/{project}/…`). */
  findLocal(filePath: string): Node | undefined {
    const match = /^\/*bk-(archive|custom)\/([^/]+)\//.exec(filePath);
    if (match === null) return undefined;
    return this.find(match[2] ?? '', match[1] === 'archive' ? 'pipeline' : 'custom', filePath);
  }

  /** The files of a build archived by now, in the order the pipeline's seed names them. */
  #nodes(build: Build): Node[] {
    const pipeline = this.#builds.pipelines.get(`${build.projectId}/${build.pipelineId}`);
    const end = this.#builds.state(build).endTime;
    const now = this.#now();
    const nodes: Node[] = [];
    for (const seed of pipeline?.artifacts ?? []) {
      const archivedAt = seed.at === undefined ? end : build.startedAt + seed.at;
      if (archivedAt === null || archivedAt > now) continue;
      // A stopped build archives nothing after the stop.
      if (build.canceledAt !== undefined && archivedAt > build.canceledAt) continue;
      const relative = seed.path.replace(/^\/+/, '');
      const fullPath =
        this.realm === 'local'
          ? seed.type === 'PIPELINE'
            ? `bk-archive/${build.projectId}/${build.pipelineId}/${build.id}/${relative}`
            : `bk-custom/${build.projectId}/${relative}`
          : seed.type === 'PIPELINE'
            ? `/${build.pipelineId}/${build.id}/${relative}`
            : `/${relative}`;
      nodes.push({ repo: REPO[seed.type] ?? 'custom', fullPath, build, seed, archivedAt });
    }
    return nodes;
  }

  /** FileInfo as buildGenericFileInfo fills it: no downloadUrl, shortUrl or md5; modifiedTime in seconds. */
  #fileInfo(node: Node): Record<string, unknown> {
    const name = node.fullPath.split('/').at(-1) ?? '';
    if (this.realm === 'local')
      // DiskArchiveFileServiceImpl.searchFileList: the path on bk-ci's disk, below its archive folder; time in ms.
      return {
        name,
        fullName: name,
        path: node.fullPath,
        fullPath: node.fullPath,
        size: this.bytesOf(node).size,
        folder: false,
        modifiedTime: node.archivedAt,
        artifactoryType: node.seed.type,
      };
    const pipeline = this.#builds.pipelines.get(`${node.build.projectId}/${node.build.pipelineId}`);
    // getFullName: the pipeline repository's ids shown as the pipeline's name and the build's number.
    const fullName =
      node.repo === 'pipeline'
        ? node.fullPath.replace(`/${node.build.pipelineId}/${node.build.id}`, `/${pipeline?.name ?? ''}/${node.build.num}`)
        : node.fullPath;
    return {
      name,
      fullName,
      path: node.fullPath,
      fullPath: node.fullPath,
      size: this.bytesOf(node).size,
      folder: false,
      // LocalDateTime.timestamp() is epochSecond, not milliseconds.
      modifiedTime: Math.floor(node.archivedAt / 1000),
      artifactoryType: node.seed.type,
      properties: [
        { key: 'pipelineId', value: node.build.pipelineId },
        { key: 'buildId', value: node.build.id },
        ...Object.entries(node.seed.properties).map(([key, value]) => ({ key, value })),
      ],
    };
  }

  /** GET v4/projects/{p}/artifactories/file_info?buildId&pipelineId&page&pageSize: bk-repo's page. */
  fileInfo(projectId: string, query: URLSearchParams): Reply {
    const found = buildOf(this.#wire, this.#builds, projectId, query);
    if ('reply' in found) return found.reply;
    const build = found.build;
    const pageText = query.get('page');
    const sizeText = query.get('pageSize');
    if ((pageText && !NUMBER.test(pageText)) || (sizeText && !NUMBER.test(sizeText))) return this.#wire.error(400, 400, '查询参数类型错误');
    // The openapi sends page ?: 1 and pageSize ?: 20 (not "everything", whatever its doc says).
    const page = pageText ? Math.max(1, Number(pageText)) : 1;
    const pageSize = sizeText ? Math.max(1, Number(sizeText)) : 20;
    const nodes = this.#nodes(build);
    const records = nodes.slice((page - 1) * pageSize, page * pageSize).map((n) => this.#fileInfo(n));
    // The local realm counts what it has (PageUtil.calTotalPage).
    if (this.realm === 'local')
      return this.#wire.ok({ count: nodes.length, page, pageSize, totalPages: Math.ceil(nodes.length / pageSize), records });
    // searchFileList: Page(count = nodeList.size, totalPages = 1) whatever there is beyond this page.
    return this.#wire.ok({ count: records.length, page, pageSize, totalPages: 1, records });
  }

  /** GET v4/projects/{p}/artifactories/user_download_url?artifactoryType&path: {url, url2}, the first match. */
  userDownloadUrl(projectId: string, query: URLSearchParams): Reply {
    const type = query.get('artifactoryType');
    if (type === null) return this.#wire.error(400, 400, '参数校验失败:request param artifactoryType cannot be empty');
    if (!ARTIFACTORY_TYPES.has(type)) return this.#wire.error(400, 400, '查询参数类型错误');
    const path = query.get('path');
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
      .find((node) => {
        if (node.repo !== repo) return false;
        const full = `/${node.fullPath.replace(/^\/+/, '')}`;
        const at = full.lastIndexOf('/') + 1;
        return full.slice(0, at) === folder && (name === '*' || full.slice(at) === name);
      });
    if (match === undefined) return invalid();
    // generateFileDownloadUrl: the whole "/{project}/{repo}/{fullPath}" one encoded segment; fullPath's
    // own leading slash makes a double one.
    const url =
      this.realm === 'local'
        ? `${this.#baseUrl()}${LOCAL_DOWNLOAD_PATH}?filePath=${javaUrlEncode(`/${match.fullPath}`)}`
        : `${this.#baseUrl()}/bkrepo/api/user/generic/${javaUrlEncode(`/${projectId}/${repo}/${match.fullPath}`)}`;
    return this.#wire.ok({ url, url2: url });
  }
}
