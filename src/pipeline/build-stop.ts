// Stopping the build this step started when the job is cancelled (stop-on-cancel), and reading
// once more what bk-ci ended it with. bk-ci ends a stopped build CANCELED; one that had already
// ended answers 2101182 (docs/bkci/builds.md#stop-build_stopbuildid).

import type { Clock } from '../base/clock.ts';
import { errorMessage } from '../base/errors.ts';
import { type BuildRef, type BuildStatus, type Calls, readBuildStatus, StrayAnswerError, stopBuild } from '../bkci/builds.ts';
import { SideReads } from './side-reads.ts';
import { endOf } from './status.ts';

/** How long the runner's grace period leaves for stopping the build after a cancel. */
export const STOP_TIMEOUT_MS = 1200;

/** After a stop, how long reading the build's status once more may take (within what the stop left of its window). */
export const AFTER_STOP_READ_MS = 300;

/** What a stop came to: `ended` when the build is stopped or had already ended. */
interface Stop {
  ended: boolean;
  said: string;
}

/** A stop, and what bk-ci showed of the build after it. */
export interface StopReport extends Stop {
  /** The status read after the stop, when one was read. */
  status: BuildStatus | undefined;
  /** For the summary: what was said, and that the end was not seen when it was not. */
  shown: string;
}

/** Stops the build once, even though the job was cancelled; says what came of it. */
async function stopOnce(api: Calls, build: BuildRef, info: (message: string) => void, timeoutMs = STOP_TIMEOUT_MS): Promise<Stop> {
  let stop: Stop;
  try {
    stop =
      (await stopBuild(api, build, timeoutMs)) === 'stopped'
        ? { ended: true, said: `the build ${build.id} was stopped in bk-ci (stop-on-cancel)` }
        : { ended: true, said: `the build ${build.id} had already ended` };
  } catch (e) {
    stop = { ended: false, said: `stopping the build ${build.id} failed (${errorMessage(e)}); it may still run in bk-ci` };
  }
  info(stop.said);
  return stop;
}

/** Stops the build, then reads its status once more within what is left of the stop's window. */
export async function stopAndSee(api: Calls, build: BuildRef, clock: Clock, info: (message: string) => void): Promise<StopReport> {
  const from = clock.now();
  const stop = await stopOnce(api, build, info);
  if (!stop.ended) return { ...stop, status: undefined, shown: stop.said };
  const after = await statusAfterStop(api, build, clock, STOP_TIMEOUT_MS + AFTER_STOP_READ_MS - (clock.now() - from));
  if (after.said !== undefined) info(after.said);
  return { ...stop, status: after.status, shown: after.said === undefined ? stop.said : `${stop.said}; ${after.said}` };
}

/**
 * The build's status, read once after the stop: sent although the job was cancelled, within
 * `windowMs` and at most AFTER_STOP_READ_MS. Words when its end was not seen.
 */
async function statusAfterStop(
  api: Calls,
  build: BuildRef,
  clock: Clock,
  windowMs: number,
): Promise<{ status: BuildStatus | undefined; said: string | undefined }> {
  const ms = Math.min(AFTER_STOP_READ_MS, windowMs);
  const unseen = (why: string) => ({ status: undefined, said: `the stop was sent, but its end was not seen (${why})` });
  if (ms <= 0) return unseen('no time was left to read its status again');
  try {
    const reply = await readBuildStatus(new SideReads(api, clock).read('status', clock.now() + ms), build, { detached: { timeoutMs: ms } });
    const status = reply.data;
    if (endOf(status) !== 'waiting') return { status, said: undefined };
    return { status, said: `the stop was sent, but its end was not seen: bk-ci still shows it ${status.status}` };
  } catch (e) {
    return unseen(
      e instanceof StrayAnswerError ? 'bk-ci answered without its status' : `reading its status again failed: ${errorMessage(e)}`,
    );
  }
}
