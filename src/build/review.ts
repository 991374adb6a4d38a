// Deciding what a build waits for, as the token's user: a stage's entry review (its first
// pending group, by id) or a manual-review step (status always sent). Checked before anything
// is sent: that something waits, that the user may decide it, that the review parameters exist.
// The decision is a POST sent once: when its outcome is unknown it is never sent again.
// Facts and refusals: bkci-logs-artifacts-review.md §3.
import { z } from 'zod';
import type { BkciApi } from '../bkci/client.ts';
import { MANUAL_REVIEW, MANUAL_START_STAGE, REVIEW_REFUSALS } from '../bkci/reviews.ts';
import { ActionError, errorMessage, HttpError, ServerSaidError } from '../errors.ts';

/** A ManualReviewParam as bk-ci defines it; what the action does not read passes through. */
export const reviewParam = z.looseObject({ key: z.string(), value: z.unknown().optional(), valueType: z.string().nullish() });
export type ReviewParam = z.infer<typeof reviewParam>;

/** What a build waits for, and who may decide it. */
export type Pending =
  | {
      kind: 'stage';
      stageId: string;
      stage: string;
      /** The first group still pending: its id is sent, so a second group works. */
      groupId: string | undefined;
      group: string;
      reviewers: string[];
      params: ReviewParam[];
    }
  | { kind: 'step'; elementId: string; stepId: string | undefined; step: string; reviewers: string[]; params: ReviewParam[] };

export type Decision = 'approve' | 'reject';

/** "stage 'Release' (review group 'QA')", "manual-review step 'Sign-off'". */
export const describePending = (p: Pending): string =>
  p.kind === 'stage' ? `the review of stage '${p.stage}' (group '${p.group}')` : `manual-review step '${p.step}'`;

/** Why the user may not decide it, or undefined when they may (or the user is not known: then bk-ci decides). */
export function refusal(p: Pending, user: string | undefined): string | undefined {
  if (user === undefined || user === '' || p.reviewers.includes(user)) return undefined;
  const who = p.reviewers.length === 0 ? 'nobody is named' : `only ${p.reviewers.join(', ')} may`;
  return `${user} may not decide ${describePending(p)}: ${who}`;
}

/**
 * The parameters to send: those the review defines, with the values given; a name it does not
 * define is a problem, said before anything is sent.
 */
export function paramsToSend(defined: readonly ReviewParam[], given: Readonly<Record<string, unknown>>): ReviewParam[] | string {
  const unknown = Object.keys(given).filter((k) => !defined.some((d) => d.key === k));
  if (unknown.length > 0)
    return `review-params names ${unknown.join(', ')}, which the review does not define${defined.length === 0 ? ' (it has no parameters)' : ` (it has ${defined.map((d) => d.key).join(', ')})`}`;
  return defined.map((d) => (d.key in given ? { ...d, value: given[d.key] } : d));
}

export interface Decided {
  projectId: string;
  pipelineId?: string | undefined;
  id: string;
}

/**
 * Sends the decision once. bk-ci's refusals are said in words (nothing was decided); an answer
 * that never came, was cut or was a 5xx may have been applied, and says so.
 */
export async function decide(
  api: BkciApi,
  b: Decided,
  p: Pending,
  decision: Decision,
  suggestion: string | undefined,
  params: readonly ReviewParam[],
): Promise<void> {
  const query = { buildId: b.id, pipelineId: b.pipelineId };
  try {
    if (p.kind === 'stage')
      await api.call({
        endpoint: MANUAL_START_STAGE,
        params: { projectId: b.projectId },
        query: { ...query, stageId: p.stageId, cancel: decision === 'reject' ? 'true' : 'false' },
        body: {
          reviewParams: params,
          ...(p.groupId === undefined ? {} : { id: p.groupId }),
          ...(suggestion === undefined ? {} : { suggest: suggestion }),
        },
        data: z.unknown(),
      });
    else
      await api.call({
        endpoint: MANUAL_REVIEW,
        params: { projectId: b.projectId },
        query: { ...query, elementId: p.elementId, stepId: p.stepId },
        body: {
          status: decision === 'approve' ? 'PROCESS' : 'ABORT',
          params,
          ...(suggestion === undefined ? {} : { suggest: suggestion }),
        },
        data: z.unknown(),
      });
  } catch (e) {
    if (e instanceof ServerSaidError && !(e instanceof HttpError && e.status >= 500)) {
      const known = e.serverStatus === undefined ? undefined : REVIEW_REFUSALS[e.serverStatus];
      throw new ActionError(
        `bk-ci refused to ${decision} ${describePending(p)}${known === undefined ? '' : `: ${known}`}; nothing was decided (bk-ci said: ${e.serverMessage || errorMessage(e)})`,
        { status: e.status, cause: e },
      );
    }
    throw new ActionError(
      `the decision to ${decision} ${describePending(p)} may have been applied: bk-ci's answer was lost (${errorMessage(e)}). It was not sent again; look at the build before deciding again`,
      { ...(e instanceof HttpError ? { status: e.status } : {}), cause: e },
    );
  }
}

const element = z.looseObject({
  '@type': z.string().nullish(),
  id: z.string().nullish(),
  stepId: z.string().nullish(),
  name: z.string().nullish(),
  status: z.string().nullish(),
  reviewUsers: z.array(z.string()).nullish(),
  actualReviewUsers: z.array(z.string()).nullish(),
  params: z.array(reviewParam).nullish(),
});
const stage = z.looseObject({
  id: z.string().nullish(),
  name: z.string().nullish(),
  status: z.string().nullish(),
  checkIn: z
    .looseObject({
      status: z.string().nullish(),
      reviewGroups: z
        .array(
          z.looseObject({
            id: z.string().nullish(),
            name: z.string().nullish(),
            reviewers: z.array(z.string()).nullish(),
            status: z.string().nullish(),
          }),
        )
        .nullish(),
      reviewParams: z.array(reviewParam).nullish(),
    })
    .nullish(),
  containers: z.array(z.looseObject({ name: z.string().nullish(), elements: z.array(element).nullish() })).nullish(),
});
/** build_detail's ModelRecord: what says what waits for review. */
export const reviewModel = z.looseObject({
  status: z.string().nullish(),
  model: z.looseObject({ stages: z.array(stage).nullish() }).nullish(),
});
export type ReviewModel = z.infer<typeof reviewModel>;

/** Reviewers as bk-ci reads them: each entry may hold several names, comma-separated. */
const names = (list: readonly string[] | null | undefined): string[] =>
  (list ?? [])
    .flatMap((n) => n.split(','))
    .map((n) => n.trim())
    .filter((n) => n !== '');

/** What the build waits for now: a stage paused for review (its first pending group), else a manual-review step REVIEWING. */
export function pendingIn(detail: ReviewModel): Pending | undefined {
  const stages = (detail.model?.stages ?? []).slice(1);
  for (const st of stages) {
    const check = st.checkIn;
    if (st.status !== 'PAUSE' || check === null || check === undefined) continue;
    const group = (check.reviewGroups ?? []).find((g) => g.status === null || g.status === undefined);
    if (group === undefined) continue;
    return {
      kind: 'stage',
      stageId: st.id ?? '',
      stage: st.name ?? st.id ?? '',
      groupId: group.id ?? undefined,
      group: group.name ?? '',
      reviewers: names(group.reviewers),
      params: check.reviewParams ?? [],
    };
  }
  for (const st of stages)
    for (const job of st.containers ?? [])
      for (const el of job.elements ?? [])
        if (el['@type'] === 'manualReviewUserTask' && el.status === 'REVIEWING' && el.id)
          return {
            kind: 'step',
            elementId: el.id,
            stepId: el.stepId ?? undefined,
            step: el.name ?? el.id,
            reviewers: names(el.actualReviewUsers?.length ? el.actualReviewUsers : el.reviewUsers),
            params: el.params ?? [],
          };
  return undefined;
}
