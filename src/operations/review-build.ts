import { ActionError, OperationError } from '../base/errors.ts';
import type { Cell, Outcome } from '../base/outcome.ts';
import type { z } from '../base/schema.ts';
import { type BuildDetail, readBuildDetail, StrayAnswerError } from '../bkci/builds.ts';
import { MANUAL_REVIEW, MANUAL_START_STAGE } from '../bkci/reviews.ts';
import { reviewBuildInputs } from '../inputs/build.ts';
import { downloadProblems } from '../inputs/download.ts';
import type { Build } from '../pipeline/build.ts';
import { BUILD_OUTPUTS, type BuildOutput } from '../pipeline/build-outputs.ts';
import { decide, definedParams, paramsToSend, refusal } from '../pipeline/review-decision.ts';
import { describePending, type PendingReview, pendingReview } from '../pipeline/review-state.ts';
import { FOLLOW_ENDPOINTS, followFor } from './build-follow.ts';
import { type Context, defineOperation, waitRow } from './operation.ts';

/** The inputs as parsed: what the run gets. */
type ReviewBuildTask = z.output<typeof reviewBuildInputs>;

/**
 * Approves or rejects what a build waits for, as the token's user: a stage's first pending review
 * group or a manual-review step. Nothing is sent when nothing waits, the user may not decide or a
 * parameter is not the review's. With wait it then follows the build like build-status.
 */
export default defineOperation({
  inputs: reviewBuildInputs,
  endpoints: [MANUAL_START_STAGE, MANUAL_REVIEW, ...FOLLOW_ENDPOINTS],
  outputs: BUILD_OUTPUTS,
  credentials: 'any',
  describe: (task, settings) => [
    ['project-id', task['project-id']],
    ['build-id', task['build-id']],
    ['decision', task.decision],
    ['review-params', Object.keys(task['review-params'] ?? {}).join(', ')],
    waitRow(task.wait, settings.timeoutMs),
  ],
  waits: (t) => t.wait,
  check: (t, settings) => downloadProblems(t, settings, { waitsForEnd: true }),
  run: (t, ctx) => runReviewBuild(t, ctx),
});

/** What the step does once its inputs are read: the review decided, then with wait the build followed. */
async function runReviewBuild(task: ReviewBuildTask, ctx: Context): Promise<Outcome<BuildOutput>> {
  const ref = { projectId: task['project-id'], pipelineId: task['pipeline-id'], id: task['build-id'] };
  const { detail, pending, status } = await waitingReview(ref, ctx);
  const nothing = (why: string): ActionError => new ActionError(`${why}; nothing was decided`, { status });
  const user = ctx.tokens.user || undefined;
  const refused = refusal(pending, user);
  if (refused !== undefined) throw nothing(refused);
  const params = paramsToSend(definedParams(detail, pending), task['review-params'] ?? {});
  if (typeof params === 'string') throw nothing(params);
  await decide(ctx.api, ref, pending, { decision: task.decision, suggestion: task.suggestion, params });
  const said = `${task.decision === 'approve' ? 'approved' : 'rejected'} the review of ${describePending(pending)}${user === undefined ? '' : ` as ${user}`}`;
  // Said once: without wait, the headline is this line.
  const applied = `${said}; bk-ci applies it moments later`;
  if (task.wait) ctx.log.info(applied);
  const decision: [string, string] = ['Decision', `${said}${task.suggestion ? `: "${task.suggestion}"` : ''}`];
  const follow = followFor(task, ctx);
  // The pipeline the model names, when the inputs name none.
  const build = follow.build(
    { ...ref, pipelineId: ref.pipelineId ?? detail.pipelineId ?? undefined },
    { num: detail.buildNum ?? undefined },
  );
  if (!task.wait) return decidedOnly(build, detail, { applied, decision, status, said });
  try {
    const outcome = await follow.watch(build, { stopOnCancel: false, lookFirst: false });
    return { ...outcome, blocks: [{ kind: 'facts', rows: [decision] }, ...outcome.blocks], done: said };
  } catch (e) {
    if (!(e instanceof OperationError)) throw e;
    const blocks = [{ kind: 'facts' as const, rows: [decision] }, ...e.outcome.blocks];
    throw new OperationError(e.message, { ...e.outcome, blocks, done: said }, { cause: e });
  }
}

/** The build's model and the review it waits for: nothing is sent when it waits for none. */
async function waitingReview(
  ref: { projectId: string; pipelineId: string | undefined; id: string },
  ctx: Context,
): Promise<{ detail: BuildDetail; pending: PendingReview; status: number }> {
  const reply = await readBuildDetail(ctx.api, ref).catch((e: unknown) => {
    throw e instanceof StrayAnswerError ? new ActionError(`${e.message}; nothing was decided`, { status: e.status, cause: e }) : e;
  });
  const pending = pendingReview(reply.data);
  if (pending === undefined)
    throw new ActionError(`build ${ref.id} waits for no review now (status ${reply.data.status ?? 'unknown'}); nothing was decided`, {
      status: reply.status,
    });
  return { detail: reply.data, pending, status: reply.status };
}

/** Without wait: the decision is the step's outcome; the build goes on in bk-ci. */
function decidedOnly(
  build: Build,
  detail: BuildDetail,
  decided: { applied: string; decision: [string, string]; status: number; said: string },
): Outcome<BuildOutput> {
  const { url } = build;
  return {
    headline: decided.applied,
    outputs: { 'build-id': build.id, 'build-url': url, 'build-status': detail.status ?? '', conclusion: 'running' },
    blocks: [
      { kind: 'facts', rows: [decided.decision, ['Build', build.id], ...(url ? [['Link', { url }] satisfies [string, Cell]] : [])] },
    ],
    status: decided.status,
    done: decided.said,
  };
}
