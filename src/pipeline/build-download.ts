// The one place a build operation brings the build's files into the runner: once the build has
// ended, whatever its conclusion, when `download` asks for files. The download's code
// (src/download/) loads only then. docs/download.md.
import { isAbsolute, resolve } from 'node:path';
import type { BuildRef } from '../bkci/builds.ts';
import type { DownloadAsk, DownloadContext } from '../download/build-files.ts';
import { cookieOrigins } from '../download/credential.ts';
import type { DownloadResult } from '../download/report.ts';
import type { DownloadTask } from '../inputs/download.ts';
import type { Settings } from '../inputs/settings.ts';

/** What the step asks of the download, from its inputs and settings: every file when it names no pattern. */
export function downloadAsk(
  task: DownloadTask,
  ctx: { settings: Settings; start: number; env?: NodeJS.ProcessEnv | undefined },
  consoleUrl: string | undefined,
): DownloadAsk {
  const settings = ctx.settings;
  const path = task['download-path'];
  return {
    patterns: task.download ?? [],
    root: isAbsolute(path) ? resolve(path) : resolve(ctx.env?.GITHUB_WORKSPACE || process.cwd(), path),
    origins: cookieOrigins([settings.baseUrl, consoleUrl, ...(task['download-hosts'] ?? [])]),
    token: settings.bkToken,
    silenceMs: settings.requestTimeoutMs,
    retries: settings.retries,
    deadline: ctx.start + settings.timeoutMs,
  };
}

/** The build operations' ask: undefined when `download` names no pattern (nothing is downloaded). */
export const filesAsked = (
  task: DownloadTask,
  ctx: Parameters<typeof downloadAsk>[1],
  consoleUrl: string | undefined,
): DownloadAsk | undefined => (task.download === undefined || task.download.length === 0 ? undefined : downloadAsk(task, ctx, consoleUrl));

/** The build's files, once it has ended; a build that goes on has none downloaded, and says so. */
export async function downloadOnEnd(
  ask: DownloadAsk | undefined,
  ended: boolean,
  build: BuildRef,
  ctx: DownloadContext,
): Promise<DownloadResult | undefined> {
  if (ask === undefined) return undefined;
  if (!ended)
    return {
      outputs: { downloaded: '[]', 'download-path': ask.root },
      entries: [],
      count: 0,
      blocks: [{ kind: 'note', text: "The build's files were not downloaded: it has not ended." }],
      problem: "the build's files were not downloaded: the build has not ended (wait: true waits for its end)",
      cancelled: false,
    };
  const { downloadBuildFiles } = await import('../download/build-files.ts');
  return downloadBuildFiles(ask, build, ctx);
}

/** The step's failure with the download's: the build's own verdict first, whatever it is. */
export function withFilesProblem(error: string | undefined, files: DownloadResult | undefined, ended: boolean): string | undefined {
  const problem = files?.problem;
  if (problem === undefined || (error !== undefined && !ended)) return error;
  return error === undefined ? problem : `${error}. Its files: ${problem}`;
}
