// A build this step did not start (build-status, retry-build): what both declare of it (inputs,
// endpoints, outputs, summary rows), and how it is followed, with its check run.
import type { Outcome } from '../base/outcome.ts';
import type { z } from '../base/schema.ts';
import type { buildStatusInputs } from '../inputs/build.ts';
import type { Build } from '../pipeline/build.ts';
import { BUILD_OUTPUTS, type BuildOutput, CHECK_OUTPUTS, type CheckOutput } from '../pipeline/build-outputs.ts';
import type { BuildFollow } from './build-follow.ts';

/** The inputs of a build given by id, followed, with its check run: build-status's (retry-build's add to them). */
export type GivenBuildTask = z.output<typeof buildStatusInputs>;

export const GIVEN_BUILD_OUTPUTS = [...BUILD_OUTPUTS, ...CHECK_OUTPUTS];

/** The summary's rows naming the build. */
export const givenBuildRows = (task: GivenBuildTask): [string, string][] => [
  ['project-id', task['project-id']],
  ['build-id', task['build-id']],
  ['pipeline-id', task['pipeline-id'] ?? ''],
];

/** The build the inputs name, with its page. */
export const givenBuild = (t: GivenBuildTask, follow: BuildFollow): Build =>
  follow.build({ projectId: t['project-id'], pipelineId: t['pipeline-id'], id: t['build-id'] });

/**
 * Follows the build (once, or until it ends with wait) and mirrors it on its check run when check
 * is on. It stops on cancel only the run a retry of this step started (stop-on-cancel, with
 * `newRun`). A check run of this build an earlier step left in progress (wait: false) is taken
 * over, not doubled; one of another build never is.
 */
export function followGivenBuild(
  build: Build,
  follow: BuildFollow,
  retried?: { newRun: number; stopOnCancel: boolean },
): Promise<Outcome<BuildOutput | CheckOutput>> {
  return follow.watch(build, { stopOnCancel: retried?.stopOnCancel ?? false, newRun: retried?.newRun, lookFirst: true });
}
