// The one way a build operation follows a build, whatever brought it (a start, an id given, a
// re-run, a retry, a review decided): the console's root and so the build's page, what is shown of
// it besides its status (the report), its files at its end, and its GitHub check run when the step
// has `check` (loaded only then, opened before anything is sent, told of the build, finished on
// every way out: src/operations/build-check.ts).
import type { Outcome } from '../base/outcome.ts';
import { FILE_INFO, USER_DOWNLOAD_URL } from '../bkci/artifacts.ts';
import { BUILD_DETAIL, BUILD_STATUS, type BuildRef } from '../bkci/builds.ts';
import { LOG_AFTER } from '../bkci/logs.ts';
import { BUILD_VARIABLES } from '../bkci/variables.ts';
import type { BuildCheck } from '../github/check.ts';
import type { DownloadTask } from '../inputs/download.ts';
import { type Build, type BuildKnown, buildOf, buildUrl, consoleRoot, historyUrl } from '../pipeline/build.ts';
import { filesAsked } from '../pipeline/build-download.ts';
import type { BuildOutput, CheckOutput } from '../pipeline/build-outputs.ts';
import { type ReportInputs, reportOptions } from '../pipeline/build-report.ts';
import { watchBuild } from '../pipeline/watch.ts';
import { type CheckTask, openCheck, withCheck } from './build-check.ts';
import type { Context } from './operation.ts';

/** What following a build may call: its status and model, and what is shown of it (its log, variables, artifacts and their links). */
export const FOLLOW_ENDPOINTS = [BUILD_STATUS, BUILD_DETAIL, LOG_AFTER, BUILD_VARIABLES, FILE_INFO, USER_DOWNLOAD_URL];

/** What a build operation's inputs say of how a build is followed (src/inputs/build.ts: followInputs, and checkInputs when it has them). */
export type FollowTask = ReportInputs &
  DownloadTask & {
    wait: boolean;
    'console-url'?: string | undefined;
    'on-review': 'wait' | 'fail';
  } & (CheckTask | { check?: undefined });

/** How this build is followed, beside what the inputs say. */
interface FollowHow {
  /** Stop it when the job is cancelled: only a build (or a run) this step started. */
  stopOnCancel: boolean;
  /** The run a retry just asked for: no end counts before it shows. */
  newRun?: number | undefined;
  /** What a re-run did with it, in words, for its check run ("taken from attempt 1"). */
  rerun?: string | undefined;
  /** A check run of it may be on the commit already (a build this step did not just start): looked for first. */
  lookFirst: boolean;
}

/** How the step follows builds, set up once from its inputs. */
export interface BuildFollow {
  /** The console's root; undefined: no link (behind the BlueKing API Gateway without console-url). */
  readonly consoleUrl: string | undefined;
  /** The build `ref` names, with its page and what else is known of it. */
  build(ref: BuildRef, known?: BuildKnown): Build;
  /** Loads GitHub's side now, with `check` (a start: before anything is sent, so that the check appears as soon as bk-ci has the build). */
  openCheck(): Promise<void>;
  /** Follows it (once, or to its end with wait) and, with `check`, mirrors it on its check run, finished with the step's outcome. */
  watch(build: Build, how: FollowHow): Promise<Outcome<BuildOutput | CheckOutput>>;
  /** bk-ci refused to start a build of the pipeline: its check run, with `check`, completed saying why. */
  refused(reason: string, pipeline: { projectId: string; pipelineId: string }): Promise<void>;
}

/** The step's way of following builds; its check run, with `check`, is opened at the first need. */
export function followFor(task: FollowTask, ctx: Context): BuildFollow {
  const consoleUrl = consoleRoot(task['console-url'], ctx.settings.gateway, ctx.settings.baseUrl, ctx.log);
  const report = reportOptions(task);
  const download = filesAsked(task, ctx, consoleUrl);
  let check: Promise<BuildCheck | undefined> | undefined;
  const opened = (): Promise<BuildCheck | undefined> =>
    (check ??= task.check === undefined ? Promise.resolve(undefined) : openCheck(task, ctx));
  return {
    consoleUrl,
    build: (ref, known = {}) => buildOf(ref, { url: buildUrl(consoleUrl, ref), ...known }),
    openCheck: async () => void (await opened()),
    async watch(build, how) {
      const run = await opened();
      run?.follow({ id: build.id, url: build.url, pipelineId: build.pipelineId, rerun: how.rerun, lookFirst: how.lookFirst });
      const { stopOnCancel, newRun } = how;
      const options = {
        wait: task.wait,
        consoleUrl,
        stopOnCancel,
        onReview: task['on-review'],
        report,
        download,
        newRun,
        onView: run?.onView,
      };
      const watched = () => watchBuild(build, options, ctx);
      // Without the check input (review-build), neither the check nor its outputs.
      return task.check === undefined ? watched() : withCheck(run, ctx, watched);
    },
    async refused(reason, { projectId, pipelineId }) {
      await (await opened())?.refused(reason, pipelineId, historyUrl(consoleUrl, projectId, pipelineId));
    },
  };
}
