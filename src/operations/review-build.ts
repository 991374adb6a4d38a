import { ActionError, HttpError, OperationError } from '../base/errors.ts';
import type { Cell, Outcome } from '../base/outcome.ts';
import type { z } from '../base/schema.ts';
import { atBuild, BUILD_DETAIL, BUILD_STATUS, buildDetail } from '../bkci/builds.ts';
import { MANUAL_REVIEW, MANUAL_START_STAGE } from '../bkci/reviews.ts';
import { reviewBuildInputs } from '../inputs/build.ts';
import { downloadProblems } from '../inputs/download.ts';
import { BUILD_OUTPUTS, type BuildOutput, buildUrl, consoleRoot, SIGHT_ENDPOINTS } from '../pipeline/build-declarations.ts';
import { filesAsked } from '../pipeline/build-download.ts';
import { reportOptions } from '../pipeline/build-report.ts';
import { decide, definedParams, paramsToSend, refusal } from '../pipeline/review-decision.ts';
import { describePending, pendingReview } from '../pipeline/review-state.ts';
import { watchBuild } from '../pipeline/watch.ts';
import { type Context, defineOperation, waitRow } from './operation.ts';

/** The inputs as parsed: what the run gets. */
export type ReviewBuildTask = z.output<typeof reviewBuildInputs>;

/**
 * Approves or rejects what a build waits for, as the token's user: a stage's first pending review
 * group or a manual-review step. Nothing is sent when nothing waits, the user may not decide or a
 * parameter is not the review's. With wait it then follows the build like build-status.
 */
export default defineOperation({
  inputs: reviewBuildInputs,
  endpoints: [BUILD_DETAIL, MANUAL_START_STAGE, MANUAL_REVIEW, BUILD_STATUS, ...SIGHT_ENDPOINTS],
  outputs: BUILD_OUTPUTS,
  credentials: 'any',
  describe: (t, settings) => [
    ['project-id', t['project-id']],
    ['build-id', t['build-id']],
    ['decision', t.decision],
    ['review-params', Object.keys(t['review-params'] ?? {}).join(', ')],
    waitRow(t.wait, settings.timeoutMs),
  ],
  waits: (t) => t.wait,
  check: (t, settings) => downloadProblems(t, settings, { waitsForEnd: true }),
  run: (t, ctx) => runReviewBuild(t, ctx),
});

/** What the step does once its inputs are read. */
async function runReviewBuild(t: ReviewBuildTask, ctx: Context): Promise<Outcome<BuildOutput>> {
  const b = { projectId: t['project-id'], pipelineId: t['pipeline-id'], id: t['build-id'] };
  const reply = await ctx.api
    .call({
      endpoint: BUILD_DETAIL,
      ...atBuild(b),
      data: buildDetail,
    })
    .catch((e: unknown) => {
      if (e instanceof HttpError && e.status === 400 && /Invalid buildId/i.test(e.serverMessage))
        throw new ActionError(`no build ${b.id} in project ${b.projectId}: check build-id and project-id`, { status: 400, cause: e });
      throw e;
    });
  const detail = reply.data;
  const pending = detail === undefined ? undefined : pendingReview(detail);
  const nothing = (why: string): ActionError => new ActionError(`${why}; nothing was decided`, { status: reply.status });
  if (detail === undefined || pending === undefined)
    throw nothing(`build ${b.id} waits for no review now (status ${detail?.status ?? 'unknown'})`);
  if (detail.id !== b.id) throw nothing(`bk-ci answered build_detail with build ${detail.id} when asked for ${b.id}`);
  const user = ctx.tokens.user || undefined;
  const refused = refusal(pending, user);
  if (refused !== undefined) throw nothing(refused);
  const params = paramsToSend(definedParams(detail, pending), t['review-params'] ?? {});
  if (typeof params === 'string') throw nothing(params);
  await decide(ctx.api, b, pending, t.decision, t.suggestion, params);
  const said = `${t.decision === 'approve' ? 'approved' : 'rejected'} the review of ${describePending(pending)}${user === undefined ? '' : ` as ${user}`}`;
  // Said once: without wait, the headline is this line.
  const applied = `${said}; bk-ci applies it moments later`;
  if (t.wait) ctx.log.info(applied);
  const decision: [string, string] = ['Decision', `${said}${t.suggestion ? `: "${t.suggestion}"` : ''}`];
  const pipelineId = b.pipelineId ?? detail.pipelineId ?? undefined;
  const consoleUrl = consoleRoot(t['console-url'], ctx.settings.gateway, ctx.settings.baseUrl, ctx.log);
  const url = buildUrl(consoleUrl, b.projectId, pipelineId, b.id);
  if (!t.wait) {
    const outcome: Outcome<BuildOutput> = {
      headline: applied,
      outputs: { 'build-id': b.id, 'build-url': url, 'build-status': detail.status ?? '', conclusion: 'running' },
      blocks: [{ kind: 'facts', rows: [decision, ['Build', b.id], ...(url ? [['Link', { url }] satisfies [string, Cell]] : [])] }],
      status: reply.status,
      done: said,
    };
    return outcome;
  }
  const watched = {
    ...b,
    num: detail.buildNum ?? undefined,
    pipelineId,
    wait: true,
    consoleUrl,
    url,
    stopOnCancel: false,
    onReview: t['on-review'],
    report: reportOptions(t),
    download: filesAsked(t, ctx, consoleUrl),
  };
  try {
    const o = await watchBuild(watched, ctx);
    return { ...o, blocks: [{ kind: 'facts', rows: [decision] }, ...o.blocks], done: said };
  } catch (e) {
    if (!(e instanceof OperationError)) throw e;
    const blocks = [{ kind: 'facts' as const, rows: [decision] }, ...e.outcome.blocks];
    throw new OperationError(e.message, { ...e.outcome, blocks, done: said }, { cause: e });
  }
}
