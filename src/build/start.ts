// Starting a build once and never losing it: the start carries a message unique to this step;
// when bk-ci's answer is lost, the build is looked for by that message in the pipeline's history
// instead of being started again (bkci-logs-artifacts-review.md §10).
import { randomUUID } from 'node:crypto';
import {
  BUILD_HISTORIES,
  BUILD_MSG,
  BUILD_MSG_MAX,
  BUILD_START,
  buildId,
  type HistoryPage,
  historyPage,
  startProblem,
} from '../bkci/builds.ts';
import { formatDuration } from '../duration.ts';
import {
  ActionError,
  AuthError,
  CancelledError,
  DeadlineError,
  errorMessage,
  HttpError,
  NetworkError,
  ServerSaidError,
  WrapperStatusError,
} from '../errors.ts';
import type { WorkflowContext } from '../runner/context.ts';
import type { BuildContext } from './watch.ts';

export interface StartRequest {
  projectId: string;
  pipelineId: string;
  /** The start values as they go to bk-ci (build-params, the material, the message). */
  body: Record<string, string>;
  /** Whether the message is this step's own (unique), or one build-params set (maybe not unique). */
  ownMessage: boolean;
  /** The user bk-ci is asked as, for messages: known once the first call has its token. */
  user(): string;
  /** Where people look for a build that may have started. */
  historyUrl: string;
}

export interface Started {
  id: string;
  num: number | undefined;
  executeCount: number | undefined;
  /** How the build became known: bk-ci's answer, or the history after the answer was lost. */
  how: 'answer' | 'history';
  /** The job was cancelled while the start was in flight: the build must be stopped, if asked. */
  cancelled: boolean;
}

/** What the step needs beside watching: a longer grace after a cancel while the start is in flight. */
export interface StartContext extends BuildContext {
  /** The step needs this long after a cancel signal to finish (the runner kills it 7.5 s after SIGINT); the function ends the hold. */
  holdExit(ms: number): () => void;
}

/** After a cancel, how long the start's answer is still waited for before the history is searched. */
const ANSWER_GRACE_MS = 2000;
/** After a cancel, each look into the history (they are sent although the job is cancelled). */
const CANCELLED_LOOK_MS = 1200;
/** Everything after a cancel fits in this: the answer's grace, two looks, a stop (1.2 s). */
export const CANCEL_BUDGET_MS = 6800;
/** When the answer was lost, when to look (ms after): bk-ci writes the build before it answers, but a slow gateway may still be working. */
const LOOKS_MS = [0, 2000, 5000, 10_000, 20_000];

/** A build message unique to this step: the GitHub run, its attempt, the job, and a random mark. */
export function buildMessage(w: WorkflowContext | undefined, mark = randomUUID().slice(0, 13)): string {
  const tail = ` [${mark}]`;
  const head =
    w === undefined
      ? 'started by the bk-ci GitHub action'
      : `GitHub ${w.repository}${w.runId ? ` run ${w.runId}` : ''}${w.runAttempt ? ` attempt ${w.runAttempt}` : ''}${w.job ? ` job ${w.job}` : ''}`;
  return `${[...head].slice(0, BUILD_MSG_MAX - tail.length).join('')}${tail}`;
}

/** The commit this workflow runs for, as bk-ci's custom trigger material, unless build-params sets it. */
export function startValues(
  params: Record<string, string>,
  w: WorkflowContext | undefined,
): { body: Record<string, string>; own: boolean } {
  const given = (k: string): boolean => k in params;
  const material =
    w === undefined
      ? {}
      : {
          ...(given('BK_CI_MATERIAL_ID') ? {} : { BK_CI_MATERIAL_ID: w.sha }),
          ...(given('BK_CI_MATERIAL_NAME') ? {} : { BK_CI_MATERIAL_NAME: `${w.repository}@${w.ref}` }),
          ...(given('BK_CI_MATERIAL_URL') ? {} : { BK_CI_MATERIAL_URL: `${w.serverUrl}/${w.repository}/commit/${w.sha}` }),
        };
  const own = !given(BUILD_MSG);
  return { body: { ...params, ...material, ...(own ? { [BUILD_MSG]: buildMessage(w) } : {}) }, own };
}

/** The start failed and bk-ci said why, or it was never sent: no build exists. */
function refused(e: unknown): boolean {
  if (e instanceof HttpError) return e.status < 500;
  if (e instanceof NetworkError) return e.beforeSend;
  // No attempt was under way when the job was cancelled (the one in flight outlives a cancel).
  return e instanceof WrapperStatusError || e instanceof CancelledError || e instanceof DeadlineError || e instanceof AuthError;
}

/**
 * POSTs build_start once. When its outcome is unknown (no answer, a cut one, request-timeout, a
 * 5xx, a cancel while it was in flight) it is not sent again: the build is looked for in the
 * pipeline's history by this step's message, and taken only when exactly one build has it.
 */
export async function startOnce(r: StartRequest, ctx: StartContext): Promise<Started> {
  const release = ctx.holdExit(CANCEL_BUDGET_MS);
  try {
    const started = await startOrFind(r, ctx);
    // A cancel before the build was known still owes its stop: the hold stays.
    if (!started.cancelled) release();
    return started;
  } catch (e) {
    release();
    throw e;
  }
}

async function startOrFind(r: StartRequest, ctx: StartContext): Promise<Started> {
  const { api, log } = ctx;
  const call = api.call({
    endpoint: BUILD_START,
    params: { projectId: r.projectId },
    query: { pipelineId: r.pipelineId },
    body: r.body,
    data: buildId,
    survivesCancel: true,
  });
  let cancelled = false;
  let lost: unknown;
  try {
    const reply = await answerOrGrace(call, ctx);
    cancelled = ctx.signal.aborted;
    if (reply === undefined) lost = new ActionError(`no answer within ${formatDuration(ANSWER_GRACE_MS)} of the cancel`);
    else if (reply.data === undefined) lost = new ActionError('bk-ci answered the start without a build id');
    else {
      const d = reply.data;
      return { id: d.id, num: d.num ?? undefined, executeCount: d.executeCount ?? undefined, how: 'answer', cancelled };
    }
  } catch (e) {
    cancelled = ctx.signal.aborted;
    if (refused(e)) {
      if (e instanceof ServerSaidError) {
        const said = startProblem(e.serverStatus, e.status, { ...r, user: r.user() }, e.serverMessage);
        if (said !== undefined)
          throw new ActionError(`the build did not start: ${said} (bk-ci said: ${e.serverMessage})`, { status: e.status, cause: e });
      }
      throw e;
    }
    lost = e;
  }
  const reason = errorMessage(lost);
  const mayHaveStarted = (found: string): ActionError =>
    new ActionError(
      `the build may have started: the answer to the start was lost (${reason}), and ${found}. Before running this step again, look in the pipeline's history${r.historyUrl ? ` (${r.historyUrl})` : ''} for a build with the message "${r.body[BUILD_MSG] ?? ''}", or the pipeline may run twice.`,
      { status: lost instanceof ActionError ? lost.status : undefined, cause: lost },
    );
  if (!r.ownMessage)
    throw mayHaveStarted(
      `build-params sets ${BUILD_MSG} itself, so the action cannot tell the build it started from others with that message`,
    );
  log.info(`the answer to the start was lost (${reason}); looking for the build by this step's message instead of starting it again`);
  const found = await lookFor(r, ctx, cancelled || ctx.signal.aborted);
  if ('error' in found) throw mayHaveStarted(`looking for it in the pipeline's history failed: ${errorMessage(found.error)}`);
  const [b, ...others] = found.builds;
  if (b === undefined)
    throw mayHaveStarted(
      `no build with this step's message turned up in the pipeline's history within ${formatDuration(found.searchedMs)}`,
    );
  if (others.length > 0)
    throw mayHaveStarted(`${found.builds.length} builds carry this step's message (${found.builds.map((x) => x.id).join(', ')})`);
  log.info(`found the build this step started in the pipeline's history: #${b.buildNum ?? '?'} (${b.id})`);
  return {
    id: b.id,
    num: b.buildNum ?? undefined,
    executeCount: b.executeCount ?? undefined,
    how: 'history',
    cancelled: cancelled || ctx.signal.aborted,
  };

  /** The answer; after a cancel, waited for a little longer, then undefined. */
  async function answerOrGrace<T>(p: Promise<T>, c: StartContext): Promise<T | undefined> {
    if (c.signal.aborted) return graceFor(p, c);
    let onAbort = (): void => undefined;
    const aborted = new Promise<'aborted'>((resolve) => {
      onAbort = () => resolve('aborted');
      c.signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const first = await Promise.race([p, aborted]);
      return first === 'aborted' ? graceFor(p, c) : first;
    } finally {
      c.signal.removeEventListener('abort', onAbort);
    }
  }

  async function graceFor<T>(p: Promise<T>, c: StartContext): Promise<T | undefined> {
    const timer = new AbortController();
    const late = c.clock.sleep(ANSWER_GRACE_MS, timer.signal).then(
      () => undefined,
      () => undefined,
    );
    try {
      return await Promise.race([p, late]);
    } finally {
      timer.abort();
    }
  }
}

type Row = NonNullable<HistoryPage['records']>[number];

/** Looks for builds with this step's message: a few times over some seconds, or twice, quickly, after a cancel. */
async function lookFor(
  r: StartRequest,
  ctx: StartContext,
  cancelled: boolean,
): Promise<{ builds: Row[]; searchedMs: number } | { error: unknown }> {
  const { api, clock } = ctx;
  const message = r.body[BUILD_MSG] ?? '';
  const began = clock.now();
  const looks = cancelled ? [0, 300] : LOOKS_MS;
  let lastError: unknown;
  let answered = false;
  for (const [i, at] of looks.entries()) {
    const wait = began + at - clock.now();
    if (wait > 0) {
      if (cancelled) await clock.sleep(wait).catch(() => undefined);
      else if (
        !(await clock.sleep(wait, ctx.signal).then(
          () => true,
          () => false,
        ))
      )
        return lookFor(r, ctx, true);
    }
    if (!cancelled && clock.now() > ctx.start + ctx.settings.timeoutMs) break;
    try {
      const reply = await api.call({
        endpoint: BUILD_HISTORIES,
        params: { projectId: r.projectId },
        // Newest first; ours was started moments ago. An old bk-ci that ignores buildMsg still
        // lists it near the top, and the message is compared here, exactly.
        query: { pipelineId: r.pipelineId, buildMsg: message, page: '1', pageSize: '50' },
        data: historyPage,
        ...(cancelled ? { detached: { timeoutMs: CANCELLED_LOOK_MS } } : {}),
      });
      answered = true;
      const builds = (reply.data?.records ?? []).filter((b) => b.buildMsg === message);
      if (builds.length > 0 || i === looks.length - 1) return { builds, searchedMs: clock.now() - began };
    } catch (e) {
      if (e instanceof CancelledError && !cancelled) return lookFor(r, ctx, true);
      lastError = e;
    }
  }
  return answered || lastError === undefined ? { builds: [], searchedMs: clock.now() - began } : { error: lastError };
}
