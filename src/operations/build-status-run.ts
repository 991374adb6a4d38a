// The run of build-status, loaded only when that operation runs: what the step does once its inputs are read.
import { buildUrl, consoleRoot } from '../build/inputs.ts';
import { sightOptions } from '../build/sight.ts';
import { watchBuild } from '../build/watch.ts';
import type { BuildStatusTask } from './build-status.ts';
import type { Context } from './operation.ts';

export async function runBuildStatus(t: BuildStatusTask, ctx: Context) {
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
