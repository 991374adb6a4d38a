// Reads beside the wait: the build's log, its model while no verdict depends on it, its
// variables and artifacts. Each has its own short budget, so that none can hold up a status
// poll, the end or what follows it; none decides the verdict (the build's status does). Every
// side read takes its budget from here.
import type { Clock } from '../base/clock.ts';
import type { BkciApi } from '../bkci/client.ts';
import type { SideBudget } from '../http/caller.ts';

/** Each attempt of a side read, at most. */
export const SIDE_ATTEMPT_MS = 10_000;
/** Retries of a side read, at most (and none past its window). */
export const SIDE_RETRIES = 2;
/**
 * After the end, what reading the variables and listing the artifacts may each take, from when it
 * begins: its own, not what the wait left of the timeout (a log read that was slow at the end
 * cannot leave the variables a later step needs without time).
 */
export const END_READ_MS = { variables: 15_000, artifacts: 30_000 } as const;
/** After the end, how long the log is read on for its last lines, at most. */
export const SETTLE_BUDGET_MS = 30_000;

/** The budget of a side read that must be over by `until` (the next poll, say); by default one attempt's worth from now. */
export function sideBudget(clock: Clock, until?: number): SideBudget {
  return { attemptMs: SIDE_ATTEMPT_MS, retries: SIDE_RETRIES, until: until ?? clock.now() + SIDE_ATTEMPT_MS };
}

/** What a side read calls: bk-ci's client, or the same within a budget. */
export type Calls = Pick<BkciApi, 'call'>;

/** The client, each call within the side-read budget that ends at `until` (by default one attempt's worth from each call). */
export function sideCalls(api: Calls, clock: Clock, until?: number): Calls {
  return { call: (spec) => api.call({ ...spec, budget: sideBudget(clock, until) }) };
}
