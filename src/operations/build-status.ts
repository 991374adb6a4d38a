import { z } from 'zod';
import { BUILD_STATUS } from '../bkci/builds.ts';
import { SIGHT_ENDPOINTS, sightInputs, sightOptions } from '../build/sight.ts';
import { segment } from '../inputs/fields.ts';
import { BUILD_OUTPUTS, buildIdInput, consoleUrlInput, pipelineIdInput, waitInput, watchBuild } from './build-watch.ts';
import { defineOperation } from './operation.ts';

/** Reads a build this step did not start, once or until it ends. It never stops the build. */
export default defineOperation({
  inputs: z.object({
    'project-id': segment('project-id'),
    'build-id': buildIdInput,
    'pipeline-id': pipelineIdInput.optional(),
    wait: waitInput,
    'console-url': consoleUrlInput,
    ...sightInputs,
  }),
  endpoints: [BUILD_STATUS, ...SIGHT_ENDPOINTS],
  outputs: BUILD_OUTPUTS,
  credentials: 'any',
  describe: (t) => [
    ['project-id', t['project-id']],
    ['build-id', t['build-id']],
    ['pipeline-id', t['pipeline-id'] ?? ''],
    ['wait', String(t.wait)],
  ],
  waits: (t) => t.wait,
  run: (t, ctx) =>
    watchBuild(
      {
        projectId: t['project-id'],
        pipelineId: t['pipeline-id'],
        id: t['build-id'],
        wait: t.wait,
        consoleUrl: t['console-url'] ?? ctx.settings.baseUrl,
        stopOnCancel: false,
        sight: sightOptions(t),
      },
      ctx,
    ),
});
