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
import { stopAndSee } from '../pipeline/build-stop.ts';
import { describeUnread } from '../pipeline/outcome.ts';
import type { RerunOutput } from '../pipeline/rerun.ts';
import { continueEarlier, type Taken } from '../pipeline/rerun-continue.ts';
import type { StepMark } from '../pipeline/rerun-message.ts';
import { stepIdentity } from '../pipeline/rerun-message.ts';
import { CancelledBeforeStartError, MayHaveStartedError, type Started, startOnce, startValues } from '../pipeline/start.ts';
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
  const check = await openCheck(t, ctx, false);
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
    check?.follow({ id: b.id, url: w.url, pipelineId, rerun });
    return withCheck(check, () => watchBuild(w, ctx));
  };
  const rerun = {
    projectId,
    pipelineId,
    identity: stepIdentity(ctx.workflow, step),
    attempt: Number(ctx.workflow?.runAttempt || 0),
    onRerun: t['on-rerun'],
  };
  let earlier: Outcome<Output> | undefined;
  try {
    earlier = await continueEarlier(rerun, ctx, (b, out, said) => withRerun(follow(b, said), out, said));
  } catch (e) {
    if (!(e instanceof ActionError) || e instanceof OperationError || e instanceof InputError) throw e;
    const o = describeUnread('re-run: nothing continued', {
      projectId,
      pipelineId,
      start: ctx.start,
      id: '',
      num: undefined,
      executeCount: undefined,
      url: '',
      conclusion: 'failure',
      stopped: undefined,
      elapsedMs: ctx.clock.now() - ctx.start,
    });
    throw new OperationError(e.message, { ...o, outputs: { ...o.outputs, rerun: 'none' }, status: statusOf(e) }, { cause: e });
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
    o.blocks.push({ kind: 'facts', rows: [['Build message', body[BUILD_MSG] ?? ''], ...where] });
    throw new OperationError(e.message, { ...o, status: statusOf(e) }, { cause: e });
  }
  const url = buildUrl(consoleUrl, projectId, pipelineId, started.id);
  ctx.log.info(
    `${started.how === 'answer' ? 'started' : 'found'} build #${started.num ?? '?'} (${started.id}) of pipeline ${pipelineId}${url ? `: ${url}` : ''}`,
  );
  if (started.cancelled) {
    const stop = t['stop-on-cancel']
      ? await stopAndSee(ctx.api, { projectId, pipelineId, id: started.id }, ctx.clock, ctx.log.info)
      : { ended: false, said: `the build ${started.id} goes on in bk-ci (stop-on-cancel: false)`, status: undefined, shown: undefined };
    throw new OperationError(
      `cancelled while the start was in flight; ${stop.said}`,
      describeUnread(`build (${started.id}): cancelled`, {
        ...known,
        id: started.id,
        num: started.num,
        executeCount: started.executeCount,
        url,
        conclusion: stop.ended ? 'cancelled' : 'running',
        stopped: stop.shown ?? stop.said,
        last: stop.status,
        elapsedMs: ctx.clock.now() - ctx.start,
      }),
    );
  }
  return s.follow({ id: started.id, num: started.num, executeCount: started.executeCount });
}
