import { z } from '../base/schema.ts';
import { BUILD_DETAIL, BUILD_STATUS } from '../bkci/build-endpoints.ts';
import { reportOptions } from '../pipeline/build-report.ts';
import {
  BUILD_OUTPUTS,
  buildUrl,
  CHECK_OUTPUTS,
  checkInputs,
  checkProblems,
  consoleRoot,
  followInputs,
  givenBuildInputs,
  SIGHT_ENDPOINTS,
} from '../pipeline/inputs.ts';
import { watchBuild } from '../pipeline/watch.ts';
import { openCheck, withCheck } from './build-check.ts';
import { type Context, defineOperation, waitRow } from './operation.ts';

/** Reads a build this step did not start, once or until it ends. It never stops the build. */
const inputs = z.object({ ...givenBuildInputs, ...followInputs, ...checkInputs });

/** The inputs as parsed: what the run gets. */
export type BuildStatusTask = z.output<typeof inputs>;

export default defineOperation({
  inputs,
  endpoints: [BUILD_STATUS, BUILD_DETAIL, ...SIGHT_ENDPOINTS],
  outputs: [...BUILD_OUTPUTS, ...CHECK_OUTPUTS],
  credentials: 'any',
  describe: (t, settings) => [
    ['project-id', t['project-id']],
    ['build-id', t['build-id']],
    ['pipeline-id', t['pipeline-id'] ?? ''],
    waitRow(t.wait, settings.timeoutMs),
  ],
  waits: (t) => t.wait,
  check: (t) => checkProblems(t),
  run: (t, ctx) => runBuildStatus(t, ctx),
});

/** What the step does once its inputs are read. */
async function runBuildStatus(t: BuildStatusTask, ctx: Context) {
  const consoleUrl = consoleRoot(t['console-url'], ctx.settings.gateway, ctx.settings.baseUrl, ctx.log);
  const url = buildUrl(consoleUrl, t['project-id'], t['pipeline-id'], t['build-id']);
  // A check run left in progress by an earlier step (wait: false) is taken over, not doubled.
  const check = await openCheck(t, ctx, true);
  check?.follow({ id: t['build-id'], url, pipelineId: t['pipeline-id'] });
  return withCheck(check, () =>
    watchBuild(
      {
        projectId: t['project-id'],
        pipelineId: t['pipeline-id'],
        id: t['build-id'],
        wait: t.wait,
        consoleUrl,
        url,
        stopOnCancel: false,
        onReview: t['on-review'],
        report: reportOptions(t),
        onView: check?.onView,
      },
      ctx,
    ),
  );
}
