// Starting a build once and never losing it: the start carries a message unique to this step;
// when bk-ci's answer is lost, the build is looked for by that message in the pipeline's history
// instead of being started again (docs/bkci/builds.md#finding-a-build-again-build_histories).
import { randomUUID } from 'node:crypto';
import { formatDuration, formatElapsed } from '../base/duration.ts';
import { ActionError, CancelledError, errorMessage, factsOf } from '../base/errors.ts';
import { headUnits } from '../base/text.ts';
import { type HistoryRow, readHistoryPage } from '../bkci/build-history.ts';
import { BUILD_MSG, BUILD_MSG_MAX, startBuild } from '../bkci/builds.ts';
import type { WorkflowContext } from '../runner/context.ts';
import { PAGE_PACE_MS, readPages } from '../wait/pages.ts';
import { type Build, type BuildContext, buildOf, buildUrl, historyUrl } from './build.ts';
import { MayHaveStartedError, notStarted } from './build-failures.ts';
import { type StepMark, stepIdentity, stepMessage } from './rerun-message.ts';

/** A start names its pipeline; the build's id comes with bk-ci's answer. */
export interface StartRequest {
  projectId: string;
  pipelineId: string;
  /** The start values as they go to bk-ci (build-params, the material, the message). */
  body: Record<string, string>;
  /** Whether the message is this step's own (unique), or one build-params set (maybe not unique). */
  ownMessage: boolean;
  /** The user bk-ci is asked as, for messages: known once the first call has its token. */
  user(): string;
  /** The console's root: the build's page, and the history where people look for a build that may have started. */
  consoleUrl: string | undefined;
}

/** What a start came to: the build, how it became known, and whether the job was cancelled while the start was in flight. */
export interface StartResult {
  build: Build;
  /** bk-ci's answer, or the history after the answer was lost. */
  how: 'answer' | 'history';
  /** The build must be stopped, if asked: the job was cancelled while the start was in flight. */
  cancelled: boolean;
}

/** What the step needs beside watching: a longer grace after a cancel while the start is in flight. */
export interface StartContext extends BuildContext {
  /** The step needs this long after a cancel signal to finish (the runner kills it 7.5 s after SIGINT); the function ends the hold. */
  holdExit(ms: number): () => void;
}

/** After a cancel, how long the start's answer is still waited for before the history is searched. */
export const ANSWER_GRACE_MS = 2000;
/** After a cancel, each look into the history (they are sent although the job is cancelled), and when. */
export const CANCELLED_LOOK_MS = 1200;
const CANCELLED_LOOKS_MS = [0, 300];
/** Each look when the job goes on: one attempt, no retry. */
const LOOK_MS = 5000;
/** Everything after a cancel fits in this: the answer's grace, two looks, a stop (1.2 s). */
const CANCEL_BUDGET_MS = 6800;
/** When the answer was lost, when to look (ms after): bk-ci writes the build before it answers, but a slow gateway may still be working. */
const LOOKS_MS = [0, 2000, 5000, 10_000, 20_000];

/**
 * A build message unique to this step: the GitHub run and job, what tells this step's build apart
 * (src/pipeline/rerun-message.ts), the attempt and a random mark.
 */
export function buildMessage(workflow: WorkflowContext | undefined, step?: StepMark, mark = randomUUID().slice(0, 13)): string {
  const identity = step === undefined ? undefined : stepIdentity(workflow, step);
  if (identity !== undefined) return stepMessage(identity, workflow?.runAttempt ?? '', mark);
  const tail = ` [${mark}]`;
  const head =
    workflow === undefined
      ? 'started by the bk-ci GitHub action'
      : `GitHub ${workflow.repository}${workflow.runId ? ` run ${workflow.runId}` : ''}${workflow.runAttempt ? ` attempt ${workflow.runAttempt}` : ''}${workflow.job ? ` job ${workflow.job}` : ''}`;
  return `${headUnits(head, BUILD_MSG_MAX - tail.length)}${tail}`;
}

/** The commit this workflow runs for, as bk-ci's custom trigger material, unless build-params sets it. */
export function startValues(
  params: Record<string, string>,
  workflow: WorkflowContext | undefined,
  step?: StepMark,
): { body: Record<string, string>; own: boolean } {
  const given = (k: string): boolean => k in params;
  const material =
    workflow === undefined
      ? {}
      : {
          ...(given('BK_CI_MATERIAL_ID') ? {} : { BK_CI_MATERIAL_ID: workflow.sha }),
          ...(given('BK_CI_MATERIAL_NAME') ? {} : { BK_CI_MATERIAL_NAME: `${workflow.repository}@${workflow.ref}` }),
          ...(given('BK_CI_MATERIAL_URL')
            ? {}
            : { BK_CI_MATERIAL_URL: `${workflow.serverUrl}/${workflow.repository}/commit/${workflow.sha}` }),
        };
  const own = !given(BUILD_MSG);
  return { body: { ...params, ...material, ...(own ? { [BUILD_MSG]: buildMessage(workflow, step) } : {}) }, own };
}

/**
 * The start failed and bk-ci said why, or it was never sent: no build exists. (No attempt is
 * under way when a cancel is heard: the one in flight outlives it.)
 */
const refused = (e: unknown): boolean => !factsOf(e).mayHaveApplied;

type BuildIdAnswer = NonNullable<Awaited<ReturnType<typeof startBuild>>['data']>;

/** The build the start led to, known by bk-ci's answer or found in the history, and its page. */
const started = (r: StartRequest, found: { id: string; num: number | undefined; executeCount: number | undefined }): Build =>
  buildOf({ ...r, id: found.id }, { ...found, url: buildUrl(r.consoleUrl, { ...r, id: found.id }) });

const fromAnswer = (request: StartRequest, answer: BuildIdAnswer, cancelled: boolean): StartResult => ({
  build: started(request, { id: answer.id, num: answer.num ?? undefined, executeCount: answer.executeCount ?? undefined }),
  how: 'answer',
  cancelled,
});

/**
 * POSTs build_start once. When its outcome is unknown (no answer, a cut one, request-timeout, a
 * 5xx, a cancel while it was in flight) it is not sent again: the build is looked for in the
 * pipeline's history by this step's message, and taken only when exactly one build has it.
 */
export async function startOnce(request: StartRequest, ctx: StartContext): Promise<StartResult> {
  const release = ctx.holdExit(CANCEL_BUDGET_MS);
  try {
    const result = await startOrFind(request, ctx);
    // A cancel before the build was known still owes its stop: the hold stays.
    if (!result.cancelled) release();
    return result;
  } catch (e) {
    release();
    throw e;
  }
}

async function startOrFind(request: StartRequest, ctx: StartContext): Promise<StartResult> {
  const call = startBuild(ctx.api, request, request.body);
  // An answer that comes late, while the history is searched after a cancel, still counts.
  let late: BuildIdAnswer | undefined;
  call.then(
    (reply) => {
      late = reply.data;
    },
    () => undefined,
  );
  let lost: unknown;
  try {
    const reply = await answerOrGrace(call, ctx);
    if (reply === undefined) lost = new ActionError(`no answer within ${formatDuration(ANSWER_GRACE_MS)} of the cancel`);
    else if (reply.data === undefined) lost = new ActionError('bk-ci answered the start without a build id', { status: reply.status });
    else return fromAnswer(request, reply.data, ctx.signal.aborted);
  } catch (e) {
    if (refused(e)) throw notStarted(e, { ...request, user: request.user() });
    lost = e;
  }
  const reason = errorMessage(lost);
  const history = historyUrl(request.consoleUrl, request.projectId, request.pipelineId);
  const mayHaveStarted = (found: string): MayHaveStartedError =>
    new MayHaveStartedError(
      `the build may have started: the answer to the start was lost (${reason}), and ${found}. Before running this step again, look in the pipeline's history${history ? ` (${history})` : ''} for a build with the message "${request.body[BUILD_MSG] ?? ''}", or the pipeline may run twice.`,
      { status: lost instanceof ActionError ? lost.status : undefined, cause: lost },
    );
  if (!request.ownMessage)
    throw mayHaveStarted(
      `build-params sets ${BUILD_MSG} itself, so the action cannot tell the build it started from others with that message`,
    );
  ctx.log.info(`the answer to the start was lost (${reason}); looking for the build by this step's message instead of starting it again`);
  const found = await lookFor(request, ctx, () => late);
  if ('answer' in found) return fromAnswer(request, found.answer, ctx.signal.aborted);
  if ('error' in found) throw mayHaveStarted(`looking for it in the pipeline's history failed: ${errorMessage(found.error)}`);
  const [row, ...others] = found.builds;
  if (row === undefined)
    throw mayHaveStarted(`no build with this step's message turned up in the pipeline's history within ${formatElapsed(found.searchedMs)}`);
  if (others.length > 0)
    throw mayHaveStarted(`${found.builds.length} builds carry this step's message (${found.builds.map((x) => x.id).join(', ')})`);
  ctx.log.info(`found the build this step started in the pipeline's history: #${row.buildNum ?? '?'} (${row.id})`);
  const build = started(request, { id: row.id, num: row.buildNum ?? undefined, executeCount: row.executeCount ?? undefined });
  return { build, how: 'history', cancelled: ctx.signal.aborted };
}

/** The answer; after a cancel, waited for a little longer, then undefined. (A retry's answer too: src/pipeline/rerun-retry.ts.) */
export async function answerOrGrace<T>(answer: Promise<T>, ctx: Pick<StartContext, 'signal' | 'clock'>): Promise<T | undefined> {
  if (!ctx.signal.aborted) {
    let onAbort = (): void => undefined;
    const aborted = new Promise<'aborted'>((resolve) => {
      onAbort = () => resolve('aborted');
      ctx.signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const first = await Promise.race([answer, aborted]);
      if (first !== 'aborted') return first;
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
    }
  }
  const timer = new AbortController();
  const graceOver = ctx.clock.sleep(ANSWER_GRACE_MS, timer.signal).then(
    () => undefined,
    () => undefined,
  );
  try {
    return await Promise.race([answer, graceOver]);
  } finally {
    timer.abort();
  }
}

/** What the history search came to: the builds with this step's message, the start's answer after all, or a failure. */
type SearchResult = { builds: HistoryRow[]; searchedMs: number } | { answer: BuildIdAnswer } | { error: unknown };

/**
 * Looks for builds with this step's message: five looks over about 20 seconds, each one attempt
 * of at most 5 s; after a cancel, two quick ones sent all the same. A late answer to the start
 * ends the search.
 */
async function lookFor(request: StartRequest, ctx: StartContext, late: () => BuildIdAnswer | undefined): Promise<SearchResult> {
  const { clock } = ctx;
  const message = request.body[BUILD_MSG] ?? '';
  const began = clock.now();
  const cancelled = ctx.signal.aborted;
  const looks = cancelled ? CANCELLED_LOOKS_MS : LOOKS_MS;
  let lastError: unknown;
  let answered = false;
  for (const [index, at] of looks.entries()) {
    const wait = began + at - clock.now();
    if (wait > 0) {
      const slept = await clock.sleep(wait, cancelled ? undefined : ctx.signal).then(
        () => true,
        () => false,
      );
      // Cancelled while waiting to look: the quick looks a cancel leaves time for.
      if (!slept) return lookFor(request, ctx, late);
    }
    const known = late();
    if (known !== undefined) return { answer: known };
    if (!cancelled && clock.now() > ctx.start + ctx.settings.timeoutMs) break;
    try {
      const builds = (await look(request, ctx, message)).filter((row) => row.buildMsg === message);
      answered = true;
      if (builds.length > 0 || index === looks.length - 1) return { builds, searchedMs: clock.now() - began };
    } catch (e) {
      if (e instanceof CancelledError && !cancelled) return lookFor(request, ctx, late);
      lastError = e;
    }
  }
  const known = late();
  if (known !== undefined) return { answer: known };
  return answered || lastError === undefined ? { builds: [], searchedMs: clock.now() - began } : { error: lastError };
}

/** The history's newest builds looked at for this step's: one page. */
const LOOK_PAGE = 50;

/**
 * One look into the pipeline's history: its first page, newest first (ours was started moments
 * ago; an old bk-ci that ignores buildMsg still lists it near the top, and the caller compares the
 * message exactly), through the one paging loop, so that a build the page lists twice is one build.
 */
async function look(request: StartRequest, ctx: StartContext, message: string): Promise<HistoryRow[]> {
  const listed = await readPages<HistoryRow>({
    read: async (page) => {
      const send = ctx.signal.aborted ? { detached: { timeoutMs: CANCELLED_LOOK_MS } } : { once: { timeoutMs: LOOK_MS } };
      return { items: (await readHistoryPage(ctx.api, request, { message, page, pageSize: LOOK_PAGE }, send)).rows };
    },
    key: (row) => row.id,
    pageSize: LOOK_PAGE,
    maxItems: LOOK_PAGE,
    maxPages: 1,
    paceMs: PAGE_PACE_MS,
    clock: ctx.clock,
    signal: ctx.signal,
    what: `the history of pipeline ${request.pipelineId}`,
  });
  return listed.items;
}
