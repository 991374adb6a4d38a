// Deciding what a build waits for, as the token's user: a stage's entry review (its first
// pending group, by id) or a manual-review step (status always sent). Checked before anything
// is sent: that something waits, that the user may decide it, that the review parameters exist.
// The decision is a POST sent once: when its outcome is unknown it is never sent again.
// Facts and refusals: docs/bkci/builds.md#reviews.

import { ActionError, errorMessage, factsOf, HttpError, ServerSaidError, statusOf } from '../base/errors.ts';
import { z } from '../base/schema.ts';
import type { BuildDetail, BuildRef, Calls } from '../bkci/builds.ts';
import { decideReview, REVIEW_REFUSALS } from '../bkci/reviews.ts';
import { describePending, type PendingReview } from './review-state.ts';

/** A ManualReviewParam as bk-ci defines it; what the action does not read passes through. */
const reviewParam = z.looseObject({ key: z.string(), value: z.unknown().optional(), valueType: z.string().nullish() });
export type ReviewParam = z.infer<typeof reviewParam>;

export type Decision = 'approve' | 'reject';

/** Why the user may not decide it, or undefined when they may (or the user is not known: then bk-ci decides). */
export function refusal(pending: PendingReview, user: string | undefined): string | undefined {
  if (user === undefined || user === '' || pending.reviewers.includes(user)) return undefined;
  const who = pending.reviewers.length === 0 ? 'bk-ci names nobody who may' : `only ${pending.reviewers.join(', ')} may`;
  return `${user} may not decide the review of ${describePending(pending)}: ${who}`;
}

const withParams = z.looseObject({ reviewParams: z.array(reviewParam).nullish(), params: z.array(reviewParam).nullish() });

/** The parameters the pending review defines: its stage's checkIn.reviewParams, or its step's params. */
export function definedParams(detail: BuildDetail, pending: PendingReview): ReviewParam[] {
  for (const st of detail.model?.stages ?? []) {
    if (pending.kind === 'stage' && st.id === pending.stageId) return withParams.safeParse(st.checkIn).data?.reviewParams ?? [];
    if (pending.kind !== 'step') continue;
    for (const job of st.containers ?? [])
      for (const el of job.elements ?? []) if (el.id === pending.elementId) return withParams.safeParse(el).data?.params ?? [];
  }
  return [];
}

/**
 * The parameters to send: those the review defines, with the values given (each as written, see
 * reviewValue); a name it does not define, or a value its type cannot take, is a problem, said
 * before anything is sent.
 */
export function paramsToSend(defined: readonly ReviewParam[], given: Readonly<Record<string, readonly string[]>>): ReviewParam[] | string {
  const unknown = Object.keys(given).filter((k) => !defined.some((d) => d.key === k));
  if (unknown.length > 0)
    return `review-params names ${unknown.join(', ')}, which the review does not define${defined.length === 0 ? ' (it has no parameters)' : ` (it has ${defined.map((d) => d.key).join(', ')})`}`;
  const out: ReviewParam[] = [];
  for (const param of defined) {
    const texts = given[param.key];
    if (texts === undefined) {
      out.push(param);
      continue;
    }
    const value = reviewValue(param.valueType, texts);
    if (typeof value === 'object' && !Array.isArray(value)) return `review-params.${param.key} ${value.problem}`;
    out.push({ ...param, value });
  }
  return out;
}

/**
 * A value as the parameter's declared type (bk-ci's valueType, whatever its case) takes it, from
 * the text written: BOOLEAN `true` or `false`; MULTIPLE and CHECKBOX a list of texts; every other
 * type (STRING, TEXTAREA, ENUM) one text, exactly as written (`1.10` stays "1.10").
 */
function reviewValue(valueType: string | null | undefined, texts: readonly string[]): string | boolean | string[] | { problem: string } {
  const type = (valueType ?? 'STRING').toUpperCase();
  if (type === 'MULTIPLE' || type === 'CHECKBOX') return [...texts];
  const [one, ...more] = texts;
  if (more.length > 0) return { problem: `is a ${type} parameter: give one value, not a list` };
  if (type !== 'BOOLEAN') return one ?? '';
  if (one !== undefined && /^(true|false)$/i.test(one)) return one.toLowerCase() === 'true';
  return { problem: `is a BOOLEAN parameter: give true or false, not ${JSON.stringify(one ?? '')}` };
}

/**
 * Sends the decision once. bk-ci's refusals are said in words (nothing was decided); an answer
 * that never came, was cut or was a 5xx may have been applied, and says so.
 */
export async function decide(
  api: Calls,
  build: BuildRef,
  pending: PendingReview,
  decided: { decision: Decision; suggestion: string | undefined; params: readonly ReviewParam[] },
): Promise<void> {
  const { decision } = decided;
  try {
    await decideReview(api, build, pending, decided);
  } catch (e) {
    const facts = factsOf(e);
    if (!facts.mayHaveApplied && e instanceof ServerSaidError) {
      const known = e.serverStatus === undefined ? undefined : REVIEW_REFUSALS[e.serverStatus];
      throw new ActionError(
        `bk-ci refused to ${decision} the review of ${describePending(pending)}${known === undefined ? '' : `: ${known}`}; nothing was decided (bk-ci said: ${e.serverMessage || errorMessage(e)})`,
        { status: e.status, cause: e },
      );
    }
    // Cancelled before it was sent: the cancel as it is, nothing to say about the decision.
    if (!facts.mayHaveApplied && facts.cancelled) throw e;
    if (!facts.mayHaveApplied)
      throw new ActionError(
        `the decision to ${decision} the review of ${describePending(pending)} was not applied: ${errorMessage(e)}; nothing was decided`,
        {
          status: statusOf(e),
          cause: e,
        },
      );
    // The cause (a cancel with the POST in flight, say) is kept: run() says what was on its way.
    throw new ActionError(
      `the decision to ${decision} the review of ${describePending(pending)} may have been applied: bk-ci's answer was lost (${errorMessage(e)}). It was not sent again; look at the build before deciding again`,
      { ...(e instanceof HttpError ? { status: e.status } : {}), cause: e },
    );
  }
}
