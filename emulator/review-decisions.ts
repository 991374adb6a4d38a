// Deciding what a build waits for: the control API's `POST /__emulator/reviews` (any named user,
// no refusals beyond "nothing waits") and, later, bk-ci's own review endpoints.
import { z } from 'zod';
import type { Build, BuildWorld } from './builds.ts';
import { pendingGroup, stageReview } from './reviews.ts';

export const reviewBody = z
  .object({
    buildId: z.string().min(1),
    action: z.enum(['approve', 'reject']),
    user: z.string().min(1).default('admin'),
    suggest: z.string().optional(),
    /** ManualReviewParam values the reviewer sets. */
    params: z.array(z.unknown()).optional(),
  })
  .strict();

/** What the build waits for now: a stage review's pending group or a manual-review step. */
export function waitingReview(
  w: BuildWorld,
  b: Build,
): { kind: 'stage'; phase: number; group: number } | { kind: 'step'; phase: number } | undefined {
  const life = w.life(b);
  const p = w.pipelineOf(b);
  if (life.pending === undefined || p === undefined || life.endTime !== null) return undefined;
  const phase = p.phases[life.pending.phase];
  if (phase?.review !== undefined) {
    const group = pendingGroup(stageReview(p, b, life.pending.phase, life.pending.since, w.now()).groups);
    return group < 0 ? undefined : { kind: 'stage', phase: life.pending.phase, group };
  }
  if (phase?.step !== undefined && !b.decisions.some((d) => d.kind === 'step' && d.phase === life.pending?.phase))
    return { kind: 'step', phase: life.pending.phase };
  return undefined;
}

/** The control API's decision: made at once, as `user`, whoever that is. */
export function decideByControl(w: BuildWorld, input: z.output<typeof reviewBody>): { decided: string } {
  const b = w.builds.get(input.buildId);
  if (b === undefined) throw new Error(`buildId: no build ${input.buildId}`);
  const waiting = waitingReview(w, b);
  if (waiting === undefined) throw new Error(`build ${b.id} waits for no review now (status ${w.life(b).status})`);
  const action = input.action === 'approve' ? 'PROCESS' : 'ABORT';
  const at = w.now();
  const common = {
    phase: waiting.phase,
    action,
    user: input.user,
    at,
    ...(input.suggest === undefined ? {} : { suggest: input.suggest }),
    ...(input.params === undefined ? {} : { params: input.params }),
  } as const;
  if (waiting.kind === 'stage') {
    b.decisions.push({ kind: 'stage', group: waiting.group, ...common });
    return { decided: `stage review group ${waiting.group + 1}: ${action}` };
  }
  b.decisions.push({ kind: 'step', effectiveAt: at, ...common });
  return { decided: `manual-review step: ${action}` };
}
