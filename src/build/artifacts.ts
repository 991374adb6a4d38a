// The build's files, each with a link: file_info read page after page until a short one (bk-repo
// answers totalPages: 1 whatever the count), then user_download_url for each file. The links open
// in a browser logged in to bk-ci; they are not downloads. Facts: bkci-logs-artifacts-review.md §2.

import { errorMessage } from '../base/errors.ts';
import type { Log } from '../base/log.ts';
import { FILE_INFO, type FileInfo, fileInfoPage, USER_DOWNLOAD_URL, downloadUrl as urlSchema } from '../bkci/artifacts.ts';
import type { BkciApi } from '../bkci/client.ts';

/** One file of the build, as the `artifacts` output lists it. */
export interface Artifact {
  name: string;
  /** bk-ci's fullPath: the file's full path in its repository. */
  path: string;
  size: number | null;
  type: string;
  url: string;
}

const PAGE_SIZE = 100;
/** Pages read at most: 10,000 files. */
const MAX_PAGES = 100;
/** Links asked for at once. */
const PARALLEL = 4;

export interface ArtifactsOf {
  projectId: string;
  pipelineId?: string | undefined;
  id: string;
}

/** Every file of the build with its link. A link that cannot be had is "", with one warning. */
export async function listArtifacts(api: BkciApi, log: Log, b: ArtifactsOf): Promise<Artifact[]> {
  const files: FileInfo[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const reply = await api.call({
      endpoint: FILE_INFO,
      params: { projectId: b.projectId },
      query: { buildId: b.id, pipelineId: b.pipelineId, page: String(page), pageSize: String(PAGE_SIZE) },
      data: fileInfoPage,
    });
    const records = reply.data?.records ?? [];
    files.push(...records.filter((f) => f.folder !== true));
    if (records.length < PAGE_SIZE) break;
    if (page === MAX_PAGES)
      log.warning(`the build has more than ${MAX_PAGES * PAGE_SIZE} artifacts: only the first ${files.length} are listed`);
  }
  const out: Artifact[] = files.map((f) => ({
    name: f.name,
    path: f.fullPath,
    size: f.size ?? null,
    type: f.artifactoryType ?? '',
    url: '',
  }));
  let failed: string | undefined;
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < out.length; i = next++) {
      const a = out[i];
      if (a === undefined || a.type === '') continue;
      try {
        const reply = await api.call({
          endpoint: USER_DOWNLOAD_URL,
          params: { projectId: b.projectId },
          query: { artifactoryType: a.type, path: a.path },
          data: urlSchema,
        });
        a.url = reply.data?.url ?? reply.data?.url2 ?? '';
      } catch (e) {
        failed ??= `${a.path}: ${errorMessage(e)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  if (failed !== undefined) log.warning(`the link of some artifacts could not be read; their url is empty (the first: ${failed})`);
  return out;
}

/** A file's size as a reader takes it in: bytes under 1 KiB, then KiB, MiB, GiB with one decimal where it matters. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = value >= 100 ? Math.round(value).toString() : (Math.round(value * 10) / 10).toString();
  return `${shown} ${units[unit]}`;
}
