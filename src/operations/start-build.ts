import { z } from 'zod';
import { BUILD_START, BUILD_STATUS, BUILD_STOP, buildId, startProblem } from '../bkci/builds.ts';
import type { Reply } from '../bkci/client.ts';
import { formatDuration } from '../duration.ts';
import { ActionError, ServerSaidError } from '../errors.ts';
import { bool, mapping, segment } from '../inputs/fields.ts';
import type { WorkflowContext } from '../runner/context.ts';
import { BUILD_OUTPUTS, buildUrl, consoleUrlInput, pipelineIdInput, waitInput, watchBuild } from './build-watch.ts';
import { defineOperation } from './operation.ts';

/** `build-params`: a mapping whose values bk-ci takes as strings (Map<String, String>). */
const buildParams = mapping('build-params').transform((value, ctx) => {
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') out[key] = String(v);
    else if (JSON.isRawJSON(v)) out[key] = v.rawJSON;
    else if (v === null) out[key] = '';
    else
      ctx.addIssue({
        code: 'custom',
        message: `build-params.${key} must be a text, a number or a boolean: bk-ci takes every start parameter as text`,
      });
  }
  return out;
});

/** The commit this workflow runs for, as bk-ci's custom trigger material, unless build-params sets it. */
function material(w: WorkflowContext | undefined, params: Record<string, string>): Record<string, string> {
  if (w === undefined) return {};
  const given = (k: string): boolean => k in params;
  return {
    ...(given('BK_CI_MATERIAL_ID') ? {} : { BK_CI_MATERIAL_ID: w.sha }),
    ...(given('BK_CI_MATERIAL_NAME') ? {} : { BK_CI_MATERIAL_NAME: `${w.repository}@${w.ref}` }),
    ...(given('BK_CI_MATERIAL_URL') ? {} : { BK_CI_MATERIAL_URL: `${w.serverUrl}/${w.repository}/commit/${w.sha}` }),
  };
}

/** Starts a pipeline and, with wait, follows its build to the end; stops it if the job is cancelled. */
export default defineOperation({
  inputs: z.object({
    'project-id': segment('project-id'),
    'pipeline-id': pipelineIdInput,
    'build-params': buildParams.optional(),
    wait: waitInput,
    'stop-on-cancel': bool('stop-on-cancel').default(true),
    'console-url': consoleUrlInput,
  }),
  endpoints: [BUILD_START, BUILD_STATUS, BUILD_STOP],
  outputs: BUILD_OUTPUTS,
  credentials: 'any',
  describe: (t, settings) => [
    ['project-id', t['project-id']],
    ['pipeline-id', t['pipeline-id']],
    ['build-params', Object.keys(t['build-params'] ?? {}).join(', ')],
    ['wait', t.wait ? `yes, up to ${formatDuration(settings.timeoutMs)}` : 'no'],
  ],
  waits: (t) => t.wait,
  async run(t, ctx) {
    const projectId = t['project-id'];
    const pipelineId = t['pipeline-id'];
    const params = t['build-params'] ?? {};
    const body = { ...params, ...material(ctx.workflow, params) };
    let reply: Reply<z.infer<typeof buildId>>;
    try {
      // A POST: sent once (retried only when bk-ci refused it or it was never sent).
      reply = await ctx.api.call({ endpoint: BUILD_START, params: { projectId }, query: { pipelineId }, body, data: buildId });
    } catch (e) {
      if (!(e instanceof ServerSaidError)) throw e;
      const said = startProblem(e.serverStatus, e.status, { projectId, pipelineId, user: ctx.tokens.user ?? 'the user' }, e.serverMessage);
      if (said === undefined) throw e;
      throw new ActionError(`the build did not start: ${said} (bk-ci said: ${e.serverMessage})`, { status: e.status, cause: e });
    }
    const started = reply.data;
    if (started === undefined) throw new ActionError('bk-ci answered the start without a build id', { status: reply.status });
    const consoleUrl = t['console-url'] ?? ctx.settings.baseUrl;
    ctx.log.info(
      `started build #${started.num ?? '?'} (${started.id}) of pipeline ${pipelineId}: ${buildUrl(consoleUrl, projectId, pipelineId, started.id)}`,
    );
    const watched = {
      projectId,
      pipelineId,
      id: started.id,
      num: started.num ?? undefined,
      wait: t.wait,
      consoleUrl,
      stopOnCancel: t['stop-on-cancel'],
    };
    return watchBuild(watched, ctx);
  },
});
