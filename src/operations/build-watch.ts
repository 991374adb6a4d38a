// What start-build and build-status share: the inputs that name a build, the wait on its
// status (the shared poll loop), stopping it when the job is cancelled, and how it is shown.
import { z } from 'zod';
import { BUILD_STATUS, BUILD_STOP, type BuildStatus, buildEnd, buildStatus, firstError, isKnownStatus, waitingOn } from '../bkci/builds.ts';
import type { BkciApi } from '../bkci/client.ts';
import { BuildSight, failedStepsOf, type Seen, SIGHT_OUTPUTS, type SightOptions } from '../build/sight.ts';
import { countOf, formatDuration, seconds } from '../duration.ts';
import { ActionError, CancelledError, errorMessage, HttpError, OperationError, ServerSaidError, statusOf } from '../errors.ts';
import { bool, isHttpUrl } from '../inputs/fields.ts';
import type { Block, Outcome } from '../outcome.ts';
import { changesTable, type PollEnd, type Progress, poll, troubleNote } from '../wait/poll.ts';
import type { Context } from './operation.ts';

export const BUILD_OUTPUTS = ['build-id', 'build-num', 'build-status', 'build-url', 'elapsed', 'polls', ...SIGHT_OUTPUTS] as const;
export type BuildOutput = (typeof BUILD_OUTPUTS)[number];

export const pipelineIdInput = z.string().regex(/^p-[\w-]+$/, 'pipeline-id must be a pipeline id, p-…');
export const buildIdInput = z.string().regex(/^b-[\w-]+$/, 'build-id must be a build id, b-…');
export const waitInput = bool('wait').default(true);
export const consoleUrlInput = z
  .string()
  .refine(isHttpUrl, 'console-url must be an absolute http(s) URL, the root of the bk-ci web console')
  .transform((u) => u.replace(/\/+$/, ''))
  .optional();

/** The build's page in bk-ci's console; empty when the pipeline is not known. */
export function buildUrl(consoleUrl: string, projectId: string, pipelineId: string | undefined, id: string): string {
  if (pipelineId === undefined) return '';
  return `${consoleUrl}/console/pipeline/${[projectId, pipelineId, 'detail', id].map(encodeURIComponent).join('/')}`;
}

/** The build's status as `data`: its variables left out (the parameters' values the schema drops), since they may hold secrets. */
function shareable(s: BuildStatus): Record<string, unknown> {
  const { variables: _variables, ...rest } = s;
  return rest;
}

export interface Watched {
  projectId: string;
  pipelineId?: string | undefined;
  id: string;
  num?: number | undefined;
  wait: boolean;
  consoleUrl: string;
  /** Stop it when the job is cancelled: only a build this step started. */
  stopOnCancel: boolean;
  /** What to show of it besides its status: its log, variables, artifacts. */
  sight: SightOptions;
  /** Which run of the build (bk-ci's executeCount), when known. */
  executeCount?: number | undefined;
}

/**
 * Reads the build, and with `wait` polls it until it ends. SUCCEED (or STAGE_SUCCESS with an
 * end time) ends well; a failure status or CANCELED fails the step with bk-ci's first error;
 * everything else waits, a review pause and the queue said in words, an unknown status warned
 * about once. The build's id and number are in every outcome, success or not.
 */
export async function watchBuild(b: Watched, ctx: Context): Promise<Outcome<BuildOutput>> {
  const { api, clock, log } = ctx;
  const progress: Progress<BuildStatus> = { polls: 0, last: undefined, status: undefined, changes: [] };
  let status: number | undefined;
  let stopped: string | undefined;
  const elapsed = (): number => clock.now() - ctx.start;
  const url = buildUrl(b.consoleUrl, b.projectId, b.pipelineId, b.id);
  const name = (): string => `build ${(progress.last?.buildNum ?? b.num) ? `#${progress.last?.buildNum ?? b.num} ` : ''}(${b.id})`;
  const sight = new BuildSight(ctx, b, b.sight, () => b.executeCount ?? 1);
  let seen: Seen | undefined;
  const outcome = (headline: string): Outcome<BuildOutput> => {
    const described = describeBuild(headline, b, url, progress, elapsed(), stopped, ctx.start);
    return {
      ...described,
      outputs: { ...described.outputs, ...sight.outputs },
      blocks: [...described.blocks, ...(seen?.blocks ?? [])],
      status,
    };
  };
  const warned = new Set<string>();

  if (b.wait)
    log.info(
      `waiting for ${name()}: timeout ${formatDuration(ctx.settings.timeoutMs)}, a poll every ${formatDuration(ctx.settings.pollIntervalMs)}${url ? `; ${url}` : ''}`,
    );
  let end: PollEnd;
  try {
    end = await poll(
      {
        read: async () => {
          const reply = await api
            .call({
              endpoint: BUILD_STATUS,
              params: { projectId: b.projectId },
              query: { buildId: b.id, pipelineId: b.pipelineId },
              data: buildStatus,
            })
            .catch((e: unknown) => {
              status = statusOf(e) ?? status;
              throw unknownBuild(e, b) ?? e;
            });
          status = reply.status;
          if (reply.data === undefined) throw new ActionError(`bk-ci answered without the status of ${name()}`, { status: reply.status });
          return reply.data;
        },
        status: (s) => s.status,
        describe: (s) => (waitingOn(s) === s.status ? s.status : `${s.status}: ${waitingOn(s)}`),
        waitingOn,
        verdict: (s) => {
          const e = buildEnd(s);
          if (e === 'waiting' && !isKnownStatus(s.status) && !warned.has(s.status)) {
            warned.add(s.status);
            log.warning(`${name()} has status "${s.status}", which this action does not know; waiting on`);
          }
          return e === 'succeeded' ? 'done' : e;
        },
        ...(sight.follow === undefined ? {} : { follow: sight.follow }),
      },
      {
        start: ctx.start,
        timeoutMs: ctx.settings.timeoutMs,
        intervalMs: ctx.settings.pollIntervalMs,
        wait: b.wait,
        clock,
        log,
        signal: ctx.signal,
      },
      progress,
    );
  } catch (e) {
    seen = await sight.end(undefined, []);
    if (!(e instanceof CancelledError)) {
      status = statusOf(e) ?? status;
      const plain = e instanceof ActionError && /^no build /.test(e.message);
      throw new OperationError(plain ? e.message : `reading ${name()} failed: ${errorMessage(e)}`, outcome(`${name()}: error`), {
        cause: e,
      });
    }
    if (b.stopOnCancel) stopped = await stopBuild(api, b, log.info);
    throw new OperationError(
      `cancelled after ${formatDuration(elapsed())}, last status ${progress.status ?? 'unknown'}; ${stopped ?? 'the build goes on in bk-ci'}`,
      outcome(`${name()}: cancelled`),
    );
  }
  const last = progress.last;
  seen = await sight.end(end === 'done' || end === 'failed' ? end : undefined, end === 'failed' ? failedStepsOf(last?.errorInfoList) : []);
  if (end === 'failed' && last !== undefined) {
    const why = firstError(last);
    throw new OperationError(
      `${name()} of pipeline ${b.pipelineId ?? '?'} ended ${last.status}${why === undefined ? '' : `: ${why}`}`,
      outcome(`${name()}: ${last.status}`),
    );
  }
  if (end === 'timeout')
    throw new OperationError(
      `${name()} ${last === undefined ? 'could not be read' : `is still ${waitingOn(last)}`} after ${formatDuration(elapsed())} (${countOf(progress.polls, 'poll')}, timeout ${formatDuration(ctx.settings.timeoutMs)}). The step stopped waiting; the build goes on in bk-ci.${troubleNote(progress, clock.now())}`,
      outcome(`${name()}: timed out`),
    );
  const headline = `${name()}: ${last === undefined ? 'unknown' : waitingOn(last)} after ${formatDuration(elapsed())}, ${countOf(progress.polls, 'poll')}`;
  if (seen.problem !== undefined) throw new OperationError(seen.problem, { ...outcome(headline), done: `${name()} ended ${last?.status}` });
  return outcome(headline);
}

/** v4 answers an unknown build id with 400 `参数校验失败:{0} Invalid buildId…`: said plainly. */
export function unknownBuild(e: unknown, b: Pick<Watched, 'projectId' | 'pipelineId' | 'id'>): ActionError | undefined {
  if (!(e instanceof HttpError) || e.status !== 400 || !/Invalid buildId/i.test(e.serverMessage)) return undefined;
  return new ActionError(
    `no build ${b.id} in project ${b.projectId}${b.pipelineId ? ` (pipeline ${b.pipelineId})` : ''}: check build-id and project-id`,
    {
      status: 400,
      cause: e,
    },
  );
}

/** How long the runner's grace period leaves for stopping the build after a cancel. */
const STOP_TIMEOUT_MS = 1200;

/** POSTs build_stop once, even though the job was cancelled; says what came of it. */
async function stopBuild(api: BkciApi, b: Watched, info: (m: string) => void): Promise<string> {
  let said: string;
  try {
    await api.call({
      endpoint: BUILD_STOP,
      params: { projectId: b.projectId },
      query: { buildId: b.id, pipelineId: b.pipelineId },
      data: z.unknown(),
      detached: { timeoutMs: STOP_TIMEOUT_MS },
    });
    said = `the build ${b.id} was stopped in bk-ci (stop-on-cancel)`;
  } catch (e) {
    said =
      e instanceof ServerSaidError && e.serverStatus === 2101182
        ? `the build ${b.id} had already ended`
        : `stopping the build ${b.id} failed (${errorMessage(e)}); it may still run in bk-ci`;
  }
  info(said);
  return said;
}

function describeBuild(
  headline: string,
  b: Watched,
  url: string,
  progress: Progress<BuildStatus>,
  elapsedMs: number,
  stopped: string | undefined,
  start: number,
): Outcome<BuildOutput> {
  const last = progress.last;
  const num = last?.buildNum ?? b.num;
  const outputs: Outcome<BuildOutput>['outputs'] = {
    'build-id': b.id,
    'build-num': num === undefined || num === null ? '' : String(num),
    'build-status': last?.status ?? '',
    'build-url': url,
    elapsed: seconds(elapsedMs),
    polls: String(progress.polls),
  };
  const rows: [string, string][] = [
    ['Build', `${num ? `#${num} ` : ''}${b.id}`],
    ['Pipeline', `${b.projectId} / ${b.pipelineId ?? 'not given'}`],
    ['Status', last === undefined ? 'unknown' : waitingOn(last) === last.status ? last.status : `${last.status} (${waitingOn(last)})`],
    ['Elapsed', formatDuration(elapsedMs)],
    ['Polls', String(progress.polls)],
  ];
  if (url) rows.push(['Link', url]);
  if (stopped !== undefined) rows.push(['Stopped', stopped]);
  const stages = last?.stageStatus ?? [];
  const errors = last?.errorInfoList ?? [];
  const table = (title: string, headers: string[], tableRows: string[][]): Block[] =>
    tableRows.length === 0 ? [] : [{ kind: 'table', title, headers, rows: tableRows }];
  const blocks: Block[] = [
    { kind: 'facts', rows },
    ...table(
      'Stages',
      ['Stage', 'Status', 'Time'],
      stages.map((st) => [st.name ?? st.stageId ?? '', st.status ?? 'not started', st.elapsed ? formatDuration(st.elapsed) : '']),
    ),
    ...changesTable(progress, start),
    ...table(
      'Errors',
      ['Task', 'Code', 'Message'],
      errors.map((e) => [e.taskName ?? '', e.errorCode === undefined || e.errorCode === null ? '' : String(e.errorCode), e.errorMsg ?? '']),
    ),
  ];
  return { headline, ...(last === undefined ? {} : { data: shareable(last) }), outputs, blocks };
}
