// How a start that left no known build ends: it may have started (its answer was lost and no
// build could be told for its own), it was cancelled before it was sent, or it was not started
// (bk-ci refused it, or it never reached bk-ci). src/pipeline/start.ts decides which; these say it.
import { ActionError, errorMessage, factsOf, ServerSaidError, statusOf } from '../base/errors.ts';
import { startProblem } from '../bkci/builds.ts';

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
export function notStarted(e: unknown, r: { projectId: string; pipelineId: string; user: string }): ActionError {
  if (factsOf(e).cancelled) return new CancelledBeforeStartError('cancelled before the start was sent: no build was started');
  if (!(e instanceof ServerSaidError)) return new NotStartedError(`nothing was started: ${errorMessage(e)}`, false, e);
  const said = startProblem(e.serverStatus, e.status, r, e.serverMessage);
  return new NotStartedError(
    `the build did not start: ${said === undefined ? errorMessage(e) : `${said} (bk-ci said: ${e.serverMessage})`}`,
    true,
    e,
  );
}
