// The GitHub check run of a build operation, when `check` is on: the one place the build path
// loads GitHub's side (src/github/, with @actions/github), so a step without `check` loads and
// calls nothing of GitHub's.
import { errorMessage, OperationError } from '../base/errors.ts';
import type { Outcome } from '../base/outcome.ts';
import type { BuildCheck } from '../github/check.ts';
import type { CheckOutput } from '../pipeline/build-outputs.ts';
import type { Context } from './operation.ts';

/** The check inputs (src/inputs/build.ts checkInputs). */
export interface CheckTask {
  check: boolean;
  'check-name'?: string | undefined;
  'github-token': string;
}

/** The check run, loaded only when asked for. */
export async function openCheck(task: CheckTask, ctx: Context): Promise<BuildCheck | undefined> {
  if (!task.check) return undefined;
  const { BuildCheck } = await import('../github/check.ts');
  return BuildCheck.open({
    token: task['github-token'],
    name: task['check-name'],
    env: ctx.env ?? {},
    clock: ctx.clock,
    log: ctx.log,
    signal: ctx.signal,
    deadline: ctx.start + ctx.settings.timeoutMs,
    scrub: (text) => ctx.secrets.redact(text),
  });
}

/**
 * What the step ends with when following the build threw something that is not an operation's
 * failure (a bug, an error nobody wrapped): the check still ends, as a failure or a cancel.
 */
const thrownEnd = (error: unknown, cancelled: boolean): Outcome => ({
  headline: errorMessage(error),
  outputs: { conclusion: cancelled ? 'cancelled' : 'failure' },
  blocks: [],
});

/**
 * Follows the build and completes its check with the step's outcome, on every way out: success,
 * an operation's failure, or anything else thrown. The check's outputs join the step's.
 */
export async function withCheck<O extends string>(
  check: BuildCheck | undefined,
  ctx: Pick<Context, 'signal'>,
  follow: () => Promise<Outcome<O>>,
): Promise<Outcome<O | CheckOutput>> {
  // Without check the outputs are set empty, as action.yml says.
  if (check === undefined) {
    const followed = widen(await follow());
    return { ...followed, outputs: { ...followed.outputs, 'check-run-id': '', 'check-url': '' } };
  }
  let outcome: Outcome<O>;
  try {
    outcome = await follow();
  } catch (e) {
    const failed = e instanceof OperationError ? e.outcome : thrownEnd(e, ctx.signal.aborted);
    await check.finish(failed, errorMessage(e));
    if (e instanceof OperationError) Object.assign(e.outcome.outputs, check.outputs);
    throw e;
  }
  await check.finish(outcome, undefined);
  return { ...outcome, outputs: { ...widen(outcome).outputs, ...check.outputs } };
}

/** An outcome's outputs, seen as a wider set of names (it sets none of the others). */
const widen = <O extends string>(o: Outcome<O>): Outcome<O | CheckOutput> => o as Outcome<O | CheckOutput>;
