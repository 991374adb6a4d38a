// A build this step did not start (build-status, retry-build), followed with its GitHub check run:
// what both declare of it (inputs, endpoints, outputs, summary rows) and how it is followed.
import type { Outcome } from '../base/outcome.ts';
import type { z } from '../base/schema.ts';
import { BUILD_DETAIL, BUILD_STATUS } from '../bkci/builds.ts';
import type { buildStatusInputs } from '../inputs/build.ts';
import { BUILD_OUTPUTS, type BuildOutput, buildUrl, CHECK_OUTPUTS, consoleRoot, SIGHT_ENDPOINTS } from '../pipeline/build-declarations.ts';
import { filesAsked } from '../pipeline/build-download.ts';
import { reportOptions } from '../pipeline/build-report.ts';
import { watchBuild } from '../pipeline/watch.ts';
import { type CheckOutput, openCheck, withCheck } from './build-check.ts';
import type { Context } from './operation.ts';

/** The inputs of a build given by id, followed, with its check run: build-status's (retry-build's add to them). */
type Given = z.output<typeof buildStatusInputs>;

/** The endpoints reading a given build and what is shown of it. */
export const GIVEN_BUILD_ENDPOINTS = [BUILD_STATUS, BUILD_DETAIL, ...SIGHT_ENDPOINTS];

export const GIVEN_BUILD_OUTPUTS = [...BUILD_OUTPUTS, ...CHECK_OUTPUTS];

/** The summary's rows naming the build. */
export const givenBuildRows = (t: Given): [string, string][] => [
  ['project-id', t['project-id']],
  ['build-id', t['build-id']],
  ['pipeline-id', t['pipeline-id'] ?? ''],
];

/** The run a retry just asked for (no end counts before it shows), the build's number, and whether to stop it on cancel. */
interface NewRun {
  executeCount: number;
  newRun: number;
  num: number | undefined;
  stopOnCancel: boolean;
}

/**
 * Follows the build (once, or until it ends with wait) and mirrors it on its check run when check
 * is on. It stops on cancel only the run a retry of this step started (stop-on-cancel). A check run
 * of this build an earlier step left in progress (wait: false) is taken over, not doubled; one of
 * another build never is.
 */
export async function followGivenBuild(t: Given, ctx: Context, run?: NewRun): Promise<Outcome<BuildOutput | CheckOutput>> {
  const consoleUrl = consoleRoot(t['console-url'], ctx.settings.gateway, ctx.settings.baseUrl, ctx.log);
  const url = buildUrl(consoleUrl, t['project-id'], t['pipeline-id'], t['build-id']);
  const check = await openCheck(t, ctx);
  // A build this step did not start: a check run of it may be on the commit (wait: false earlier).
  check?.follow({ id: t['build-id'], url, pipelineId: t['pipeline-id'], lookFirst: true });
  return withCheck(check, ctx, () =>
    watchBuild(
      {
        projectId: t['project-id'],
        pipelineId: t['pipeline-id'],
        id: t['build-id'],
        ...run,
        wait: t.wait,
        consoleUrl,
        url,
        stopOnCancel: run?.stopOnCancel ?? false,
        onReview: t['on-review'],
        report: reportOptions(t),
        download: filesAsked(t, ctx, consoleUrl),
        onView: check?.onView,
      },
      ctx,
    ),
  );
}
