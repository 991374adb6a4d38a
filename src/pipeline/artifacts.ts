// The build's files, each with a link, as the artifacts output lists them: file_info read page
// after page, then user_download_url for each file (src/bkci/artifacts.ts). The links open in a
// browser logged in to bk-ci; bringing the files into the runner is src/download/'s. When a later
// page goes wrong, the files seen are kept, with a warning. Facts: docs/bkci/artifacts-and-variables.md.

import type { Clock } from '../base/clock.ts';
import { errorMessage } from '../base/errors.ts';
import type { Log } from '../base/log.ts';
import type { Block } from '../base/outcome.ts';
import { formatSize } from '../base/size.ts';
import { checkedUrl } from '../base/url.ts';
import { fileLink, listBuildFiles } from '../bkci/artifacts.ts';
import type { BuildRef, Calls } from '../bkci/builds.ts';

/** One file of the build, as the `artifacts` output lists it. */
export interface Artifact {
  name: string;
  /** bk-ci's fullPath: the file's full path in its repository. */
  path: string;
  size: number | null;
  type: string;
  url: string;
}

/** Links asked for at once. */
const PARALLEL = 4;

/** Every file of the build with its link. A link that cannot be had is "", with one warning. */
export async function listArtifacts(
  api: Calls,
  log: Log,
  build: BuildRef,
  options: { clock: Clock; signal: AbortSignal },
): Promise<Artifact[]> {
  const listed = await listBuildFiles(api, build, options);
  // What the pages brought is kept when a later one goes wrong: the files seen, and a warning.
  if (listed.incomplete !== undefined) log.warning(listed.incomplete.said);
  const files = listed.items.filter((f) => f.folder !== true);
  const out: Artifact[] = files.map((file) => ({
    name: file.name,
    path: file.fullPath,
    size: file.size ?? null,
    type: file.artifactoryType ?? '',
    url: '',
  }));
  let failed: string | undefined;
  let refused: string | undefined;
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < out.length && !options.signal.aborted; index = next++) {
      const artifact = out[index];
      if (artifact === undefined || artifact.type === '') continue;
      try {
        const url = await fileLink(api, build.projectId, { type: artifact.type, path: artifact.path });
        // Only a URL that passes the one check is carried: bk-ci's text is never made a link as it is.
        if (url !== '') artifact.url = checkedUrl(url, `the link of ${artifact.path}`, (m) => (refused ??= m)) ?? '';
      } catch (e) {
        failed ??= `${artifact.path}: ${errorMessage(e)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  if (refused !== undefined)
    log.warning(`some artifact links bk-ci gave are not absolute http(s) URLs; their url is empty (the first: ${refused})`);
  if (failed !== undefined) log.warning(`the link of some artifacts could not be read; their url is empty (the first: ${failed})`);
  return out;
}

/** The summary's table of the build's files, with their links. */
export function artifactBlocks(files: readonly Artifact[]): Block[] {
  if (files.length === 0) return [{ kind: 'note', text: 'The build has no artifacts.' }];
  return [
    {
      kind: 'table',
      title: `Artifacts (${files.length})`,
      headers: ['File', 'Size', 'Link'],
      rows: files.slice(0, 200).map((f) => [f.path, f.size === null ? '' : formatSize(f.size), f.url === '' ? '' : { url: f.url }]),
    },
  ];
}
