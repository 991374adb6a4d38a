// bk-ci's artifacts of a build (v4 artifactories): the files and a link to each. Facts and
// traps: docs/bkci/artifacts-and-variables.md (bk-repo's paging says totalPages: 1 whatever the count).
import type { Clock } from '../base/clock.ts';
import { z } from '../base/schema.ts';
import { PAGE_PACE_MS, type PagedList, readPages } from '../wait/pages.ts';
import { atBuild, type BuildRef, type Calls } from './builds.ts';
import { onBoth } from './routes.ts';

export const FILE_INFO = onBoth('GET', 'v4/projects/{projectId}/artifactories/file_info');
export const USER_DOWNLOAD_URL = onBoth('GET', 'v4/projects/{projectId}/artifactories/user_download_url');

/** FileInfo: what the action reads of it. */
const fileInfo = z.looseObject({
  name: z.string(),
  fullPath: z.string(),
  size: z.number().nullish(),
  folder: z.boolean().nullish(),
  artifactoryType: z.string().nullish(),
});
export type FileInfo = z.infer<typeof fileInfo>;

/** Page<FileInfo>: its counts are not trusted (bk-repo), only how many records came. */
const fileInfoPage = z.looseObject({ records: z.array(fileInfo).nullish() });

/** Url{url, url2}. */
const downloadUrl = z.looseObject({ url: z.string().nullish(), url2: z.string().nullish() });

const PAGE_SIZE = 100;
/** Files listed at most. */
const MAX_FILES = 10_000;

/**
 * Every record file_info has for the build, folders included, read page after page through the
 * one paging loop: until a short page (A1), never on past a page that brought nothing new; each
 * file once, by its path; the files seen kept, and said to be maybe incomplete, when a later page
 * goes wrong.
 */
export function listBuildFiles(api: Calls, build: BuildRef, options: { clock: Clock; signal: AbortSignal }): Promise<PagedList<FileInfo>> {
  return readPages({
    read: async (page) => {
      const reply = await api.call({
        endpoint: FILE_INFO,
        ...atBuild(build, { page: String(page), pageSize: String(PAGE_SIZE) }),
        data: fileInfoPage,
      });
      return { items: reply.data?.records ?? [] };
    },
    key: (f) => `${f.artifactoryType ?? ''}:${f.fullPath}`,
    pageSize: PAGE_SIZE,
    maxItems: MAX_FILES,
    paceMs: PAGE_PACE_MS,
    clock: options.clock,
    signal: options.signal,
    what: "the build's artifacts",
  });
}

/** The link bk-ci gives one file (A3: one call per file, its type and full path), or "" when it gives none. */
export async function fileLink(api: Calls, projectId: string, file: { type: string; path: string }): Promise<string> {
  const reply = await api.call({
    endpoint: USER_DOWNLOAD_URL,
    params: { projectId },
    query: { artifactoryType: file.type, path: file.path },
    data: downloadUrl,
  });
  return reply.data?.url ?? reply.data?.url2 ?? '';
}
