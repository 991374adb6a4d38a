import { z } from 'zod';
import { BUILD_DETAIL, BUILD_STATUS } from '../bkci/build-endpoints.ts';
import {
  BUILD_OUTPUTS,
  buildIdInput,
  consoleUrlInput,
  onReviewInput,
  pipelineIdInput,
  SIGHT_ENDPOINTS,
  sightInputs,
  waitInput,
} from '../build/inputs.ts';
import { segment } from '../inputs/fields.ts';
import { defineOperation } from './operation.ts';

/** Reads a build this step did not start, once or until it ends. It never stops the build. */
const inputs = z.object({
  'project-id': segment('project-id'),
  'build-id': buildIdInput,
  'pipeline-id': pipelineIdInput.optional(),
  wait: waitInput,
  'console-url': consoleUrlInput,
  'on-review': onReviewInput,
  ...sightInputs,
});

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
  run: async (t, ctx) => (await import('./build-status-run.ts')).runBuildStatus(t, ctx),
});
