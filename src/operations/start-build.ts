import { z } from 'zod';
import { BUILD_DETAIL, BUILD_HISTORIES, BUILD_MSG, BUILD_START, BUILD_STATUS, BUILD_STOP } from '../bkci/builds.ts';
import { buildUrl, consoleRoot, consoleUrlInput, historyUrl, onReviewInput, pipelineIdInput, waitInput } from '../build/inputs.ts';
import { BUILD_OUTPUTS, type BuildOutput, describeBuild } from '../build/outcome.ts';
import { SIGHT_ENDPOINTS, sightInputs, sightOptions } from '../build/sight.ts';
import { type Started, startOnce, startValues } from '../build/start.ts';
import { stopBuild, watchBuild } from '../build/watch.ts';
import { formatDuration } from '../duration.ts';
import { ActionError, InputError, OperationError, statusOf } from '../errors.ts';
import { bool, segment, textMapping } from '../inputs/fields.ts';
import type { Outcome } from '../outcome.ts';
import { defineOperation } from './operation.ts';

/** `build-params`: names to text, exactly as written (bk-ci takes Map<String, String>). */
const buildParams = textMapping('build-params', {
  lists: false,
  what: 'a text, a number or a boolean: bk-ci takes every start parameter as text',
});

/** Starts a pipeline once and, with wait, follows its build to the end; stops it if the job is cancelled. */
export default defineOperation({
  inputs: z.object({
    'project-id': segment('project-id'),
    'pipeline-id': pipelineIdInput,
    'build-params': buildParams.optional(),
    wait: waitInput,
    'stop-on-cancel': bool('stop-on-cancel').default(true),
    'console-url': consoleUrlInput,
    'on-review': onReviewInput,
    ...sightInputs,
  }),
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
  async run(t, ctx) {
    const projectId = t['project-id'];
    const pipelineId = t['pipeline-id'];
    const params = Object.fromEntries(Object.entries(t['build-params'] ?? {}).map(([k, v]) => [k, v[0] ?? '']));
    const { body, own } = startValues(params, ctx.workflow);
    const consoleUrl = consoleRoot(t['console-url'], ctx.settings.gateway, ctx.settings.baseUrl, ctx.log);
    const history = historyUrl(consoleUrl, projectId, pipelineId);
    const view = (id: string, headline: string, conclusion: 'cancelled' | 'running' | 'failure', s?: Started, stopped?: string) =>
      describeBuild(headline, {
        projectId,
        pipelineId,
        id,
        num: s?.num,
        executeCount: s?.executeCount,
        url: id ? buildUrl(consoleUrl, projectId, pipelineId, id) : '',
        progress: { polls: 0, last: undefined, status: undefined, changes: [] },
        detail: undefined,
        pending: undefined,
        pauses: [],
        conclusion,
        stopped,
        elapsedMs: ctx.clock.now() - ctx.start,
        start: ctx.start,
      });
    let started: Started;
    try {
      started = await startOnce(
        { projectId, pipelineId, body, ownMessage: own, user: () => ctx.tokens.user ?? 'the user', historyUrl: history },
        ctx,
      );
    } catch (e) {
      if (!(e instanceof ActionError) || e instanceof InputError) throw e;
      const mayHave = /^the build may have started/.test(e.message);
      const o: Outcome<BuildOutput> = view('', mayHave ? 'the build may have started' : 'the build did not start', 'failure');
      o.blocks.push({
        kind: 'facts',
        rows: [['Build message', body[BUILD_MSG] ?? ''], ...(history ? ([['History', history]] as [string, string][]) : [])],
      });
      throw new OperationError(e.message, { ...o, status: statusOf(e) }, { cause: e });
    }
    const url = buildUrl(consoleUrl, projectId, pipelineId, started.id);
    ctx.log.info(
      `${started.how === 'answer' ? 'started' : 'found'} build #${started.num ?? '?'} (${started.id}) of pipeline ${pipelineId}${url ? `: ${url}` : ''}`,
    );
    if (started.cancelled) {
      const stopped = t['stop-on-cancel']
        ? await stopBuild(ctx.api, projectId, pipelineId, started.id, ctx.log.info)
        : `the build ${started.id} goes on in bk-ci (stop-on-cancel: false)`;
      throw new OperationError(
        `cancelled while the start was in flight; ${stopped}`,
        view(
          started.id,
          `build (${started.id}): cancelled`,
          /was stopped|had already ended/.test(stopped) ? 'cancelled' : 'running',
          started,
          stopped,
        ),
      );
    }
    return watchBuild(
      {
        projectId,
        pipelineId,
        id: started.id,
        num: started.num,
        executeCount: started.executeCount,
        wait: t.wait,
        consoleUrl,
        url,
        stopOnCancel: t['stop-on-cancel'],
        onReview: t['on-review'],
        sight: sightOptions(t),
      },
      ctx,
    );
  },
});
