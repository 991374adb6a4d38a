// A re-run of a workflow (GITHUB_RUN_ATTEMPT > 1) continues the bk-ci build an earlier attempt of
// the same step started instead of starting another: it finds that build in the pipeline's history
// by the step's identity (src/pipeline/rerun-message.ts), then takes it as it is, follows it or
// retries it (docs: the contract's "Re-runs continue the build").
import { errorMessage } from '../base/errors.ts';
import { BUILD_HISTORIES, type HistoryPage, historyPage } from '../bkci/builds.ts';
import type { ON_RERUN } from '../inputs/build.ts';
import { attemptOf } from './rerun-message.ts';
import { endOf } from './status.ts';
import type { BuildContext } from './watch.ts';

/** `on-rerun`'s values (src/inputs/build.ts). */
export type OnRerun = (typeof ON_RERUN)[number];

/** The `rerun` output: what a build-starting step did with an earlier attempt's build. */
export type RerunOutput = 'none' | 'adopted' | 'followed' | 'retried';

export type Row = NonNullable<HistoryPage['records']>[number];

/** What the history holds of earlier attempts of this step. */
export type Earlier =
  | { kind: 'none'; searched: number }
  | { kind: 'ambiguous'; attempt: number; ids: string[] }
  | { kind: 'found'; attempt: number; row: Row };

export type RerunDecision =
  | { act: 'new'; why: string }
  | { act: 'adopt' | 'follow'; attempt: number; row: Row }
  | { act: 'retry'; whole: boolean; attempt: number; row: Row };

/**
 * The table: the earlier build's status → adopt (it succeeded), follow (under way), retry (it
 * failed, was cancelled or timed out) or a new build (none, or more than one could be this step's).
 */
export function decideRerun(earlier: Earlier, onRerun: Exclude<OnRerun, 'start'>): RerunDecision {
  if (earlier.kind === 'none')
    return { act: 'new', why: `no build of an earlier attempt of this step was found (${earlier.searched} builds of the run looked at)` };
  if (earlier.kind === 'ambiguous')
    return {
      act: 'new',
      why: `${earlier.ids.length} builds of attempt ${earlier.attempt} fit this step (${earlier.ids.join(', ')}): matrix legs with the same build-params need rerun-key (e.g. \${{ strategy.job-index }}) to be told apart, so none is taken`,
    };
  const { row, attempt } = earlier;
  const end = endOf({ status: row.status ?? '', endTime: row.endTime, startTime: row.startTime });
  if (end === 'success') return { act: 'adopt', attempt, row };
  if (end === 'waiting') return { act: 'follow', attempt, row };
  return { act: 'retry', whole: onRerun === 'retry-all', attempt, row };
}

/** build_histories' largest page, and how many pages are read at most: the run's builds are the newest. */
const PAGE_SIZE = 100;
const MAX_PAGES = 3;

/**
 * The latest build an earlier attempt of this step started: build_histories filtered by the
 * identity (bk-ci's buildMsg filter is LIKE '%…%', so every message is compared here, exactly),
 * newest first, at most 300 builds.
 */
export async function findEarlier(
  r: { projectId: string; pipelineId: string; identity: string; attempt: number },
  ctx: Pick<BuildContext, 'api'>,
): Promise<Earlier> {
  const mine: { attempt: number; row: Row }[] = [];
  let searched = 0;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const reply = await ctx.api.call({
      endpoint: BUILD_HISTORIES,
      params: { projectId: r.projectId },
      query: { pipelineId: r.pipelineId, buildMsg: `${r.identity} attempt `, page: String(page), pageSize: String(PAGE_SIZE) },
      data: historyPage,
    });
    const records = reply.data?.records ?? [];
    searched += records.length;
    for (const row of records) {
      const attempt = attemptOf(row.buildMsg ?? '', r.identity);
      if (attempt !== undefined && attempt >= 1 && attempt < r.attempt) mine.push({ attempt, row });
    }
    const pages = reply.data?.totalPages ?? undefined;
    if (records.length < PAGE_SIZE || (pages !== undefined && page >= pages)) break;
  }
  const latest = Math.max(0, ...mine.map((m) => m.attempt));
  const ofLatest = mine.filter((m) => m.attempt === latest);
  const [only, ...more] = ofLatest;
  if (only === undefined) return { kind: 'none', searched };
  if (more.length > 0) return { kind: 'ambiguous', attempt: latest, ids: ofLatest.map((m) => m.row.id) };
  return { kind: 'found', attempt: latest, row: only.row };
}

/** The search failed: said with what to do. */
export const searchFailed = (e: unknown): string =>
  `looking for the build of an earlier attempt of this step failed (${errorMessage(e)}); nothing was started. Run the job again, or set on-rerun: start to start a new build`;
