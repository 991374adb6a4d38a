import { formatDuration } from '../base/duration.ts';
import { ActionError, InputError, OperationError, statusOf } from '../base/errors.ts';
import { z } from '../base/schema.ts';
import { BUILD_DETAIL, BUILD_HISTORIES, BUILD_START, BUILD_STATUS, BUILD_STOP } from '../bkci/build-endpoints.ts';
import { BUILD_MSG } from '../bkci/builds.ts';
import {
  BUILD_OUTPUTS,
  buildUrl,
  CHECK_OUTPUTS,
  checkInputs,
  checkProblems,
  consoleRoot,
  followInputs,
  historyUrl,
  pipelineIdInput,
  SIGHT_ENDPOINTS,
} from '../build/inputs.ts';
import { describeUnread } from '../build/outcome.ts';
import { sightOptions } from '../build/sight.ts';
import { CancelledBeforeStartError, MayHaveStartedError, type Started, startOnce, startValues } from '../build/start.ts';
import { stopBuild, watchBuild } from '../build/watch.ts';
import { bool, segment, textMapping } from '../inputs/fields.ts';
import { openCheck, withCheck } from './build-check.ts';
import { type Context, defineOperation } from './operation.ts';

/** `build-params`: names to text, exactly as written (bk-ci takes Map<String, String>). */
const buildParams = textMapping('build-params', {
  lists: false,
  what: 'a text, a number or a boolean: bk-ci takes every start parameter as text',
});

/** Starts a pipeline once and, with wait, follows its build to the end; stops it if the job is cancelled. */
const inputs = z.object({
  'project-id': segment('project-id'),
  'pipeline-id': pipelineIdInput,
  'build-params': buildParams.optional(),
  'stop-on-cancel': bool('stop-on-cancel').default(true),
  ...followInputs,
  ...checkInputs,
});

/** The inputs as parsed: what the run gets. */
export type StartBuildTask = z.output<typeof inputs>;

export default defineOperation({
  inputs,
  endpoints: [BUILD_START, BUILD_STATUS, BUILD_STOP, BUILD_DETAIL, BUILD_HISTORIES, ...SIGHT_ENDPOINTS],
  outputs: [...BUILD_OUTPUTS, ...CHECK_OUTPUTS],
  credentials: 'any',
  describe: (t, settings) => [
    ['project-id', t['project-id']],
    ['pipeline-id', t['pipeline-id']],
    ['build-params', Object.keys(t['build-params'] ?? {}).join(', ')],
    ['wait', t.wait ? `yes, up to ${formatDuration(settings.timeoutMs)}` : 'no'],
  ],
  waits: (t) => t.wait,
  check: (t) => checkProblems(t),
  run: (t, ctx) => runStartBuild(t, ctx),
});

/** What the step does once its inputs are read. */
async function runStartBuild(t: StartBuildTask, ctx: Context) {
  const projectId = t['project-id'];
  const pipelineId = t['pipeline-id'];
  const params = Object.fromEntries(Object.entries(t['build-params'] ?? {}).map(([k, v]) => [k, v[0] ?? '']));
  const { body, own } = startValues(params, ctx.workflow);
  const consoleUrl = consoleRoot(t['console-url'], ctx.settings.gateway, ctx.settings.baseUrl, ctx.log);
  const history = historyUrl(consoleUrl, projectId, pipelineId);
  const known = { projectId, pipelineId, start: ctx.start };
  // Loaded before the start is sent, so that the check appears as soon as bk-ci has the build.
  const check = await openCheck(t, ctx, false);
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
      ? await stopBuild(ctx.api, projectId, pipelineId, started.id, ctx.log.info)
      : { ended: false, said: `the build ${started.id} goes on in bk-ci (stop-on-cancel: false)` };
    throw new OperationError(
      `cancelled while the start was in flight; ${stop.said}`,
      describeUnread(`build (${started.id}): cancelled`, {
        ...known,
        id: started.id,
        num: started.num,
        executeCount: started.executeCount,
        url,
        conclusion: stop.ended ? 'cancelled' : 'running',
        stopped: stop.said,
        elapsedMs: ctx.clock.now() - ctx.start,
      }),
    );
  }
  check?.follow({ id: started.id, url, pipelineId });
  return withCheck(check, () =>
    watchBuild(
      {
        projectId,
        pipelineId,
        id: started.id,
        num: started.num,
        executeCount: started.executeCount,
        wait: t.wait,
        consoleUrl,
        url,
        stopOnCancel: t['stop-on-cancel'],
        onReview: t['on-review'],
        sight: sightOptions(t),
        onView: check?.onView,
      },
      ctx,
    ),
  );
}
