import { z } from 'zod';
import { BUILD_DETAIL, BUILD_STATUS } from '../bkci/builds.ts';
import { buildIdInput, buildUrl, consoleRoot, consoleUrlInput, onReviewInput, pipelineIdInput, waitInput } from '../build/inputs.ts';
import { BUILD_OUTPUTS } from '../build/outcome.ts';
import { watchBuild } from '../build/watch.ts';
import { segment } from '../inputs/fields.ts';
import { defineOperation } from './operation.ts';

/** Reads a build this step did not start, once or until it ends. It never stops the build. */
export default defineOperation({
  inputs: z.object({
    'project-id': segment('project-id'),
    'build-id': buildIdInput,
    'pipeline-id': pipelineIdInput.optional(),
    wait: waitInput,
    'console-url': consoleUrlInput,
    'on-review': onReviewInput,
  }),
  endpoints: [BUILD_STATUS, BUILD_DETAIL],
  outputs: BUILD_OUTPUTS,
  credentials: 'any',
  describe: (t) => [
    ['project-id', t['project-id']],
    ['build-id', t['build-id']],
    ['pipeline-id', t['pipeline-id'] ?? ''],
    ['wait', String(t.wait)],
  ],
  waits: (t) => t.wait,
  run(t, ctx) {
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
      },
      ctx,
    );
  },
});
