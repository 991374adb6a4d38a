import { ActionError, InputError, OperationError, statusOf } from '../base/errors.ts';
import type { Outcome } from '../base/outcome.ts';
import type { z } from '../base/schema.ts';
import { BUILD_DETAIL, BUILD_HISTORIES, BUILD_MSG, BUILD_RETRY, BUILD_START, BUILD_STATUS, BUILD_STOP } from '../bkci/builds.ts';
import type { BuildCheck } from '../github/check.ts';
import { checkProblems, startBuildInputs } from '../inputs/build.ts';
import { downloadProblems } from '../inputs/download.ts';
import { BUILD_OUTPUTS, buildUrl, CHECK_OUTPUTS, consoleRoot, historyUrl, SIGHT_ENDPOINTS } from '../pipeline/build-declarations.ts';
import { filesAsked } from '../pipeline/build-download.ts';
import { reportOptions } from '../pipeline/build-report.ts';
import { notApplied, stopCancelled } from '../pipeline/cancelled-write.ts';
import { describeUnread } from '../pipeline/outcome.ts';
import type { RerunOutput } from '../pipeline/rerun.ts';
import { continueEarlier, type Taken } from '../pipeline/rerun-continue.ts';
import type { StepMark } from '../pipeline/rerun-message.ts';
import { runPrefix, stepIdentity } from '../pipeline/rerun-message.ts';
import { type Started, startOnce, startValues } from '../pipeline/start.ts';
import { CancelledBeforeStartError, MayHaveStartedError, NotStartedError } from '../pipeline/start-failures.ts';
import { type Watched, watchBuild } from '../pipeline/watch.ts';
import { type CheckOutput, openCheck, withCheck } from './build-check.ts';
import { type Context, defineOperation, waitRow } from './operation.ts';

/** The inputs as parsed: what the run gets. */
export type StartBuildTask = z.output<typeof startBuildInputs>;

/** Starts a pipeline once and, with wait, follows its build to the end; stops it if the job is cancelled. */
export default defineOperation({
  inputs: startBuildInputs,
  endpoints: [BUILD_START, BUILD_STATUS, BUILD_STOP, BUILD_DETAIL, BUILD_HISTORIES, BUILD_RETRY, ...SIGHT_ENDPOINTS],
  outputs: [...BUILD_OUTPUTS, 'rerun', ...CHECK_OUTPUTS],
  credentials: 'any',
  describe: (t, settings) => [
    ['project-id', t['project-id']],
    ['pipeline-id', t['pipeline-id']],
    ['build-params', Object.keys(t['build-params'] ?? {}).join(', ')],
    waitRow(t.wait, settings.timeoutMs),
    ['on-rerun', t['on-rerun']],
  ],
  waits: (t) => t.wait,
  check: (t, settings) => [...checkProblems(t), ...downloadProblems(t, settings, { waitsForEnd: true })],
  run: (t, ctx) => runStartBuild(t, ctx),
});

type Output = BuildOutputs | CheckOutput | 'rerun';
type BuildOutputs = (typeof BUILD_OUTPUTS)[number];

/** The `rerun` output (and a summary line) on an outcome, and on the outcome a failure carries. */
async function withRerun(run: Promise<Outcome<BuildOutputs | CheckOutput>>, rerun: RerunOutput, said?: string): Promise<Outcome<Output>> {
  const mark = (o: Outcome<Output>): Outcome<Output> => {
    o.outputs.rerun = rerun;
    if (said !== undefined) o.blocks.unshift({ kind: 'facts', rows: [['Re-run', said]] });
    return o;
  };
  try {
    return mark(await run);
  } catch (e) {
    if (e instanceof OperationError) mark(e.outcome as Outcome<Output>);
    throw e;
  }
}

/** What the step does once its inputs are read: on a re-run the earlier attempt's build, else a new one. */
async function runStartBuild(t: StartBuildTask, ctx: Context): Promise<Outcome<Output>> {
  const projectId = t['project-id'];
  const pipelineId = t['pipeline-id'];
  const params = Object.fromEntries(Object.entries(t['build-params'] ?? {}).map(([k, v]) => [k, v[0] ?? '']));
  const step = { pipelineId, params, key: t['rerun-key'] };
  const consoleUrl = consoleRoot(t['console-url'], ctx.settings.gateway, ctx.settings.baseUrl, ctx.log);
  // Loaded before anything is sent, so that the check appears as soon as bk-ci has the build.
  const check = await openCheck(t, ctx);
  const watched = (b: Taken): Watched => ({
    projectId,
    pipelineId,
    ...b,
    wait: t.wait,
    consoleUrl,
    url: buildUrl(consoleUrl, projectId, pipelineId, b.id),
    stopOnCancel: t['stop-on-cancel'],
    onReview: t['on-review'],
    report: reportOptions(t),
    download: filesAsked(t, ctx, consoleUrl),
    onView: check?.onView,
  });
  /** Follows the build, its check run (when `check` is on) completed with the step's outcome. */
  const follow = (b: Taken, rerun?: string): Promise<Outcome<BuildOutputs | CheckOutput>> => {
    const w = watched(b);
    // An earlier attempt's build may have its check run on the commit already (left in progress).
    check?.follow({ id: b.id, url: w.url, pipelineId, rerun, lookFirst: rerun !== undefined });
    return withCheck(check, ctx, () => watchBuild(w, ctx));
  };
  const { [BUILD_MSG]: _message, ...values } = startValues(params, ctx.workflow, step).body;
  const rerun = {
    projectId,
    pipelineId,
    identity: stepIdentity(ctx.workflow, step),
    prefix: ctx.workflow === undefined ? undefined : runPrefix(ctx.workflow, pipelineId),
    attempt: Number(ctx.workflow?.runAttempt || 0),
    onRerun: t['on-rerun'],
    values,
    stopOnCancel: t['stop-on-cancel'],
    url: (id: string) => buildUrl(consoleUrl, projectId, pipelineId, id),
  };
  let earlier: Outcome<Output> | undefined;
  try {
    earlier = await continueEarlier(rerun, ctx, (b, out, said) => withRerun(follow(b, said), out, said));
  } catch (e) {
    // Nothing continued; a retry cancelled in flight carries its own outcome.
    throw notApplied(e, 're-run: nothing continued', { projectId, pipelineId }, ctx, { rerun: 'none' });
  }
  return earlier ?? withRerun(startNew(t, ctx, { params, step, consoleUrl, check, follow }), 'none');
}

/** Starts a new build once, then follows it; stops it when the job was cancelled while the start was in flight. */
async function startNew(
  t: StartBuildTask,
  ctx: Context,
  s: {
    params: Record<string, string>;
    step: StepMark;
    consoleUrl: string | undefined;
    check: BuildCheck | undefined;
    follow: (b: Taken) => Promise<Outcome<BuildOutputs | CheckOutput>>;
  },
): Promise<Outcome<BuildOutputs | CheckOutput>> {
  const projectId = t['project-id'];
  const pipelineId = t['pipeline-id'];
  const consoleUrl = s.consoleUrl;
  const { body, own } = startValues(s.params, ctx.workflow, s.step);
  const history = historyUrl(consoleUrl, projectId, pipelineId);
  const known = { projectId, pipelineId, start: ctx.start };
  const check = s.check;
  let started: Started;
  try {
    started = await startOnce(
      { projectId, pipelineId, body, ownMessage: own, user: () => ctx.tokens.user ?? 'the user', historyUrl: history },
      ctx,
    );
  } catch (e) {
    if (!(e instanceof ActionError) || e instanceof InputError) throw e;
    const cancelled = e instanceof CancelledBeforeStartError;
    if (!cancelled && !(e instanceof MayHaveStartedError)) await check?.refused(e.message, pipelineId, history);
    const o = describeUnread(
      e instanceof MayHaveStartedError
        ? 'the build may have started'
        : cancelled
          ? 'cancelled before the start'
          : e instanceof NotStartedError && !e.reached
            ? 'nothing was started'
            : 'the build did not start',
      {
        ...known,
        id: '',
        num: undefined,
        executeCount: undefined,
        url: '',
        conclusion: cancelled ? 'cancelled' : 'failure',
        stopped: undefined,
        elapsedMs: ctx.clock.now() - ctx.start,
      },
    );
    const where: [string, string][] = history ? [['History', history]] : [];
    o.blocks.push({ kind: 'facts', rows: [['Started', startedRow(e)], ['Build message', body[BUILD_MSG] ?? ''], ...where] });
    throw new OperationError(e.message, { ...o, status: statusOf(e) }, { cause: e });
  }
  const url = buildUrl(consoleUrl, projectId, pipelineId, started.id);
  ctx.log.info(
    `${started.how === 'answer' ? 'started' : 'found'} build #${started.num ?? '?'} (${started.id}) of pipeline ${pipelineId}${url ? `: ${url}` : ''}`,
  );
  if (started.cancelled)
    throw await stopCancelled({ ...known, ...started, url, write: 'the start', stopOnCancel: t['stop-on-cancel'] }, ctx);
  return s.follow({ id: started.id, num: started.num, executeCount: started.executeCount });
}

/** The summary's word on whether a start that failed started anything. */
function startedRow(e: unknown): string {
  if (e instanceof MayHaveStartedError) return 'maybe: the start was sent and its answer lost';
  if (e instanceof NotStartedError && e.reached) return 'no: bk-ci refused the start';
  return 'no: the start was never sent';
}
