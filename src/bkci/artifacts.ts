// bk-ci's artifacts of a build (v4 artifactories): the files and a link to each. Facts and
// traps: docs/bkci/artifacts-and-variables.md (bk-repo's paging says totalPages: 1 whatever the count).
import { z } from '../base/schema.ts';
import { onBoth } from './routes.ts';

export const FILE_INFO = onBoth('GET', 'v4/projects/{projectId}/artifactories/file_info');
export const USER_DOWNLOAD_URL = onBoth('GET', 'v4/projects/{projectId}/artifactories/user_download_url');

/** FileInfo: what the action reads of it. */
export const fileInfo = z.looseObject({
  name: z.string(),
  fullPath: z.string(),
  size: z.number().nullish(),
  folder: z.boolean().nullish(),
  artifactoryType: z.string().nullish(),
});
export type FileInfo = z.infer<typeof fileInfo>;

/** Page<FileInfo>: its counts are not trusted (bk-repo), only how many records came. */
export const fileInfoPage = z.looseObject({ records: z.array(fileInfo).nullish() });

/** Url{url, url2}. */
export const downloadUrl = z.looseObject({ url: z.string().nullish(), url2: z.string().nullish() });
