// The wait on one build, as the loop (src/pipeline/watch.ts) and each poll's reads
// (src/pipeline/build-read.ts) share it: what the step asked of the wait, what the reading has
// learnt so far (one record each poll updates), and what reads along.
import type { BuildDetail, BuildStatus } from '../bkci/builds.ts';
import type { DownloadAsk } from '../download/build-files.ts';
import type { Progress } from '../wait/poll.ts';
import type { Build, BuildContext, BuildView } from './build.ts';
import type { BuildReport, ReportOptions } from './build-report.ts';
import type { NewRunGate } from './rerun-gate.ts';
import type { PendingReview } from './review-state.ts';
import type { SideReads } from './side-reads.ts';

/** How a build is followed: waited for or read once, stopped on a cancel or not, what is shown of it, whom to tell. */
export interface WatchOptions {
  wait: boolean;
  /** The console's root, for the build's page once its model names the pipeline; undefined: no link. */
  consoleUrl: string | undefined;
  /** Stop it when the job is cancelled: only a build this step started. */
  stopOnCancel: boolean;
  onReview: 'wait' | 'fail';
  /** What to show of it besides its status: its log, variables, artifacts. */
  report?: ReportOptions | undefined;
  /** The files to bring into the runner once it has ended (src/pipeline/build-download.ts). */
  download?: DownloadAsk | undefined;
  /** The run a retry just asked for: no end counts before it shows (src/pipeline/rerun-gate.ts). */
  newRun?: number | undefined;
  /**
   * Told what the wait sees: after each poll that got a status, and once at the end with the
   * conclusion (a GitHub check run follows the build through it). Its failures are its own.
   */
  onView?: ((view: BuildView) => void) | undefined;
}

/** What the reading has learnt of the build so far: the one record each poll updates. */
export interface WaitState {
  /** The build as the step knows it: its number and run as the polls learn them. */
  build: Build;
  /** The build's latest model, and when it was read (undefined: never). */
  detail: BuildDetail | undefined;
  detailAt: number | undefined;
  /** A side read of the model failed and was warned about (once). */
  detailWarned: boolean;
  /** When a read of the model beside the wait last failed: it is not tried again while the build runs before DETAIL_EVERY_MS. */
  detailFailedAt: number | undefined;
  /** Since when the model has been needed to decide a STAGE_SUCCESS end (DECIDING_MODEL_MS bounds it). */
  decidingSince: number | undefined;
  /** The review the build waits for now, and every pause seen, once each. */
  pending: PendingReview | undefined;
  pauses: PendingReview[];
  /** The status of the last poll: a build seen running that is queued again was retried. */
  previous: string | undefined;
  /** The HTTP status of bk-ci's last answer. */
  http: number | undefined;
  /** When the last poll's reads were over. */
  readAt: number;
  /** Statuses this action does not know, each warned about once. */
  warned: Set<string>;
}

/** The wait on one build: what it was asked, the step, what was read, and what reads along. */
export interface BuildWait {
  options: WatchOptions;
  ctx: BuildContext;
  state: WaitState;
  /** How the reads beside the status polls reach bk-ci, each within its own budget. */
  reads: SideReads;
  progress: Progress<BuildStatus>;
  report: BuildReport;
  gate: NewRunGate;
}

export const newState = (build: Build, start: number): WaitState => ({
  build: { ...build },
  detail: undefined,
  detailAt: undefined,
  detailWarned: false,
  detailFailedAt: undefined,
  decidingSince: undefined,
  pending: undefined,
  pauses: [],
  previous: undefined,
  http: undefined,
  readAt: start,
  warned: new Set(),
});
