// How a write that starts or retries a build ends when it does not lead to a wait. The job was
// cancelled while it was in flight (the start, src/pipeline/start.ts; a retry,
// src/pipeline/rerun-retry.ts) and the run it started is known: that run is stopped when
// stop-on-cancel says so (src/pipeline/build-stop.ts), and the step fails saying what had been
// started and what came of the stop. Or it failed before any run was known: the step fails with
// the build as far as it is known. One way out for every such write.
import { ActionError, InputError, OperationError, statusOf } from '../base/errors.ts';
import type { Build, BuildContext } from './build.ts';
import { brokenOff, endConclusion } from './build-decide.ts';
import { stopAndSee } from './build-stop.ts';
import { describeUnread } from './outcome.ts';

export interface CancelledWrite {
  /** The build the write started or retried, as far as it is known. */
  build: Build;
  /** The write, in words: "the start", "the retry". */
  write: string;
  /** What bk-ci had done, when the write was not the start itself: "bk-ci retried the failed jobs of stage-3 (run 2)". */
  done?: string | undefined;
  stopOnCancel: boolean;
  /** Outputs of the operation's own beside the build's (a re-run's `rerun`). */
  outputs?: Record<string, string>;
}

/** Stops the run the cancelled write started (with stop-on-cancel) and returns the failure that says so. */
export async function stopCancelled(
  write: CancelledWrite,
  ctx: Pick<BuildContext, 'api' | 'clock' | 'log' | 'start'>,
): Promise<OperationError> {
  const { build } = write;
  const stop = write.stopOnCancel
    ? await stopAndSee(ctx.api, build, ctx.clock, ctx.log.info)
    : { ended: false, said: `the build ${build.id} goes on in bk-ci (stop-on-cancel: false)`, status: undefined, shown: undefined };
  const outcome = describeUnread(
    `build (${build.id}): cancelled`,
    build,
    {
      conclusion: brokenOff({ cancelled: true, stopEnded: stop.ended, after: stop.status && endConclusion(stop.status, undefined) }),
      stopped: stop.shown ?? stop.said,
      last: stop.status,
    },
    ctx,
  );
  return new OperationError(`cancelled while ${write.write} was in flight${write.done ? `; ${write.done}` : ''}; ${stop.said}`, {
    ...outcome,
    outputs: { ...outcome.outputs, ...write.outputs },
  });
}

/**
 * A write that failed before any run of the build was known (refused, never sent, or its outcome
 * unknown): the failure, with the build as far as it is known and a conclusion (cancelled when the
 * job was); a failure with an outcome of its own, or one of the inputs, passes as it is.
 */
export function notApplied(
  error: unknown,
  headline: string,
  build: Build,
  ctx: Pick<BuildContext, 'clock' | 'start' | 'signal'>,
  outputs: Record<string, string> = {},
): unknown {
  if (!(error instanceof ActionError) || error instanceof OperationError || error instanceof InputError) return error;
  const outcome = describeUnread(headline, build, { conclusion: ctx.signal.aborted ? 'cancelled' : 'failure' }, ctx);
  return new OperationError(
    error.message,
    { ...outcome, outputs: { ...outcome.outputs, ...outputs }, status: statusOf(error) },
    { cause: error },
  );
}
