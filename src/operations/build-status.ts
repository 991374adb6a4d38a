import { z } from '../base/schema.ts';
import { BUILD_DETAIL, BUILD_STATUS } from '../bkci/build-endpoints.ts';
import { BUILD_OUTPUTS, buildUrl, consoleRoot, followInputs, givenBuildInputs, SIGHT_ENDPOINTS } from '../build/inputs.ts';
import { sightOptions } from '../build/sight.ts';
import { watchBuild } from '../build/watch.ts';
import { type Context, defineOperation } from './operation.ts';

/** Reads a build this step did not start, once or until it ends. It never stops the build. */
const inputs = z.object({ ...givenBuildInputs, ...followInputs });

/** The inputs as parsed: what the run gets. */
export type BuildStatusTask = z.output<typeof inputs>;

export default defineOperation({
  inputs,
  endpoints: [BUILD_STATUS, BUILD_DETAIL, ...SIGHT_ENDPOINTS],
  outputs: BUILD_OUTPUTS,
  credentials: 'any',
  describe: (t) => [
    ['project-id', t['project-id']],
    ['build-id', t['build-id']],
    ['pipeline-id', t['pipeline-id'] ?? ''],
    ['wait', String(t.wait)],
  ],
  waits: (t) => t.wait,
  run: (t, ctx) => runBuildStatus(t, ctx),
});

/** What the step does once its inputs are read. */
async function runBuildStatus(t: BuildStatusTask, ctx: Context) {
  const consoleUrl = consoleRoot(t['console-url'], ctx.settings.gateway, ctx.settings.baseUrl, ctx.log);
  return watchBuild(
    {
      projectId: t['project-id'],
      pipelineId: t['pipeline-id'],
      id: t['build-id'],
      wait: t.wait,
      consoleUrl,
      url: buildUrl(consoleUrl, t['project-id'], t['pipeline-id'], t['build-id']),
      stopOnCancel: false,
      onReview: t['on-review'],
      sight: sightOptions(t),
    },
    ctx,
  );
}
