import { z } from 'zod';
import { utcTime } from '../auth.ts';
import type { Clock } from '../clock.ts';
import { formatDuration } from '../duration.ts';
import type { BkciApi } from '../http/api.ts';
import { CancelledError } from '../http/errors.ts';
import type { Log } from '../log.ts';
import { type Block, errorMessage, OperationError, type Outcome } from '../outcome.ts';
import { plain } from '../text.ts';

const signDetailData = z.object({
  resignId: z.string().nullish(),
  status: z.string(),
  message: z.string().nullish(),
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

interface Progress {
  polls: number;
  status: string | undefined;
  message: string;
  data: unknown;
  changes: { at: number; status: string }[];
  downloadUrl?: string;
}

/**
 * Reads the task, and with `wait` polls it at start + k·interval until SUCCESS or FAIL. The last
 * poll is at the deadline, not before it; request time counts against the timeout.
 */
export async function signDetail(api: Pick<BkciApi, 'call'>, p: SignParams, d: SignDeps): Promise<Outcome> {
  const { clock, log } = d;
  const deadline = p.start + p.timeoutMs;
  const heartbeatMs = d.heartbeatMs ?? 30_000;
  const progress: Progress = { polls: 0, status: undefined, message: '', data: undefined, changes: [] };
  const elapsed = (): number => clock.now() - p.start;
  const outcome = (headline: string): Outcome => buildOutcome(headline, p, progress, elapsed());

  if (p.wait)
    log.info(
      `waiting for re-sign task ${p.resignId}: timeout ${formatDuration(p.timeoutMs)}, a poll every ${formatDuration(p.intervalMs)}`,
    );
  let lastLine = clock.now();
  let warnedUnknown = false;
  try {
    for (;;) {
      const pollAt = clock.now();
      const detail = await api.call({ method: 'GET', path: ['sign', 'ipa', p.resignId, 'detail'], data: signDetailData });
      progress.polls++;
      if (detail === undefined) throw new Error(`bk-ci answered without data for re-sign task ${p.resignId}`);
      progress.data = detail;
      progress.message = detail.message ?? '';
      log.debug(`poll ${progress.polls}: ${detail.status} ${plain(progress.message)}`);
      if (detail.status !== progress.status) {
        progress.changes.push({ at: clock.now(), status: detail.status });
        log.info(`${formatDuration(elapsed())}: ${plain(detail.status)}${progress.message ? ` (${plain(progress.message)})` : ''}`);
        lastLine = clock.now();
        progress.status = detail.status;
      }
      if (detail.status === 'SUCCESS') break;
      if (detail.status === 'FAIL') {
        throw new OperationError(
          `re-sign task ${p.resignId} failed: ${plain(progress.message) || 'no message'}`,
          outcome(`re-sign task ${p.resignId}: FAIL`),
        );
      }
      if (detail.status !== 'RUNNING' && !warnedUnknown) {
        warnedUnknown = true;
        log.warning(
          `re-sign task ${p.resignId} has status "${plain(detail.status)}", which this action does not know; waiting on as for RUNNING`,
        );
      }
      if (!p.wait) break;
      if (pollAt >= deadline) {
        throw new OperationError(
          `re-sign task ${p.resignId} is still ${plain(detail.status)} on the server after ${formatDuration(elapsed())} (${progress.polls} polls, timeout ${formatDuration(p.timeoutMs)}). ` +
            'The step stopped waiting; the task goes on. bk-ci also answers RUNNING for an id it does not know, so check that resign-id is right.',
          outcome(`re-sign task ${p.resignId}: timed out`),
        );
      }
      if (clock.now() - lastLine >= heartbeatMs) {
        log.info(`still ${plain(detail.status)} after ${formatDuration(elapsed())}, ${progress.polls} polls`);
        lastLine = clock.now();
      }
      const next = Math.min(pollAt + p.intervalMs, deadline);
      await clock.sleep(Math.max(0, next - clock.now()), d.signal).catch(() => {
        throw new CancelledError();
      });
    }
  } catch (e) {
    if (e instanceof OperationError) throw e;
    const message =
      e instanceof CancelledError
        ? `cancelled after ${formatDuration(elapsed())}, last status ${progress.status ?? 'unknown'}; the task goes on on the server`
        : `re-sign task ${p.resignId}: ${errorMessage(e)}`;
    throw new OperationError(message, outcome(`re-sign task ${p.resignId}: ${e instanceof CancelledError ? 'cancelled' : 'error'}`), {
      cause: e,
    });
  }

  if (progress.status === 'SUCCESS' && p.downloadUrl) {
    try {
      const url = await api.call({ method: 'GET', path: ['sign', 'ipa', p.resignId, 'downloadUrl'], data: z.string() });
      if (url === undefined) log.warning(`bk-ci gave no download URL for re-sign task ${p.resignId}`);
      else progress.downloadUrl = url;
    } catch (e) {
      if (e instanceof CancelledError)
        throw new OperationError(`cancelled after ${formatDuration(elapsed())}, while reading the download URL`, outcome('cancelled'), {
          cause: e,
        });
      log.warning(`could not read the download URL of re-sign task ${p.resignId}: ${errorMessage(e)}`);
    }
  }
  return outcome(`re-sign task ${p.resignId}: ${progress.status ?? 'unknown'} after ${formatDuration(elapsed())}, ${progress.polls} polls`);
}

function buildOutcome(headline: string, p: SignParams, progress: Progress, elapsedMs: number): Outcome {
  const outputs: Record<string, string> = {
    'sign-status': progress.status ?? '',
    'sign-message': progress.message,
    elapsed: String(Math.round(elapsedMs / 1000)),
    polls: String(progress.polls),
  };
  if (progress.downloadUrl !== undefined) outputs['download-url'] = progress.downloadUrl;
  const rows: [string, string][] = [
    ['Task', p.resignId],
    ['Status', progress.status ?? 'unknown'],
    ['Message', progress.message],
    ['Elapsed', formatDuration(elapsedMs)],
    ['Polls', String(progress.polls)],
  ];
  if (progress.downloadUrl !== undefined) rows.push(['Download URL', progress.downloadUrl]);
  const blocks: Block[] = [{ kind: 'facts', rows }];
  if (progress.changes.length > 0) {
    blocks.push({
      kind: 'table',
      title: 'Status changes',
      headers: ['After', 'Time', 'Status'],
      rows: progress.changes.map((c) => [formatDuration(c.at - p.start), utcTime(c.at), c.status]),
    });
  }
  return { headline, ...(progress.data === undefined ? {} : { data: progress.data }), outputs, blocks };
}
