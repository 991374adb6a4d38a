// The failures of the writes that make a build run: a start (src/pipeline/start.ts) and a retry
// (src/pipeline/rerun-retry.ts). Each says what is known of the write: it was not applied (refused,
// never sent, cancelled before it was), or it may have been (its answer lost, and the build could
// not be told): never "may have" when it cannot have. The operations tell them apart by class.
import { ActionError, errorMessage, factsOf, ServerSaidError, statusOf } from '../base/errors.ts';
import { type BuildRef, startProblem } from '../bkci/builds.ts';

/** The start's outcome is unknown and no build could be told for its own: it may exist all the same. */
export class MayHaveStartedError extends ActionError {
  override name = 'MayHaveStartedError';
}

/** The job was cancelled before the start was sent: nothing started. */
export class CancelledBeforeStartError extends ActionError {
  override name = 'CancelledBeforeStartError';
}

/** The build was not started: bk-ci refused the start, or it never reached bk-ci. No build exists. */
export class NotStartedError extends ActionError {
  override name = 'NotStartedError';
  /** bk-ci got the start and refused it (true), or the start never reached it (false). */
  readonly reached: boolean;
  constructor(message: string, reached: boolean, cause: unknown) {
    super(message, { cause, status: statusOf(cause) });
    this.reached = reached;
  }
}

/**
 * What a start that was refused, or never sent, says: "did not start" with bk-ci's reason in words,
 * or, when it never reached bk-ci (its token could not be had, the connection was refused, another
 * front door answered), "nothing was started" with why: never "may have started", never silence.
 */
export function notStarted(error: unknown, pipeline: { projectId: string; pipelineId: string; user: string }): ActionError {
  if (factsOf(error).cancelled) return new CancelledBeforeStartError('cancelled before the start was sent: no build was started');
  if (!(error instanceof ServerSaidError)) return new NotStartedError(`nothing was started: ${errorMessage(error)}`, false, error);
  const said = startProblem(error.serverStatus, error.status, pipeline, error.serverMessage);
  return new NotStartedError(
    `the build did not start: ${said === undefined ? errorMessage(error) : `${said} (bk-ci said: ${error.serverMessage})`}`,
    true,
    error,
  );
}

/** bk-ci refused the retry: nothing was retried. */
export class RetryRefusedError extends ActionError {
  override name = 'RetryRefusedError';
}

/** The retry was not sent (a task the model does not have, the job cancelled before it): nothing was retried. */
export class RetryNotSentError extends ActionError {
  override name = 'RetryNotSentError';
}

/** The retry's outcome is unknown: it may have been applied, to `build`. */
export class RetryMayHaveBeenAppliedError extends ActionError {
  override name = 'RetryMayHaveBeenAppliedError';
  readonly build: BuildRef;
  constructor(message: string, build: BuildRef, options: { status?: number | undefined; cause?: unknown }) {
    super(message, options);
    this.build = build;
  }
}
