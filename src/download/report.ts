// What a download shows: the `downloaded` and `download-path` outputs, the summary's tables (each
// file with its size, how it was verified and its time; what was left out or refused, and why),
// and the words the step fails with when a file could not be had. docs/download.md.
import { formatElapsed } from '../base/duration.ts';
import type { Block, Cell } from '../base/outcome.ts';
import { formatSize } from '../base/size.ts';
import { TICKET_REFUSED } from '../bkci/token-problems.ts';
import type { FileError } from './answer.ts';
import type { LeftOut, Plan, PlannedFile } from './plan.ts';
import type { TransferResult } from './transfer.ts';

/** One entry of the `downloaded` output. */
interface DownloadEntry {
  name: string;
  /** bk-ci's path. */
  path: string;
  /** The absolute local path. */
  file: string;
  size: number;
  sha256: string;
  verified: 'sha256' | 'size';
}

/** What the transfers came to. */
export interface TransferTally {
  written: { planned: PlannedFile; entry: DownloadEntry; transfer: TransferResult }[];
  failed: LeftOut[];
  /** Refused by bk-ci for who asked (401, 403): said once, by `stopped`. */
  denied: LeftOut[];
  /** Why the rest was not tried (bk-ci refused who asked), and the files not tried. */
  stopped: string | undefined;
  untried: string[];
  cancelled: boolean;
  /** The job was cancelled before any file was asked for (during the listing, or a read before it). */
  cancelledBefore?: boolean;
  /** A failure before any file (the folder could not be made). */
  problem: string | undefined;
}

/** What the build operations and download-artifacts take of a download. */
export interface DownloadResult {
  outputs: { downloaded: string; 'download-path': string };
  /** The files written, each as the `downloaded` output lists it (which is bounded; this is not). */
  entries: DownloadEntry[];
  /** Files written. */
  count: number;
  blocks: Block[];
  /** Why the step fails after it: undefined when every chosen file was written. */
  problem: string | undefined;
  cancelled: boolean;
}

/** The files the build has, named in a failure: the first 20. */
const NAMED = 20;

/** The sentence of a download without bk-token that bk-ci refused. */
const NEEDS_TICKET =
  'bk-ci serves artifact files only to a logged-in BlueKing session; set bk-token (the bk_token login cookie) to download. access-token and app-code/app-secret can list artifacts and return links, not files';

/** What a 401 or 403 means, from who refused and what was sent to it. */
export function refusalWords(error: FileError, token: boolean): string {
  const status = error.status ?? 401;
  if (error.hop !== undefined && !error.hop.cookie && token)
    return `${error.hop.origin} refused the download (HTTP ${status}) of a request sent without the login ticket: bk-token goes only to the origins of base-url, console-url and download-hosts. If ${error.hop.origin} is bk-ci's own gateway (bk-ci builds its links from its configured host), add it to download-hosts`;
  if (!token) return `${NEEDS_TICKET} (HTTP ${status})`;
  if (status === 401) return `bk-ci refused bk-token for the download (HTTP 401): ${TICKET_REFUSED}`;
  return "bk-ci refused the download (HTTP 403): the user of bk-token may not download this pipeline's files; ask a manager of the project for the pipeline's download permission";
}

/** The outputs, the summary's blocks, and the failure, if any. */
export function report(plan: Plan, done: TransferTally, root: string): DownloadResult {
  const entries = done.written.map((w) => w.entry);
  const blocks: Block[] = [];
  const bytes = entries.reduce((sum, e) => sum + e.size, 0);
  blocks.push({
    kind: 'facts',
    rows: [['Downloaded', `${entries.length} of ${plan.files.length + plan.refused.length} files, ${formatSize(bytes)}, to ${root}`]],
  });
  if (done.written.length > 0)
    blocks.push({
      kind: 'table',
      title: `Downloaded files (${done.written.length})`,
      headers: ['File', 'Size', 'Verified', 'Time'],
      rows: done.written.map(({ planned, entry, transfer }): Cell[] => [
        planned.local,
        formatSize(entry.size),
        entry.verified === 'sha256' ? 'SHA-256' : 'size only (no checksum sent)',
        `${formatElapsed(transfer.ms)}${transfer.resumes > 0 ? `, resumed ${transfer.resumes}×` : ''}${transfer.restarts > 0 ? `, started again ${transfer.restarts}×` : ''}`,
      ]),
    });
  const left: LeftOut[] = [
    ...plan.refused,
    ...done.denied,
    ...done.failed,
    ...done.untried.map((path) => ({ path, why: 'not tried: bk-ci refused an earlier file' })),
    ...plan.excluded,
    ...plan.folders.map((path) => ({ path, why: 'a folder: bk-ci lists it, its files are listed on their own' })),
  ];
  if (left.length > 0)
    blocks.push({
      kind: 'table',
      title: `Not downloaded (${left.length})`,
      headers: ['File', 'Why'],
      rows: left.map((l) => [l.path, l.why]),
    });
  if (plan.unchosen > 0)
    blocks.push({
      kind: 'note',
      text: `${countFiles(plan.unchosen).replace(/^\d+/, '$& more')} of the build matched no download pattern.`,
    });
  return {
    outputs: { downloaded: JSON.stringify(entries), 'download-path': root },
    entries,
    count: entries.length,
    blocks,
    problem: problemOf(plan, done),
    cancelled: done.cancelled,
  };
}

const some = (list: readonly LeftOut[]): string =>
  `${list
    .slice(0, 5)
    .map((l) => `${l.path} (${l.why})`)
    .join('; ')}${list.length > 5 ? `; and ${list.length - 5} more (in the job summary)` : ''}`;

/** Everything that failed, in one message: the step fails with it after the other files were written. */
function problemOf(plan: Plan, done: TransferTally): string | undefined {
  const parts: string[] = [];
  if (done.cancelled)
    parts.push(
      done.cancelledBefore === true
        ? 'the job was cancelled before the download began; no file was fetched'
        : 'the job was cancelled during the download; no partial file was kept',
    );
  if (done.problem !== undefined) parts.push(done.problem);
  if (done.stopped !== undefined) parts.push(done.stopped);
  if (plan.refused.length > 0)
    parts.push(`${countFiles(plan.refused.length)} refused, their paths would not stay inside download-path: ${some(plan.refused)}`);
  if (done.failed.length > 0) parts.push(`${countFiles(done.failed.length)} could not be downloaded: ${some(done.failed)}`);
  if (plan.empty.length > 0) parts.push(nothingMatched(plan));
  return parts.length === 0 ? undefined : parts.join('. ');
}

const countFiles = (n: number): string => `${n} ${n === 1 ? 'file' : 'files'}`;

function nothingMatched(plan: Plan): string {
  const patterns = plan.empty.map((p) => `"${p}"`).join(', ');
  const what = plan.empty.length === 1 ? `the download pattern ${patterns} matches` : `the download patterns ${patterns} match`;
  if (plan.all.length === 0)
    return `the build has no files to download: bk-ci lists none${plan.folders.length > 0 ? ', only folders' : ''}`;
  const named = plan.all.slice(0, NAMED).join(', ');
  return `${what} none of the build's ${countFiles(plan.all.length)}: ${named}${plan.all.length > NAMED ? `, … (the first ${NAMED})` : ''}`;
}
