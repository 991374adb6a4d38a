// A build, as the step knows it: one shape for who it is and what is known of it, whichever way
// an operation came to it (started, found again in the history, given by id, taken over by a
// re-run, retried) and carried to the step's outcome; what the wait sees of it at each poll; its
// page in bk-ci's console; and what following one needs of the step. Who it is to bk-ci's
// endpoints is its BuildRef (src/bkci/builds.ts), which it extends.
import type { Clock } from '../base/clock.ts';
import type { Log } from '../base/log.ts';
import type { BuildDetail, BuildRef, BuildStatus } from '../bkci/builds.ts';
import type { BkciApi } from '../bkci/client.ts';
import type { Gateway } from '../bkci/routes.ts';
import type { Secrets } from '../runner/secrets.ts';
import type { PendingReview } from './review-state.ts';
import type { Conclusion } from './status.ts';

/** A build: its project, its pipeline when known (build-status may be given none), its id; its number, run and page once known. */
export interface Build extends BuildRef {
  /** Its number: once known it stays (an answer with another is not followed). */
  num: number | undefined;
  /** Its run, bk-ci's executeCount: 1, and one more with each retry. */
  executeCount: number | undefined;
  /** Its page in bk-ci's console; '' when the console or the pipeline is not known. */
  url: string;
}

/** What is known of a build besides who it is. */
export type BuildKnown = Partial<Pick<Build, 'num' | 'executeCount' | 'url'>>;

/** The build `ref` names, with what else is known of it (by default nothing: no number, no run, no page). */
export const buildOf = (ref: BuildRef, known: BuildKnown = {}): Build => ({
  projectId: ref.projectId,
  pipelineId: ref.pipelineId,
  id: ref.id,
  num: known.num,
  executeCount: known.executeCount,
  url: known.url ?? '',
});

/** "build #3 (b-…)", the number when known. */
export const buildName = (b: Pick<Build, 'id' | 'num'>): string => `build ${b.num ? `#${b.num} ` : ''}(${b.id})`;

/** What the wait sees of the build at a poll, or at its end (`conclusion` set): what a check run follows. */
export interface BuildView extends Build {
  /** bk-ci's status; undefined when no poll was answered. */
  status: string | undefined;
  /** The stage under way or paused, by name, when bk-ci's status names one. */
  stage: string | undefined;
  /** The review the build waits for, when it waits for one. */
  pending: PendingReview | undefined;
  conclusion?: Conclusion;
  /** bk-ci's last status answer, whole; undefined when no poll was answered. */
  last: BuildStatus | undefined;
  /** The build's latest model, when one was read. */
  detail: BuildDetail | undefined;
}

/** What following a build needs of the step: the operations' Context has it all. */
export interface BuildContext {
  api: BkciApi;
  clock: Clock;
  log: Log;
  /** Aborted when the job is cancelled. */
  signal: AbortSignal;
  /** When the step started (by `clock`); the deadline is start + timeout. */
  start: number;
  settings: { timeoutMs: number; pollIntervalMs: number };
  /** The step's secrets: a build variable's value joins them before it is shown. */
  secrets: Secrets;
  /** The environment run() was given (RUNNER_TEMP for the log file). */
  env?: NodeJS.ProcessEnv | undefined;
}

/**
 * The console's root: console-url, else base-url on bk-ci's own gateway, whose host serves the
 * console too. Behind the BlueKing API Gateway base-url is the gateway's stage root, which has no
 * console: no link then, and the log says how to get one.
 */
export function consoleRoot(given: string | undefined, gateway: Gateway, baseUrl: string, log: Log): string | undefined {
  if (given !== undefined) return given;
  if (gateway === 'bk-ci') return baseUrl;
  log.info(
    'build-url is empty: behind the BlueKing API Gateway base-url is not the bk-ci console; set console-url to the console root (e.g. https://devops.example.com) to get a link to the build',
  );
  return undefined;
}

/** The build's page in bk-ci's console; empty when the console or the pipeline is not known. */
export function buildUrl(consoleUrl: string | undefined, build: BuildRef): string {
  if (build.pipelineId === undefined || consoleUrl === undefined) return '';
  return `${consoleUrl}/console/pipeline/${[build.projectId, build.pipelineId, 'detail', build.id].map(encodeURIComponent).join('/')}`;
}

/** The pipeline's build history in the console, where a build that may have started can be looked for. */
export function historyUrl(consoleUrl: string | undefined, projectId: string, pipelineId: string): string {
  if (consoleUrl === undefined) return '';
  return `${consoleUrl}/console/pipeline/${[projectId, pipelineId, 'history'].map(encodeURIComponent).join('/')}`;
}
