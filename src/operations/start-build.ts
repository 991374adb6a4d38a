import { z } from 'zod';
import { formatDuration } from '../base/duration.ts';
import { BUILD_DETAIL, BUILD_HISTORIES, BUILD_START, BUILD_STATUS, BUILD_STOP } from '../bkci/build-endpoints.ts';
import {
  BUILD_OUTPUTS,
  consoleUrlInput,
  onReviewInput,
  pipelineIdInput,
  SIGHT_ENDPOINTS,
  sightInputs,
  waitInput,
} from '../build/inputs.ts';
import { bool, segment, textMapping } from '../inputs/fields.ts';
import { defineOperation } from './operation.ts';

/** `build-params`: names to text, exactly as written (bk-ci takes Map<String, String>). */
const buildParams = textMapping('build-params', {
  lists: false,
  what: 'a text, a number or a boolean: bk-ci takes every start parameter as text',
});

/** Starts a pipeline once and, with wait, follows its build to the end; stops it if the job is cancelled. */
const inputs = z.object({
  'project-id': segment('project-id'),
  'pipeline-id': pipelineIdInput,
  'build-params': buildParams.optional(),
  wait: waitInput,
  'stop-on-cancel': bool('stop-on-cancel').default(true),
  'console-url': consoleUrlInput,
  'on-review': onReviewInput,
  ...sightInputs,
});

/** The inputs as parsed: what the run gets. */
export type StartBuildTask = z.output<typeof inputs>;

export default defineOperation({
  inputs,
  endpoints: [BUILD_START, BUILD_STATUS, BUILD_STOP, BUILD_DETAIL, BUILD_HISTORIES, ...SIGHT_ENDPOINTS],
  outputs: BUILD_OUTPUTS,
  credentials: 'any',
  describe: (t, settings) => [
    ['project-id', t['project-id']],
    ['pipeline-id', t['pipeline-id']],
    ['build-params', Object.keys(t['build-params'] ?? {}).join(', ')],
    ['wait', t.wait ? `yes, up to ${formatDuration(settings.timeoutMs)}` : 'no'],
  ],
  waits: (t) => t.wait,
  run: async (t, ctx) => (await import('./start-build-run.ts')).runStartBuild(t, ctx),
});
