// The build's files into the runner (`download`, `download-artifacts`): listed with file_info,
// chosen by the patterns with their local paths checked (plan.ts), each link from bk-ci, then up
// to 4 files at once (transfer.ts), with progress for a long one; what came and what did not,
// said (report.ts). Loaded only when a step asks for files. docs/download.md.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../base/clock.ts';
import { formatDuration } from '../base/duration.ts';
import { CancelledError, errorMessage } from '../base/errors.ts';
import type { Log } from '../base/log.ts';
import { formatSize } from '../base/size.ts';
import { type FileInfo, fileLink, listBuildFiles } from '../bkci/artifacts.ts';
import type { BuildRef } from '../bkci/builds.ts';
import type { BkciApi } from '../bkci/client.ts';
import { DEFAULT_RETRY_POLICY } from '../http/retry.ts';
import { streamClient } from '../http/stream-get.ts';
import { FileError } from './answer.ts';
import { compile } from './glob.ts';
import { byteCollector } from './memory.ts';
import { folderFor, PartFile, removeEmpty, TempFiles } from './part-file.ts';
import { type Plan, type PlannedFile, planDownload } from './plan.ts';
import { eachAtOnce } from './pool.ts';
import { Progress } from './progress.ts';
import { type DownloadResult, refusalWords, report, type TransferTally } from './report.ts';
import { type TransferSettings, transfer } from './transfer.ts';

/** What the step asks of the download: its inputs, and the settings a file's requests take. */
export interface DownloadAsk {
  /** As written; none: every file of the build. */
  patterns: readonly string[];
  /** download-path, absolute. */
  root: string;
  /** Origins that may receive the bk_token cookie: base-url's, console-url's, download-hosts. */
  origins: readonly string[];
  token: string | undefined;
  /** request-timeout: the longest silence. */
  silenceMs: number;
  retries: number;
  /** The step's deadline, by the clock. */
  deadline: number;
}

/** What the download needs of the step. */
export interface DownloadContext {
  api: Pick<BkciApi, 'call'>;
  clock: Clock;
  log: Log;
  /** Aborted when the job is cancelled. */
  signal: AbortSignal;
  /** The step's environment: a proxy is taken from it. */
  env?: NodeJS.ProcessEnv | undefined;
  random?: () => number;
}

/** Files at once. */
const PARALLEL = 4;
const USER_AGENT = 'bkci-action/0.1';

/** Lists, chooses and downloads the build's files; never throws for a file, says it (DownloadResult.problem). */
export async function downloadBuildFiles(ask: DownloadAsk, build: BuildRef, context: DownloadContext): Promise<DownloadResult> {
  let records: FileInfo[];
  try {
    const listed = await listBuildFiles(context.api, build, context);
    // The files seen are downloaded; those a page that went wrong held back are not known.
    if (listed.incomplete !== undefined) context.log.warning(`${listed.incomplete.said}: files it did not list are not downloaded`);
    records = listed.items;
  } catch (e) {
    const cancelled = e instanceof CancelledError;
    const done = nothingDone({
      cancelled,
      cancelledBefore: cancelled,
      problem: cancelled ? undefined : `the build's files could not be listed: ${errorMessage(e)}`,
    });
    return report(planDownload([], build, []), done, ask.root);
  }
  const plan = planDownload(records, build, ask.patterns.map(compile));
  say(plan, ask, build, context.log);
  return report(plan, await fetchAll(plan.files, ask, build, context), ask.root);
}

const nothingDone = (some: Partial<TransferTally>): TransferTally => ({
  written: [],
  failed: [],
  denied: [],
  stopped: undefined,
  untried: [],
  cancelled: false,
  problem: undefined,
  ...some,
});

function say(plan: Plan, ask: DownloadAsk, build: BuildRef, log: Log): void {
  if (plan.folders.length > 0)
    log.info(`bk-ci lists ${plan.folders.length} folders among the build's files, which are not downloaded: ${plan.folders.join(', ')}`);
  const bytes = plan.files.reduce((sum, f) => sum + (f.size ?? 0), 0);
  log.info(
    `downloading ${plan.files.length} of the ${plan.all.length} files of build ${build.id} (${formatSize(bytes)}) to ${ask.root}${ask.token === undefined ? ', without bk-token' : ''}`,
  );
}

/** Every chosen file, 4 at once (without bk-token the first alone: one bare try before the rest). */
async function fetchAll(
  files: readonly PlannedFile[],
  ask: DownloadAsk,
  build: BuildRef,
  context: DownloadContext,
): Promise<TransferTally> {
  if (context.signal.aborted) return nothingDone({ cancelled: true, cancelledBefore: true });
  const done = nothingDone({});
  try {
    await mkdir(ask.root, { recursive: true });
  } catch (e) {
    return nothingDone({ problem: `could not make download-path ${ask.root}: ${errorMessage(e)}` });
  }
  if (files.length === 0) return done;
  const client = await streamClient(context.env ?? {}, PARALLEL);
  const stop = new AbortController();
  const made = new Set<string>();
  const progress = new Progress(
    files.reduce((sum, f) => sum + (f.size ?? 0), 0),
    files.length,
    context.clock,
    context.log,
  );
  const settings = transferSettings(ask, context, { get: client.get, stop: stop.signal, progress });
  const one = async (file: PlannedFile): Promise<void> => {
    if (stop.signal.aborted || context.signal.aborted) {
      if (!context.signal.aborted) done.untried.push(file.path);
      return;
    }
    try {
      const entry = await fetchOne(file, ask, build, context, settings, made);
      done.written.push({ planned: file, ...entry });
      progress.fileDone();
    } catch (e) {
      failed(e, file, ask, done, context, stop);
    }
  };
  try {
    const [first, ...rest] = files;
    if (ask.token === undefined && first !== undefined) await one(first);
    await eachAtOnce(ask.token === undefined ? rest : files, PARALLEL, one);
  } finally {
    await client.close();
    await removeEmpty(made);
  }
  // Written in the plan's order, whichever finished first.
  done.written.sort((x, y) => files.indexOf(x.planned) - files.indexOf(y.planned));
  return done;
}

/** What each file's transfer takes: the ask's credentials and bounds, the step's clock and cancel, the shared progress. */
function transferSettings(
  ask: DownloadAsk,
  context: DownloadContext,
  shared: { get: TransferSettings['get']; stop: AbortSignal; progress: Progress },
): TransferSettings {
  const collect = byteCollector();
  return {
    get: shared.get,
    origins: ask.origins,
    token: ask.token,
    userAgent: USER_AGENT,
    clock: context.clock,
    random: context.random ?? Math.random,
    cancel: AbortSignal.any([context.signal, shared.stop]),
    deadline: ask.deadline,
    deadlineSignal: context.clock.timeout(Math.max(1, ask.deadline - context.clock.now())),
    silenceMs: ask.silenceMs,
    retry: { ...DEFAULT_RETRY_POLICY, retries: ask.retries },
    log: context.log,
    temps: new TempFiles(),
    onBytes: (bytes) => {
      shared.progress.add(bytes);
      collect(bytes);
    },
  };
}

/** One file: its link from bk-ci, its folder, its bytes. */
async function fetchOne(
  planned: PlannedFile,
  ask: DownloadAsk,
  build: BuildRef,
  context: DownloadContext,
  settings: TransferSettings,
  made: Set<string>,
) {
  const link = await fileLink(context.api, build.projectId, { type: planned.type, path: planned.path });
  if (link === '') throw new FileError('server', 'bk-ci gave no link for it (user_download_url answered no url)');
  const dir = await folderFor(ask.root, planned.local, made);
  const file = join(dir, planned.local.split('/').at(-1) ?? '');
  const part = await PartFile.open(dir, settings.temps);
  const transferred = await transfer({ link, path: planned.local, size: planned.size }, part, file, settings);
  context.log.info(
    `downloaded ${planned.local} (${formatSize(transferred.size)}, ${transferred.verified === 'sha256' ? 'SHA-256 verified' : 'size verified; no checksum was sent'}) in ${formatDuration(transferred.ms)}`,
  );
  return {
    entry: {
      name: planned.name,
      path: planned.path,
      file,
      size: transferred.size,
      sha256: transferred.sha256,
      verified: transferred.verified,
    },
    transfer: transferred,
  };
}

/** A file that failed: said, and when bk-ci refused who asked, the rest is not tried. */
function failed(
  error: unknown,
  file: PlannedFile,
  ask: DownloadAsk,
  done: TransferTally,
  context: DownloadContext,
  stop: AbortController,
): void {
  if (error instanceof CancelledError) {
    if (context.signal.aborted) done.cancelled = true;
    else done.untried.push(file.path);
    return;
  }
  if (error instanceof FileError && error.kind === 'login') {
    done.stopped ??= refusalWords(error, ask.token !== undefined);
    done.denied.push({ path: file.path, why: `refused by bk-ci (HTTP ${error.status ?? ''})` });
    stop.abort();
    return;
  }
  context.log.info(`${file.local} was not downloaded: ${errorMessage(error)}`);
  done.failed.push({ path: file.path, why: errorMessage(error) });
}
