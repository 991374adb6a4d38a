// After a retry the build keeps its id (trap X1, docs/bkci/builds.md#retry): for a moment bk-ci
// may still show the run before it, ended. Its SUCCEED or FAILED is not the new run's verdict: an end
// counts only once the new run has shown itself, by a status back under way (QUEUE, RUNNING, …) or
// by a model whose executeCount reached it and which has ended too. Past a bound the wait fails.

import type { Clock } from '../base/clock.ts';
import { formatElapsed } from '../base/duration.ts';
import { ActionError } from '../base/errors.ts';

/** How long the run before a retry may still show before the step gives up on seeing the new one. */
const NEW_RUN_BOUND_MS = 120_000;

export interface NewRunGate {
  /** Whether an end now counts. */
  readonly open: boolean;
  /**
   * What one poll saw: the status ended or not, the model's run and whether the model has ended.
   * Throws once the bound passed with the new run never seen.
   */
  see(statusEnded: boolean, status: string, model: { executeCount?: number | null | undefined; ended: boolean } | undefined): void;
}

/** A gate for run `newRun` of build `id` (always open when no retry is awaited). */
export function newRunGate(newRun: number | undefined, id: string, clock: Clock): NewRunGate {
  let open = newRun === undefined;
  const since = clock.now();
  return {
    get open() {
      return open;
    },
    see(statusEnded, status, model) {
      if (open || newRun === undefined) return;
      if (!statusEnded || ((model?.executeCount ?? 0) >= newRun && model?.ended === true)) {
        open = true;
        return;
      }
      if (clock.now() - since >= NEW_RUN_BOUND_MS)
        throw new ActionError(
          `bk-ci still shows build ${id} ended ${status} (the run before the retry) ${formatElapsed(clock.now() - since)} after the retry; its run ${newRun} never showed. Look at the build in bk-ci`,
        );
    },
  };
}
