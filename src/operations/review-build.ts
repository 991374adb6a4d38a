import { z } from 'zod';
import { BUILD_STATUS } from '../bkci/builds.ts';
import { BUILD_DETAIL, MANUAL_REVIEW, MANUAL_START_STAGE } from '../bkci/reviews.ts';
import { decide, describePending, paramsToSend, pendingIn, refusal, reviewModel } from '../build/review.ts';
import { SIGHT_ENDPOINTS, sightInputs, sightOptions } from '../build/sight.ts';
import { ActionError, OperationError } from '../errors.ts';
import { mapping, segment } from '../inputs/fields.ts';
import type { Outcome } from '../outcome.ts';
import {
  BUILD_OUTPUTS,
  type BuildOutput,
  buildIdInput,
  buildUrl,
  consoleUrlInput,
  pipelineIdInput,
  unknownBuild,
  waitInput,
  watchBuild,
} from './build-watch.ts';
import { defineOperation } from './operation.ts';

/**
 * Approves or rejects what a build waits for, as the token's user: a stage's first pending review
 * group or a manual-review step. Nothing is sent when nothing waits or the user may not decide.
 * With wait it then follows the build like build-status.
 */
export default defineOperation({
  inputs: z.object({
    'project-id': segment('project-id'),
    'build-id': buildIdInput,
    'pipeline-id': pipelineIdInput.optional(),
    decision: z.string().pipe(z.enum(['approve', 'reject'], { error: 'decision must be approve or reject' })),
    suggestion: z.string().optional(),
    'review-params': mapping('review-params').optional(),
    wait: waitInput,
    'console-url': consoleUrlInput,
    ...sightInputs,
  }),
  endpoints: [BUILD_DETAIL, MANUAL_START_STAGE, MANUAL_REVIEW, BUILD_STATUS, ...SIGHT_ENDPOINTS],
  outputs: BUILD_OUTPUTS,
  credentials: 'any',
  describe: (t) => [
    ['project-id', t['project-id']],
    ['build-id', t['build-id']],
    ['decision', t.decision],
    ['review-params', Object.keys(t['review-params'] ?? {}).join(', ')],
    ['wait', String(t.wait)],
  ],
  waits: (t) => t.wait,
  async run(t, ctx) {
    const b = { projectId: t['project-id'], pipelineId: t['pipeline-id'], id: t['build-id'] };
    const consoleUrl = t['console-url'] ?? ctx.settings.baseUrl;
    const url = buildUrl(consoleUrl, b.projectId, b.pipelineId, b.id);
    const reply = await ctx.api
      .call({
        endpoint: BUILD_DETAIL,
        params: { projectId: b.projectId },
        query: { buildId: b.id, pipelineId: b.pipelineId },
        data: reviewModel,
      })
      .catch((e: unknown) => {
        throw unknownBuild(e, b) ?? e;
      });
    const pending = reply.data === undefined ? undefined : pendingIn(reply.data);
    if (pending === undefined)
      throw new ActionError(`build ${b.id} waits for no review now (status ${reply.data?.status ?? 'unknown'}): nothing was decided`, {
        status: reply.status,
      });
    const user = ctx.tokens.user || undefined;
    const refused = refusal(pending, user);
    if (refused !== undefined) throw new ActionError(`${refused}; nothing was decided`, { status: reply.status });
    const params = paramsToSend(pending.params, t['review-params'] ?? {});
    if (typeof params === 'string') throw new ActionError(`${params}; nothing was decided`, { status: reply.status });
    await decide(ctx.api, b, pending, t.decision, t.suggestion, params);
    const said = `${t.decision === 'approve' ? 'approved' : 'rejected'} ${describePending(pending)}${user === undefined ? '' : ` as ${user}`}`;
    ctx.log.info(`${said}; bk-ci applies it moments later`);
    const decisionRow: [string, string] = ['Decision', `${said}${t.suggestion ? `: "${t.suggestion}"` : ''}`];
    if (!t.wait) {
      const outcome: Outcome<BuildOutput> = {
        headline: said,
        outputs: { 'build-id': b.id, 'build-url': url },
        blocks: [{ kind: 'facts', rows: [decisionRow, ['Build', b.id], ...(url ? ([['Link', url]] as [string, string][]) : [])] }],
        status: reply.status,
        done: said,
      };
      return outcome;
    }
    try {
      const o = await watchBuild({ ...b, wait: true, consoleUrl, stopOnCancel: false, sight: sightOptions(t) }, ctx);
      return { ...o, blocks: [{ kind: 'facts', rows: [decisionRow] }, ...o.blocks], done: said };
    } catch (e) {
      if (!(e instanceof OperationError)) throw e;
      throw new OperationError(
        e.message,
        { ...e.outcome, blocks: [{ kind: 'facts', rows: [decisionRow] }, ...e.outcome.blocks], done: said },
        { cause: e },
      );
    }
  },
});
