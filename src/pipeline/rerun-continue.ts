// What a re-run does before starting anything: looks for the build an earlier attempt of this step
// started, proven its own, and takes it (it succeeded), follows it (under way) or retries it (it
// failed, or a review refused it), deciding by its conclusion as the step would state it; or says
// why a new build is started (docs: the contract's "Re-runs continue the build"). The operation
// then follows the build it hands back as it follows any other.
import { ActionError, CancelledError, factsOf, statusOf } from '../base/errors.ts';
import { type Build, type BuildContext, buildOf, buildUrl } from './build.ts';
import { endConclusion } from './build-decide.ts';
import { RetryRefusedError } from './build-failures.ts';
import { stopCancelled } from './cancelled-write.ts';
import {
  decideRerun,
  describeForeign,
  type EarlierVerdict,
  findEarlier,
  nameOf,
  type OnRerun,
  type RerunOutput,
  searchFailed,
} from './rerun.ts';
import { type RetryContext, readModel, retriedWords, retryOnce } from './rerun-retry.ts';
import { describeRejection, rejection } from './review-state.ts';

export interface RerunStep {
  projectId: string;
  pipelineId: string;
  /** The step's identity in its build messages; undefined outside a GitHub run. */
  identity: string | undefined;
  /** What the job's steps on this pipeline begin their identity with (runPrefix). */
  prefix: string | undefined;
  /** GITHUB_RUN_ATTEMPT (0 when unknown). */
  attempt: number;
  onRerun: OnRerun;
  /** The start values this step sends (its message aside): an earlier build is its own only when started with them. */
  values: Readonly<Record<string, string>>;
  stopOnCancel: boolean;
  /** The console's root, for the build's page. */
  consoleUrl: string | undefined;
}

/** The earlier attempt's build to follow: what the re-run did with it, in the `rerun` output and in words, and the run a retry asked for. */
export interface RerunBuild {
  build: Build;
  rerun: Exclude<RerunOutput, 'none'>;
  said: string;
  /** The run a retry just asked for: no end counts before it shows. */
  newRun?: number | undefined;
}

type Context = BuildContext & Pick<RetryContext, 'holdExit'>;

/** The earlier attempt's build, taken, followed or retried; or undefined: start a new build. */
export async function continueEarlier(step: RerunStep, ctx: Context): Promise<RerunBuild | undefined> {
  if (step.onRerun === 'start' || step.attempt <= 1 || step.identity === undefined) return undefined;
  const here = `re-run (attempt ${step.attempt})`;
  const decision = decideRerun(await judge({ ...step, identity: step.identity }, ctx), step.onRerun);
  if (decision.act === 'new') {
    ctx.log.info(`${here}: ${decision.why}; starting a new build`);
    return undefined;
  }
  const { row, attempt } = decision;
  const ref = { projectId: step.projectId, pipelineId: step.pipelineId, id: row.id };
  const build = buildOf(ref, {
    num: row.buildNum ?? undefined,
    executeCount: row.executeCount ?? undefined,
    url: buildUrl(step.consoleUrl, ref),
  });
  const which = `${nameOf(row)} of attempt ${attempt} ${decision.how}`;
  if (decision.act === 'adopt') {
    ctx.log.info(`${here}: ${which}: taken as it is; nothing is started or retried`);
    return { build, rerun: 'adopted', said: `taken from attempt ${attempt}` };
  }
  if (decision.act === 'follow') {
    ctx.log.info(`${here}: ${which}: following it`);
    return { build, rerun: 'followed', said: `followed from attempt ${attempt}` };
  }
  ctx.log.info(`${here}: ${which}: retrying it in bk-ci`);
  const retried = await retryOnce({ ...ref, what: decision.what }, ctx).catch((error: unknown) => {
    if (!(error instanceof RetryRefusedError)) throw error;
    throw new RetryRefusedError(`${error.message}. on-rerun: start starts a new build instead`, { status: error.status, cause: error });
  });
  const done = retriedWords(retried, nameOf(row));
  const run = { ...build, num: build.num ?? retried.num, executeCount: retried.executeCount };
  if (retried.cancelled) {
    const write = {
      write: 'the retry',
      done: `${done}, run ${run.executeCount}`,
      stopOnCancel: step.stopOnCancel,
      outputs: { rerun: 'retried' },
    };
    throw await stopCancelled({ build: run, ...write }, ctx);
  }
  ctx.log.info(`${done}: following its run ${retried.executeCount}`);
  return { build: run, rerun: 'retried', said: `retried ${retried.what}, run ${retried.executeCount}`, newRun: retried.executeCount };
}

/**
 * The earlier attempt's build and how it stands: the history searched, builds that carry the
 * step's message but are not its own said and left alone, the one found read whole (its model
 * tells a refused review from a success). A failure of either read starts nothing.
 */
async function judge(step: RerunStep & { identity: string }, ctx: Context): Promise<Parameters<typeof decideRerun>[0]> {
  try {
    const earlier = await findEarlier(step, ctx);
    if (earlier.kind !== 'found') return earlier;
    if (earlier.foreign.length > 0) ctx.log.warning(`${describeForeign(earlier.foreign)}: it is left alone`);
    const detail = await readModel({ projectId: step.projectId, pipelineId: step.pipelineId, id: earlier.row.id }, ctx);
    const end = endConclusion({ status: earlier.row.status ?? '', endTime: earlier.row.endTime, startTime: earlier.row.startTime }, detail);
    const refused = end === 'rejected' ? rejection(detail) : undefined;
    const verdict: EarlierVerdict = { kind: 'found', attempt: earlier.attempt, row: earlier.row, end };
    return refused === undefined ? verdict : { ...verdict, rejected: { words: describeRejection(refused), stageId: refused.stageId } };
  } catch (e) {
    if (e instanceof CancelledError || factsOf(e).cancelled)
      throw new ActionError("cancelled while looking for an earlier attempt's build: nothing was started or retried", { cause: e });
    throw new ActionError(searchFailed(e), { status: statusOf(e), cause: e });
  }
}
