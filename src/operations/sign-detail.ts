import type { Clock } from '../base/clock.ts';
import { countOf, formatDuration, formatElapsed, seconds } from '../base/duration.ts';
import { CancelledError, errorMessage, OperationError, ResponseFormatError, statusOf } from '../base/errors.ts';
import type { Log } from '../base/log.ts';
import type { Block, Cell, Outcome } from '../base/outcome.ts';
import { cut } from '../base/text.ts';
import { isHttpUrl } from '../base/url.ts';
import type { BkciApi } from '../bkci/client.ts';
import { readSignDetail, readSignDownloadUrl, SIGN_DETAIL, SIGN_DOWNLOAD_URL, type SignDetail } from '../bkci/signs.ts';
import { signInputs } from '../inputs/sign.ts';
import { changesTable, type PollEnd, type Progress, poll, troubleNote, type Watch } from '../wait/poll.ts';
import { defineOperation, waitRow } from './operation.ts';

const OUTPUTS = ['sign-status', 'sign-message', 'elapsed', 'polls', 'download-url'] as const;
type SignOutput = (typeof OUTPUTS)[number];

/** Waits for an IPA re-signing task: polls it until SUCCESS or FAIL, then reads the download URL if asked. */
export default defineOperation({
  inputs: signInputs.unwrap(),
  endpoints: [SIGN_DETAIL, SIGN_DOWNLOAD_URL],
  outputs: OUTPUTS,
  credentials: 'any',
  describe: (task, settings) => {
    const rows: [string, string][] = [['resign-id', task['resign-id']], waitRow(task.wait, settings.timeoutMs)];
    if (task.wait) rows.push(['poll-interval', formatDuration(settings.pollIntervalMs)]);
    return rows;
  },
  waits: (task) => task.wait,
  run: (task, ctx) =>
    signDetail(
      ctx.api,
      {
        resignId: task['resign-id'],
        wait: task.wait,
        downloadUrl: task['download-url'],
        timeoutMs: ctx.settings.timeoutMs,
        intervalMs: ctx.settings.pollIntervalMs,
        start: ctx.start,
      },
      ctx,
    ),
});

export interface SignParams {
  resignId: string;
  wait: boolean;
  timeoutMs: number;
  intervalMs: number;
  downloadUrl: boolean;
  /** When the step started (by `clock`); the deadline is start + timeout. */
  start: number;
}

export interface SignDeps {
  clock: Clock;
  log: Log;
  signal: AbortSignal;
  /** At most one "still RUNNING" line per this much time. Default 30 s. */
  heartbeatMs?: number;
}

/**
 * Reads the task, and with `wait` polls it until SUCCESS or FAIL (the shared poll loop: schedule,
 * deadline, heartbeat, passing failures). `RUNNING` is the only status bk-ci has besides those;
 * any other is warned about once and waited on.
 */
export async function signDetail(api: Pick<BkciApi, 'call'>, params: SignParams, deps: SignDeps): Promise<Outcome<SignOutput>> {
  const { clock, log } = deps;
  const progress: Progress<SignDetail> = { polls: 0, last: undefined, status: undefined, changes: [] };
  let downloadUrl: string | undefined;
  let status: number | undefined;
  const elapsed = (): number => clock.now() - params.start;
  const outcome = (headline: string): Outcome<SignOutput> => ({
    ...buildOutcome(headline, params, progress, elapsed(), downloadUrl),
    status,
  });

  if (params.wait)
    log.info(
      `waiting for re-sign task ${params.resignId}: timeout ${formatDuration(params.timeoutMs)}, a poll every ${formatDuration(params.intervalMs)}`,
    );
  let end: PollEnd;
  try {
    end = await poll(
      signWatch(api, params, log, (httpStatus) => {
        status = httpStatus ?? status;
      }),
      {
        start: params.start,
        timeoutMs: params.timeoutMs,
        intervalMs: params.intervalMs,
        wait: params.wait,
        clock,
        log,
        signal: deps.signal,
        ...(deps.heartbeatMs === undefined ? {} : { heartbeatMs: deps.heartbeatMs }),
      },
      progress,
    );
  } catch (cause) {
    const cancelled = cause instanceof CancelledError;
    status = statusOf(cause) ?? status;
    const message = cancelled
      ? `cancelled after ${formatElapsed(elapsed())}, last status ${progress.status ?? 'unknown'}; the task goes on on the server`
      : `re-sign task ${params.resignId}: ${errorMessage(cause)}`;
    throw new OperationError(message, outcome(`re-sign task ${params.resignId}: ${cancelled ? 'cancelled' : 'error'}`), { cause: cause });
  }
  const signStatus = progress.status ?? 'unknown';
  if (end === 'failed')
    throw new OperationError(
      `re-sign task ${params.resignId} failed: ${progress.last?.message || 'no message'}`,
      outcome(`re-sign task ${params.resignId}: FAIL`),
    );
  if (end === 'timeout')
    throw new OperationError(
      `re-sign task ${params.resignId} ${progress.last === undefined ? 'could not be read' : `is still ${signStatus} on the server`} after ${formatElapsed(elapsed())} (${countOf(progress.polls, 'poll')}, timeout ${formatDuration(params.timeoutMs)}). ` +
        `The step stopped waiting; the task goes on.${troubleNote(progress, clock.now())} bk-ci also answers RUNNING for an id it does not know, so check that resign-id is right.`,
      outcome(`re-sign task ${params.resignId}: timed out`),
    );

  if (signStatus === 'SUCCESS' && params.downloadUrl)
    downloadUrl = await readDownloadUrl(api, params, log, (httpStatus) => (status = httpStatus), outcome, elapsed);
  return outcome(`re-sign task ${params.resignId}: ${signStatus} after ${formatElapsed(elapsed())}, ${countOf(progress.polls, 'poll')}`);
}

/** The task as the poll loop reads it: one read, its status, and bk-ci's end (`seen` is told each HTTP status). */
function signWatch(
  api: Pick<BkciApi, 'call'>,
  params: SignParams,
  log: Log,
  seen: (status: number | undefined) => void,
): Watch<SignDetail> {
  let warnedUnknown = false;
  return {
    read: async () => {
      const reply = await readSignDetail(api, params.resignId).catch((error: unknown) => {
        seen(statusOf(error));
        throw error;
      });
      seen(reply.status);
      if (reply.data === undefined)
        throw new ResponseFormatError({
          method: 'GET',
          url: `re-sign task ${params.resignId}`,
          status: reply.status,
          detail: 'bk-ci answered without data',
        });
      return reply.data;
    },
    status: (detail) => detail.status,
    describe: (detail) => `${detail.status}${detail.message ? ` (${detail.message})` : ''}`,
    verdict: (detail) => {
      if (detail.status === 'SUCCESS') return 'done';
      if (detail.status === 'FAIL') return 'failed';
      if (detail.status !== 'RUNNING' && !warnedUnknown) {
        warnedUnknown = true;
        log.warning(
          `re-sign task ${params.resignId} has status "${detail.status}", which this action does not know; waiting on as for RUNNING`,
        );
      }
      return 'waiting';
    },
  };
}

/** The signed IPA's link, after SUCCESS: a failure to read it is a warning; a link that fails the URL check fails the step. */
async function readDownloadUrl(
  api: Pick<BkciApi, 'call'>,
  params: SignParams,
  log: Log,
  seen: (status: number) => void,
  outcome: (headline: string) => Outcome<SignOutput>,
  elapsed: () => number,
): Promise<string | undefined> {
  let url: string | undefined;
  try {
    const reply = await readSignDownloadUrl(api, params.resignId);
    seen(reply.status);
    url = reply.data;
  } catch (error) {
    if (error instanceof CancelledError)
      throw new OperationError(`cancelled after ${formatElapsed(elapsed())}, while reading the download URL`, outcome('cancelled'), {
        cause: error,
      });
    log.warning(`could not read the download URL of re-sign task ${params.resignId}: ${errorMessage(error)}`);
  }
  if (url === undefined) log.warning(`bk-ci gave no download URL for re-sign task ${params.resignId}`);
  else if (!isHttpUrl(url))
    throw new OperationError(
      `bk-ci gave a download URL for re-sign task ${params.resignId} that is not an absolute http(s) URL, so it is not set as an output: ${JSON.stringify(cut(url, 200))}`,
      outcome(`re-sign task ${params.resignId}: SUCCESS, download URL refused`),
    );
  else return url;
  return undefined;
}

function buildOutcome(
  headline: string,
  params: SignParams,
  progress: Progress<SignDetail>,
  elapsedMs: number,
  downloadUrl?: string,
): Outcome<SignOutput> {
  const message = progress.last?.message ?? '';
  const outputs: Outcome<SignOutput>['outputs'] = {
    'sign-status': progress.status ?? '',
    'sign-message': message,
    elapsed: seconds(elapsedMs),
    polls: String(progress.polls),
  };
  if (downloadUrl !== undefined) outputs['download-url'] = downloadUrl;
  const rows: [string, Cell][] = [
    ['Task', params.resignId],
    ['Status', progress.status ?? 'unknown'],
    ['Message', message],
    ['Elapsed', formatElapsed(elapsedMs)],
    ['Polls', String(progress.polls)],
  ];
  if (downloadUrl !== undefined) rows.push(['Download URL', { url: downloadUrl }]);
  const blocks: Block[] = [{ kind: 'facts', rows }, ...changesTable(progress, params.start)];
  return { headline, ...(progress.last === undefined ? {} : { data: progress.last }), outputs, blocks };
}
