import type { Clock } from '../base/clock.ts';
import { ActionError, errorMessage, factsOf, OperationError, PagingError, ServerSaidError, statusOf } from '../base/errors.ts';
import type { Log } from '../base/log.ts';
import type { Block, Outcome } from '../base/outcome.ts';
import type { z } from '../base/schema.ts';
import {
  CALLBACK_DELETE,
  CALLBACKS_BATCH,
  CALLBACKS_LIST,
  type CallbackRow,
  type callbackResult,
  deleteCallback,
  readCallbackPage,
  registerCallbacks,
} from '../bkci/callbacks.ts';
import type { BkciApi } from '../bkci/client.ts';
import { callbackInputs } from '../inputs/callbacks.ts';
import { PAGE_PACE_MS, readPages } from '../wait/pages.ts';
import { defineOperation } from './operation.ts';

const OUTPUTS = ['success-events', 'failure-events', 'reenabled-events', 'removed-events'] as const;
type CallbackOutput = (typeof OUTPUTS)[number];

const PAGE_SIZE = 100;

/**
 * A refusal of a right, said as the right: listing needs a project member (bk-ci 2101133),
 * deleting and registering a manager (2101104); the spec says 403 for either.
 */
function rightMissing(error: unknown, what: string, right: 'member' | 'manager', projectId: string): unknown {
  if (!(error instanceof ServerSaidError) || !(error.serverStatus === 2101133 || error.serverStatus === 2101104 || error.status === 403))
    return error;
  const needs =
    right === 'member'
      ? `project membership, and the user is not a member of project ${projectId}`
      : `a manager of project ${projectId}, and the user is not one`;
  return new ActionError(`${what} needs ${needs} (bk-ci ${error.serverStatus ?? error.status}: ${error.serverMessage})`, {
    status: error.status,
    cause: error,
  });
}

/** More callbacks than any project registers; past it the list is refused, not held. */
const MAX_CALLBACKS = 20_000;

/**
 * Every callback of the project, each once, all pages, paced. A list that may be incomplete is a
 * failure: a disabled callback it misses would stay disabled.
 */
async function listAll(api: BkciApi, projectId: string, clock: Clock, signal: AbortSignal): Promise<CallbackRow[]> {
  const listed = await readPages({
    read: async (page) => {
      const read = await readCallbackPage(api, projectId, { page, pageSize: PAGE_SIZE }).catch((error: unknown) => {
        throw rightMissing(error, 'listing the callbacks', 'member', projectId);
      });
      return { items: read.rows, total: read.count };
    },
    key: (row) => row.id,
    pageSize: PAGE_SIZE,
    maxItems: MAX_CALLBACKS,
    paceMs: PAGE_PACE_MS,
    clock,
    signal,
    what: `the callbacks of project ${projectId}`,
  });
  const gap = listed.incomplete;
  if (gap !== undefined)
    throw new PagingError(`${gap.said}; nothing was deleted or registered`, { cause: gap.cause, status: statusOf(gap.cause) });
  return listed.items;
}

/**
 * Registers the URL for the events, and makes sure each one is enabled. bk-ci's circuit breaker
 * disables a callback whose deliveries keep failing, and registering the same URL and event again
 * only rotates the secret: a disabled one is deleted first, then re-created by the batch. With
 * replace-events, this URL's callbacks for other events are deleted too; other URLs never.
 * Nothing is deleted unless the list succeeded; a failure half way says what was done.
 */
export default defineOperation({
  inputs: callbackInputs.unwrap(),
  endpoints: [CALLBACKS_LIST, CALLBACK_DELETE, CALLBACKS_BATCH],
  outputs: OUTPUTS,
  credentials: 'any',
  describe: (task) => [
    ['project-id', task['project-id']],
    ['callback-url', task['callback-url']],
    ['region', task.region],
    ['events', task.events.join(', ')],
    ['replace-events', String(task['replace-events'])],
  ],
  waits: () => false,
  async run(task, { api, log, clock, signal }) {
    const projectId = task['project-id'];
    const url = task['callback-url'];
    const all = await listAll(api, projectId, clock, signal);
    const rows = all.filter((r) => r.url === url);
    const disabled = rows.filter((r) => !r.enable && task.events.includes(r.event));
    const stale = task['replace-events'] ? rows.filter((r) => !task.events.includes(r.event)) : [];
    // Disabled callbacks deleted to be created again: re-enabled only once the batch has created them.
    const deleted: string[] = [];
    const removed: string[] = [];
    let status: number | undefined;
    const outcome = (headline: string, result?: z.infer<typeof callbackResult>, lost = false): Outcome<CallbackOutput> =>
      describe(headline, task, { deleted, removed, result, disabled: disabled.map((r) => r.event), lost }, status);
    const deletedSoFar = (): string => [...deleted, ...removed].join(', ');

    for (const [row, done] of [...disabled.map((r) => [r, deleted] as const), ...stale.map((r) => [r, removed] as const)]) {
      try {
        status = (await deleteCallback(api, projectId, row.id)) ?? status;
      } catch (error) {
        const left = [...disabled, ...stale].filter((r) => !deleted.includes(r.event) && !removed.includes(r.event)).map((r) => r.event);
        throw deletionFailed(error, row.event, left, { projectId, url, soFar: deletedSoFar(), outcome: outcome('callbacks half updated') });
      }
      done.push(row.event);
    }
    sayDeleted(log, deleted, removed);

    const registration = { url, region: task.region, events: task.events, secretToken: task['secret-token'] };
    const reply = await registerCallbacks(api, projectId, registration).catch((cause: unknown) => {
      throw registrationFailed(cause, deleted, { projectId, url, soFar: deletedSoFar(), outcome });
    });
    status = reply.status;
    const failed = Object.entries(reply.data?.failureEvents ?? {});
    const result = outcome(
      `registered ${reply.data?.successEvents?.length ?? 0} of ${task.events.length} callbacks for ${projectId}`,
      reply.data,
    );
    const done = deleted.length + removed.length > 0 ? { done: `deleted the callbacks of ${url} for ${deletedSoFar()}` } : {};
    if (reply.data === undefined) throw new OperationError('bk-ci answered the callback batch without a result', { ...result, ...done });
    if (failed.length > 0)
      throw new OperationError(
        `${failed.length} of ${task.events.length} callbacks failed: ${failed.map(([e, why]) => `${e} (${why})`).join('; ')}`,
        { ...result, ...done },
      );
    return result;
  },
});

/** What a failure of the step's writes says of them: the project, the URL, what was deleted before it. */
interface WritesSoFar<T> {
  projectId: string;
  url: string;
  /** The events whose callbacks were deleted, "" when none. */
  soFar: string;
  outcome: T;
}

/** A deletion that failed half way, as the step fails with it: what was and was not deleted, and whether this one may have been. */
function deletionFailed(
  error: unknown,
  event: string,
  left: readonly string[],
  writes: WritesSoFar<Outcome<CallbackOutput>>,
): OperationError {
  const { projectId, url, soFar } = writes;
  // No answer (a cancel with it on its way, found through every wrapper; a timeout) or a 5xx: it may be gone.
  const maybe = answerLost(error) ? ` (the deletion of ${event} was sent and its outcome is unknown: it may have been applied)` : '';
  return new OperationError(
    `${errorMessage(rightMissing(error, 'deleting a callback', 'manager', projectId))}. Deleted so far: ${soFar || 'none'}; not deleted: ${left.join(', ')}${maybe}; nothing was registered. Running the step again finishes the job.`,
    { ...writes.outcome, ...(soFar === '' ? {} : { done: `deleted the callbacks of ${url} for ${soFar}` }) },
    { cause: error },
  );
}

/** A batch that failed: bk-ci's reason alone when nothing was deleted before it, else what was deleted and whether it may be registered. */
function registrationFailed(
  cause: unknown,
  deleted: readonly string[],
  writes: WritesSoFar<(headline: string, result: undefined, lost: boolean) => Outcome<CallbackOutput>>,
): unknown {
  const { projectId, url, soFar } = writes;
  const error = rightMissing(cause, 'registering callbacks', 'manager', projectId);
  if (soFar === '') return error;
  const lost = answerLost(cause);
  const headline = lost ? 'callbacks deleted, their re-creation unknown' : 'callbacks deleted, not re-created';
  return new OperationError(
    `${errorMessage(error)}. Deleted before it: ${soFar}${afterDeleted(lost, deleted)}`,
    { ...writes.outcome(headline, undefined, lost), done: `deleted the callbacks of ${url} for ${soFar}` },
    { cause },
  );
}

/** What the deletions before the batch were for. */
function sayDeleted(log: Log, deleted: readonly string[], removed: readonly string[]): void {
  if (deleted.length > 0)
    log.info(
      `re-enabling ${deleted.join(', ')}: bk-ci had disabled them after failed deliveries, and registering again does not enable them`,
    );
  if (removed.length > 0) log.info(`removed ${removed.join(', ')}: no longer in events (replace-events)`);
}

function describe(
  headline: string,
  task: { 'project-id': string; 'callback-url': string; region: string; events: string[] },
  done: { deleted: string[]; removed: string[]; disabled: string[]; result: z.infer<typeof callbackResult> | undefined; lost: boolean },
  status: number | undefined,
): Outcome<CallbackOutput> {
  const success = done.result?.successEvents ?? [];
  const failure = done.result?.failureEvents ?? {};
  // Re-enabled: deleted while disabled, and created again by the batch. Nothing else.
  const reenabled = done.deleted.filter((event) => success.includes(event));
  const state = (event: string): string =>
    reenabled.includes(event) ? 're-enabled' : done.disabled.includes(event) ? 'disabled, not yet re-created' : 'registered';
  const rows = [
    ...success.map((event) => [
      event,
      state(event),
      reenabled.includes(event) ? 'bk-ci had disabled it after failed deliveries; deleted and created again' : '',
    ]),
    ...Object.entries(failure).map(([event, why]) => [event, 'failed', why]),
    ...done.deleted
      .filter((e) => !success.includes(e) && !(e in failure))
      .map((e) => (done.lost ? [e, 'deleted, maybe re-created', LOST_ROW] : [e, 'deleted, not re-created', NOT_RECREATED_ROW])),
    ...done.removed.map((e) => [e, 'removed', 'not in events (replace-events)']),
  ];
  const blocks: Block[] = [
    {
      kind: 'facts',
      rows: [
        ['Project', task['project-id']],
        ['Callback URL', task['callback-url']],
        ['Region', task.region],
      ],
    },
    { kind: 'table', title: 'Events', headers: ['Event', 'Result', 'Reason'], rows },
  ];
  return {
    headline,
    ...(done.result === undefined ? {} : { data: { successEvents: success, failureEvents: failure } }),
    outputs: {
      'success-events': JSON.stringify(success),
      'failure-events': JSON.stringify(failure),
      'reenabled-events': JSON.stringify(reenabled),
      'removed-events': JSON.stringify(done.removed),
    },
    blocks,
    status,
  };
}

const NOT_RECREATED_ROW = 'bk-ci had disabled it; it was deleted to be created again, and is not registered now';
const LOST_ROW =
  "bk-ci had disabled it; it was deleted to be created again, and the registration's outcome is unknown: it may be registered";

/**
 * Whether a write's outcome is unknown (no answer: a timeout, a dropped connection, a cut body, a
 * cancel while it was on its way; or a 5xx): bk-ci may have applied it (`factsOf`). A 4xx or
 * bk-ci's own refusal is an answer: it was not.
 */
function answerLost(cause: unknown): boolean {
  const facts = factsOf(cause);
  return facts.inFlight !== undefined || facts.mayHaveApplied;
}

/** What follows the callbacks deleted before a batch that failed: not registered now, or maybe registered when its outcome is unknown. */
function afterDeleted(lost: boolean, deleted: readonly string[]): string {
  const recreated = deleted.length > 0 ? `; the disabled callbacks for ${deleted.join(', ')} were deleted to be created again` : '';
  if (lost)
    return `${recreated}; the registration was sent and its outcome is unknown, so it may have been applied: look at the project's callbacks before running the step again.`;
  return `${recreated}${recreated === '' ? '' : ' and are not registered now'}: run the step again.`;
}
