// The build's files, each with a link: file_info read page after page through the one paging
// loop (bk-repo answers totalPages: 1 whatever the count: until a short page, and never on past a
// page that brought no new file; each file once, by its path; the files seen kept, with a
// warning, when a later page goes wrong), then user_download_url for each file. The links open
// in a browser logged in to bk-ci; they are not downloads. Facts: docs/bkci/artifacts-and-variables.md.

import type { Clock } from '../base/clock.ts';
import { errorMessage } from '../base/errors.ts';
import type { Log } from '../base/log.ts';
import { checkedUrl } from '../base/url.ts';
import { FILE_INFO, fileInfoPage, USER_DOWNLOAD_URL, downloadUrl as urlSchema } from '../bkci/artifacts.ts';
import type { BuildRef } from '../bkci/builds.ts';
import { PAGE_PACE_MS, readPages } from '../wait/pages.ts';
import type { Calls } from './side-reads.ts';

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
/** Files listed at most. */
const MAX_FILES = 10_000;
/** Links asked for at once. */
const PARALLEL = 4;

/** Every file of the build with its link. A link that cannot be had is "", with one warning. */
export async function listArtifacts(api: Calls, log: Log, b: BuildRef, o: { clock: Clock; signal: AbortSignal }): Promise<Artifact[]> {
  const listed = await readPages({
    read: async (page) => {
      const reply = await api.call({
        endpoint: FILE_INFO,
        params: { projectId: b.projectId },
        query: { buildId: b.id, pipelineId: b.pipelineId, page: String(page), pageSize: String(PAGE_SIZE) },
        data: fileInfoPage,
      });
      return { items: reply.data?.records ?? [] };
    },
    key: (f) => `${f.artifactoryType ?? ''}:${f.fullPath}`,
    pageSize: PAGE_SIZE,
    maxItems: MAX_FILES,
    paceMs: PAGE_PACE_MS,
    clock: o.clock,
    signal: o.signal,
    what: "the build's artifacts",
  });
  // What the pages brought is kept when a later one goes wrong: the files seen, and a warning.
  if (listed.incomplete !== undefined) log.warning(listed.incomplete.said);
  const files = listed.items.filter((f) => f.folder !== true);
  const out: Artifact[] = files.map((f) => ({
    name: f.name,
    path: f.fullPath,
    size: f.size ?? null,
    type: f.artifactoryType ?? '',
    url: '',
  }));
  let failed: string | undefined;
  let refused: string | undefined;
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < out.length && !o.signal.aborted; i = next++) {
      const a = out[i];
      if (a === undefined || a.type === '') continue;
      try {
        const reply = await api.call({
          endpoint: USER_DOWNLOAD_URL,
          params: { projectId: b.projectId },
          query: { artifactoryType: a.type, path: a.path },
          data: urlSchema,
        });
        const url = reply.data?.url ?? reply.data?.url2 ?? '';
        // Only a URL that passes the one check is carried: bk-ci's text is never made a link as it is.
        if (url !== '') a.url = checkedUrl(url, `the link of ${a.path}`, (m) => (refused ??= m)) ?? '';
      } catch (e) {
        failed ??= `${a.path}: ${errorMessage(e)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  if (refused !== undefined)
    log.warning(`some artifact links bk-ci gave are not absolute http(s) URLs; their url is empty (the first: ${refused})`);
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
