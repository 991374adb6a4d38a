import { ActionError, InputError, OperationError, statusOf } from '../base/errors.ts';
import type { Outcome } from '../base/outcome.ts';
import type { z } from '../base/schema.ts';
import { BUILD_HISTORIES } from '../bkci/build-history.ts';
import { BUILD_MSG, BUILD_RETRY, BUILD_START, BUILD_STOP } from '../bkci/builds.ts';
import { checkProblems, startBuildInputs } from '../inputs/build.ts';
import { downloadProblems } from '../inputs/download.ts';
import { type Build, buildOf, historyUrl } from '../pipeline/build.ts';
import {
  CancelledBeforeStartError,
  MayHaveStartedError,
  NotStartedError,
  RetryMayHaveBeenAppliedError,
} from '../pipeline/build-failures.ts';
import { BUILD_OUTPUTS, type BuildOutput, CHECK_OUTPUTS, type CheckOutput } from '../pipeline/build-outputs.ts';
import { notApplied, stopCancelled } from '../pipeline/cancelled-write.ts';
import { describeUnread } from '../pipeline/outcome.ts';
import type { RerunOutput } from '../pipeline/rerun.ts';
import { continueEarlier, type RerunBuild } from '../pipeline/rerun-continue.ts';
import { runPrefix, type StepMark, stepIdentity } from '../pipeline/rerun-message.ts';
import { type StartResult, startOnce, startValues } from '../pipeline/start.ts';
import { type BuildFollow, FOLLOW_ENDPOINTS, followFor } from './build-follow.ts';
import { type Context, defineOperation, waitRow } from './operation.ts';

/** The inputs as parsed: what the run gets. */
type StartBuildTask = z.output<typeof startBuildInputs>;

/** Starts a pipeline once and, with wait, follows its build to the end; stops it if the job is cancelled. */
export default defineOperation({
  inputs: startBuildInputs,
  endpoints: [BUILD_START, BUILD_STOP, BUILD_HISTORIES, BUILD_RETRY, ...FOLLOW_ENDPOINTS],
  outputs: [...BUILD_OUTPUTS, 'rerun', ...CHECK_OUTPUTS],
  credentials: 'any',
  describe: (task, settings) => [
    ['project-id', task['project-id']],
    ['pipeline-id', task['pipeline-id']],
    ['build-params', Object.keys(task['build-params'] ?? {}).join(', ')],
    waitRow(task.wait, settings.timeoutMs),
    ['on-rerun', task['on-rerun']],
  ],
  waits: (t) => t.wait,
  check: (t, settings) => [...checkProblems(t), ...downloadProblems(t, settings, { waitsForEnd: true })],
  run: (t, ctx) => runStartBuild(t, ctx),
});

type Output = BuildOutput | CheckOutput | 'rerun';

/** The step as its builds know it: its mark in their message, and the start values it sends. */
interface StartStep {
  mark: StepMark;
  /** The start values as they go to bk-ci: build-params, the material, the message. */
  values: Record<string, string>;
  /** Whether the message is this step's own (unique), or one build-params set. */
  ownMessage: boolean;
}

/**
 * What the step does once its inputs are read: on a re-run the earlier attempt's build is
 * continued, else a new build started; either is followed the one way (src/operations/build-follow.ts).
 */
async function runStartBuild(task: StartBuildTask, ctx: Context): Promise<Outcome<Output>> {
  const follow = followFor(task, ctx);
  // Loaded before anything is sent, so that the check appears as soon as bk-ci has the build.
  await follow.openCheck();
  const step = startStep(task, ctx);
  const earlier = await continued(task, ctx, step, follow);
  const stopOnCancel = task['stop-on-cancel'];
  if (earlier !== undefined) {
    // An earlier attempt's build may have its check run on the commit already (left in progress).
    const how = { stopOnCancel, newRun: earlier.newRun, rerun: earlier.said, lookFirst: true };
    return withRerun(follow.watch(earlier.build, how), earlier.rerun, earlier.said);
  }
  // A start that fails says `rerun: none` too.
  const started = async () => follow.watch(await startNew(task, ctx, step, follow), { stopOnCancel, lookFirst: false });
  return withRerun(started(), 'none');
}

/** This step's mark and start values: its build-params as written, rerun-key, the workflow's commit and the message. */
function startStep(task: StartBuildTask, ctx: Context): StartStep {
  const params = Object.fromEntries(Object.entries(task['build-params'] ?? {}).map(([k, v]) => [k, v[0] ?? '']));
  const mark = { pipelineId: task['pipeline-id'], params, key: task['rerun-key'] };
  const { body, own } = startValues(params, ctx.workflow, mark);
  return { mark, values: body, ownMessage: own };
}

/** On a re-run, the build an earlier attempt of this step started, to follow; undefined: start a new one. */
async function continued(task: StartBuildTask, ctx: Context, step: StartStep, follow: BuildFollow): Promise<RerunBuild | undefined> {
  const pipeline = { projectId: task['project-id'], pipelineId: task['pipeline-id'] };
  const { [BUILD_MSG]: _message, ...values } = step.values;
  const workflow = ctx.workflow;
  try {
    return await continueEarlier(
      {
        ...pipeline,
        identity: stepIdentity(workflow, step.mark),
        prefix: workflow === undefined ? undefined : runPrefix(workflow, pipeline.pipelineId),
        attempt: Number(workflow?.runAttempt || 0),
        onRerun: task['on-rerun'],
        values,
        stopOnCancel: task['stop-on-cancel'],
        consoleUrl: follow.consoleUrl,
      },
      ctx,
    );
  } catch (e) {
    // A retry whose answer was lost names its build, and `rerun` is not said: it may have been retried.
    if (e instanceof RetryMayHaveBeenAppliedError)
      throw notApplied(e, 're-run: the retry may have been applied', buildOf({ ...pipeline, id: e.build.id }), ctx);
    // Nothing continued; a retry cancelled in flight carries its own outcome.
    throw notApplied(e, 're-run: nothing continued', buildOf({ ...pipeline, id: '' }), ctx, { rerun: 'none' });
  }
}

/** Starts a new build once; when the job was cancelled while the start was in flight, stops it and fails. */
async function startNew(task: StartBuildTask, ctx: Context, step: StartStep, follow: BuildFollow): Promise<Build> {
  const pipeline = { projectId: task['project-id'], pipelineId: task['pipeline-id'] };
  const user = () => ctx.tokens.user ?? 'the user';
  let started: StartResult;
  try {
    started = await startOnce({ ...pipeline, body: step.values, ownMessage: step.ownMessage, user, consoleUrl: follow.consoleUrl }, ctx);
  } catch (e) {
    throw await notStartedFailure(e, { pipeline, step, follow, ctx });
  }
  const { build } = started;
  ctx.log.info(
    `${started.how === 'answer' ? 'started' : 'found'} build #${build.num ?? '?'} (${build.id}) of pipeline ${pipeline.pipelineId}${build.url ? `: ${build.url}` : ''}`,
  );
  if (started.cancelled) throw await stopCancelled({ build, write: 'the start', stopOnCancel: task['stop-on-cancel'] }, ctx);
  return build;
}

/**
 * A start that left no build known, as the step fails with it: whether anything may have started,
 * the message to look for in the history; the check run, when bk-ci refused, completed saying why.
 */
async function notStartedFailure(
  error: unknown,
  start: { pipeline: { projectId: string; pipelineId: string }; step: StartStep; follow: BuildFollow; ctx: Context },
): Promise<unknown> {
  if (!(error instanceof ActionError) || error instanceof InputError) return error;
  const cancelled = error instanceof CancelledBeforeStartError;
  if (!cancelled && !(error instanceof MayHaveStartedError)) await start.follow.refused(error.message, start.pipeline);
  const words = startWords(error);
  const outcome = describeUnread(
    words.headline,
    buildOf({ ...start.pipeline, id: '' }),
    { conclusion: cancelled ? 'cancelled' : 'failure' },
    start.ctx,
  );
  const history = historyUrl(start.follow.consoleUrl, start.pipeline.projectId, start.pipeline.pipelineId);
  const where: [string, string][] = history ? [['History', history]] : [];
  outcome.blocks.push({
    kind: 'facts',
    rows: [['Started', words.started], ['Build message', start.step.values[BUILD_MSG] ?? ''], ...where],
  });
  return new OperationError(error.message, { ...outcome, status: statusOf(error) }, { cause: error });
}

/** The headline of a start that failed, and the summary's word on whether it started anything. */
function startWords(error: ActionError): { headline: string; started: string } {
  if (error instanceof MayHaveStartedError)
    return { headline: 'the build may have started', started: 'maybe: the start was sent and its answer lost' };
  if (error instanceof CancelledBeforeStartError)
    return { headline: 'cancelled before the start', started: 'no: the start was never sent' };
  if (error instanceof NotStartedError && !error.reached)
    return { headline: 'nothing was started', started: 'no: the start was never sent' };
  if (error instanceof NotStartedError) return { headline: 'the build did not start', started: 'no: bk-ci refused the start' };
  return { headline: 'the build did not start', started: 'no: the start was never sent' };
}

/** The `rerun` output (and a summary line) on an outcome, and on the outcome a failure carries. */
async function withRerun(run: Promise<Outcome<BuildOutput | CheckOutput>>, rerun: RerunOutput, said?: string): Promise<Outcome<Output>> {
  const mark = (outcome: Outcome<Output>): Outcome<Output> => {
    outcome.outputs.rerun = rerun;
    if (said !== undefined) outcome.blocks.unshift({ kind: 'facts', rows: [['Re-run', said]] });
    return outcome;
  };
  try {
    return mark(await run);
  } catch (e) {
    if (e instanceof OperationError) mark(e.outcome as Outcome<Output>);
    throw e;
  }
}
