// What a re-run does before starting anything: looks for the build an earlier attempt of this step
// started and takes it (it succeeded), follows it (under way) or retries it (it failed); or says why
// a new build is started (docs: the contract's "Re-runs continue the build").

import { ActionError, CancelledError, statusOf } from '../base/errors.ts';
import type { Outcome } from '../base/outcome.ts';
import type { BuildRef } from '../bkci/builds.ts';
import type { BuildOutput } from './build-declarations.ts';
import { decideRerun, findEarlier, type OnRerun, type RerunOutput, searchFailed } from './rerun.ts';
import { RetryRefusedError, retryOnce } from './rerun-retry.ts';
import type { BuildContext } from './watch.ts';

export interface RerunStep extends Pick<BuildRef, 'projectId'> {
  pipelineId: string;
  /** The step's identity in its build messages; undefined outside a GitHub run. */
  identity: string | undefined;
  /** GITHUB_RUN_ATTEMPT (0 when unknown). */
  attempt: number;
  onRerun: OnRerun;
}

/** The build taken over: followed as `watchBuild` follows one, `newRun` the run a retry asked for. */
export interface Taken {
  id: string;
  num: number | undefined;
  executeCount: number | undefined;
  newRun?: number | undefined;
}

export type Follow = (b: Taken, rerun: RerunOutput, said: string) => Promise<Outcome<BuildOutput>>;

/** The outcome of following an earlier attempt's build, or undefined: start a new build. */
export async function continueEarlier(r: RerunStep, ctx: BuildContext, follow: Follow): Promise<Outcome<BuildOutput> | undefined> {
  if (r.onRerun === 'start' || r.attempt <= 1 || r.identity === undefined) return undefined;
  const here = `re-run (attempt ${r.attempt})`;
  let earlier: Awaited<ReturnType<typeof findEarlier>>;
  try {
    earlier = await findEarlier({ ...r, identity: r.identity }, ctx);
  } catch (e) {
    if (e instanceof CancelledError) throw e;
    throw new ActionError(searchFailed(e), { status: statusOf(e), cause: e });
  }
  const d = decideRerun(earlier, r.onRerun);
  if (d.act === 'new') {
    ctx.log.info(`${here}: ${d.why}; starting a new build`);
    return undefined;
  }
  const { row, attempt } = d;
  const taken = { id: row.id, num: row.buildNum ?? undefined, executeCount: row.executeCount ?? undefined };
  const name = `build #${taken.num ?? '?'} (${row.id}), started by attempt ${attempt}`;
  if (d.act === 'adopt') {
    ctx.log.info(`${here}: ${name} ended ${row.status}: taken as it is; nothing is started or retried`);
    return follow(taken, 'adopted', `taken from attempt ${attempt}`);
  }
  if (d.act === 'follow') {
    ctx.log.info(`${here}: ${name} is still ${row.status}: following it`);
    return follow(taken, 'followed', `followed from attempt ${attempt}`);
  }
  const whole = d.act === 'retry' && d.whole;
  ctx.log.info(`${here}: ${name} ended ${row.status}: retrying ${whole ? 'the whole build' : 'its failed jobs'} in bk-ci`);
  let retried: Awaited<ReturnType<typeof retryOnce>>;
  try {
    retried = await retryOnce(
      { projectId: r.projectId, pipelineId: r.pipelineId, id: row.id, what: whole ? { kind: 'all' } : { kind: 'failed-jobs' } },
      ctx,
    );
  } catch (e) {
    if (!(e instanceof RetryRefusedError)) throw e;
    throw new RetryRefusedError(`${e.message}. on-rerun: start starts a new build instead`, { status: e.status, cause: e });
  }
  ctx.log.info(
    `bk-ci retried ${retried.what} of ${name}${retried.how === 'model' ? ' (learnt from the build, the answer was lost)' : ''}: following its run ${retried.executeCount}`,
  );
  return follow(
    { ...taken, executeCount: retried.executeCount, newRun: retried.executeCount },
    'retried',
    `${retried.what} retried (run ${retried.executeCount})`,
  );
}
