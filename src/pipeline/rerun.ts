// A re-run of a workflow (GITHUB_RUN_ATTEMPT > 1) continues the bk-ci build an earlier attempt of
// the same step started instead of starting another: it finds that build in the pipeline's history
// by the step's identity (src/pipeline/rerun-message.ts), proven the step's own by its starter and
// start parameters (src/pipeline/rerun-own.ts), then takes it as it is, follows it or retries it by
// its conclusion as the step would state it (docs: the contract's "Re-runs continue the build").
import { errorMessage } from '../base/errors.ts';
import { type HistoryRow, readHistoryPage } from '../bkci/build-history.ts';
import type { ON_RERUN } from '../inputs/build.ts';
import { PAGE_PACE_MS, readPages } from '../wait/pages.ts';
import type { BuildContext } from './build.ts';
import type { BuildEnd } from './build-decide.ts';
import { attemptOf, type NearMiss, nearMiss } from './rerun-message.ts';
import { notOwn } from './rerun-own.ts';
import type { RetryWhat } from './rerun-retry.ts';

/** `on-rerun`'s values (src/inputs/build.ts). */
export type OnRerun = (typeof ON_RERUN)[number];

/** The `rerun` output: what a build-starting step did with an earlier attempt's build. */
export type RerunOutput = 'none' | 'adopted' | 'followed' | 'retried';

/** A build of the history that carries this step's message but is not its own, and why. */
export interface Foreign {
  row: HistoryRow;
  attempt: number;
  why: string;
}

/** A build this run's job started on this pipeline with other build-params or another rerun-key. */
interface Other {
  row: HistoryRow;
  attempt: number;
  differs: NearMiss;
}

/** What the history holds of earlier attempts of this step. */
export type Earlier =
  | { kind: 'none'; searched: number; foreign: Foreign[]; others: Other[] }
  | { kind: 'ambiguous'; attempt: number; ids: string[] }
  | { kind: 'found'; attempt: number; row: HistoryRow; foreign: Foreign[] };

/** The build found, with its conclusion as the step states it, and a refused review in words with its stage. */
export interface EarlierVerdict {
  kind: 'found';
  attempt: number;
  row: HistoryRow;
  end: BuildEnd;
  rejected?: { words: string; stageId: string | undefined } | undefined;
}

/** The build an earlier attempt started, and how it stands in words ("ended SUCCEED"). */
interface EarlierBuild {
  attempt: number;
  row: HistoryRow;
  how: string;
}

export type RerunDecision =
  | { act: 'new'; why: string }
  | ({ act: 'adopt' } & EarlierBuild)
  | ({ act: 'follow' } & EarlierBuild)
  | ({ act: 'retry'; what: RetryWhat } & EarlierBuild);

/** "build #3 (b-…)". */
export const nameOf = (row: HistoryRow): string => `build #${row.buildNum ?? '?'} (${row.id})`;

/**
 * The table: the earlier build's conclusion → adopt (it succeeded), follow (under way), retry (it
 * failed, was cancelled or timed out, or a review refused it: from the refused stage, where the
 * review is asked again), or a new build (none of the step's own, or more than one).
 */
export function decideRerun(
  earlier: Exclude<Earlier, { kind: 'found' }> | EarlierVerdict,
  onRerun: Exclude<OnRerun, 'start'>,
): RerunDecision {
  if (earlier.kind === 'none') return { act: 'new', why: whyNone(earlier) };
  if (earlier.kind === 'ambiguous')
    return {
      act: 'new',
      why: `${earlier.ids.length} builds of attempt ${earlier.attempt} fit this step (${earlier.ids.join(', ')}): matrix legs with the same build-params need rerun-key (e.g. \${{ strategy.job-index }}) to be told apart, so none is taken`,
    };
  const { row, attempt, end } = earlier;
  const status = row.status ?? 'an unknown status';
  if (end === 'success') return { act: 'adopt', attempt, row, how: `ended ${status}` };
  if (end === 'running') return { act: 'follow', attempt, row, how: `is still ${status}` };
  const whole = onRerun === 'retry-all';
  if (end !== 'rejected')
    return { act: 'retry', what: whole ? { kind: 'all' } : { kind: 'failed-jobs' }, attempt, row, how: `ended ${status}` };
  const stage = earlier.rejected?.stageId;
  const what: RetryWhat = whole
    ? { kind: 'all' }
    : stage === undefined
      ? { kind: 'failed-jobs' }
      : { kind: 'task', taskId: stage, skip: false };
  return { act: 'retry', what, attempt, row, how: `was rejected (${earlier.rejected?.words ?? `bk-ci shows it ${status}`})` };
}

/** Why nothing was found: nothing at all, builds that carry the step's message but are not its own, or this job's builds of other inputs. */
function whyNone(earlier: Extract<Earlier, { kind: 'none' }>): string {
  const said = [`no build of an earlier attempt of this step was found (${earlier.searched} builds of this run's job looked at)`];
  if (earlier.foreign.length > 0) said.push(`${describeForeign(earlier.foreign)}, so none is taken`);
  const other = earlier.others[0];
  if (other !== undefined) {
    const how = `${nameOf(other.row)}, started by attempt ${other.attempt} of this job`;
    said.push(
      other.differs === 'build-params'
        ? `${how}, had other build-params (one changed since, a vars or secrets value say): only a build started with the same build-params is continued. Give it the build-params it had to continue it, or retry it on purpose with operation: retry-build, build-id: ${other.row.id}`
        : `${how}, had another rerun-key: only a build of the same rerun-key is continued. Give the key that attempt gave (a key that changes between attempts never finds its build), or retry it on purpose with operation: retry-build, build-id: ${other.row.id}`,
    );
  }
  return said.join('; ');
}

/** "build #2 (b-…) of attempt 1 carries this step's message but is not its own (alice started it, not bob)". */
export function describeForeign(foreign: readonly Foreign[]): string {
  const each = foreign.map((f) => `${nameOf(f.row)} of attempt ${f.attempt} (${f.why})`);
  return foreign.length === 1
    ? `${each[0]} carries this step's message but is not its own`
    : `${foreign.length} builds carry this step's message but are not its own: ${each.join('; ')}`;
}

/** build_histories' largest page, and how many builds are read at most: this run's job's builds are few. */
const PAGE_SIZE = 100;
const MAX_BUILDS = 300;

/** The step as a re-run looks for its build: its identity and the prefix it shares with the job's other steps, its attempt, what it starts with. */
export interface SearchedStep {
  projectId: string;
  pipelineId: string;
  identity: string;
  /** runPrefix (src/pipeline/rerun-message.ts); undefined when the identity was cut before it ended. */
  prefix: string | undefined;
  attempt: number;
  /** The start values this step sends, but its message. */
  values: Readonly<Record<string, string>>;
}

/**
 * The builds this run's job started on the pipeline (build_histories filtered by the message's
 * start; bk-ci's filter is LIKE '%…%', so every message is compared here, exactly), each once,
 * newest first, at most 300, read with the one paging loop; then sorted (`classify`).
 */
export async function findEarlier(step: SearchedStep, ctx: Pick<BuildContext, 'api' | 'clock' | 'signal' | 'log'>): Promise<Earlier> {
  const prefix = step.prefix !== undefined && step.identity.startsWith(step.prefix) ? step.prefix : undefined;
  const needle = prefix ?? `${step.identity} attempt `;
  let user = '';
  const listed = await readPages<HistoryRow>({
    read: async (page) => {
      const read = await readHistoryPage(ctx.api, step, { message: needle, page, pageSize: PAGE_SIZE });
      user = read.user;
      return { items: read.rows, total: read.count };
    },
    key: (row) => row.id,
    pageSize: PAGE_SIZE,
    maxItems: MAX_BUILDS,
    paceMs: PAGE_PACE_MS,
    clock: ctx.clock,
    signal: ctx.signal,
    what: `the builds of pipeline ${step.pipelineId} that this run's job started`,
  });
  // A page that failed after others leaves the search unfinished: "none found" on it would start a
  // second build, so it fails as the first page's failure does. A list cut by its bound is sorted.
  if (listed.incomplete?.cause !== undefined) throw listed.incomplete.cause;
  if (listed.incomplete !== undefined) ctx.log.warning(listed.incomplete.said);
  return classify(listed.items, { ...step, prefix, user });
}

/**
 * The table over the rows: an earlier attempt's build with this step's message is its own only
 * when rerun-own says so; the latest attempt's own build is taken when it is the only one. Builds
 * of this job with other build-params or another rerun-key (by this user) are kept to say why.
 */
export function classify(rows: readonly HistoryRow[], step: Omit<SearchedStep, 'projectId' | 'pipelineId'> & { user: string }): Earlier {
  const mine: { attempt: number; row: HistoryRow }[] = [];
  const foreign: Foreign[] = [];
  const others: Other[] = [];
  const earlier = (attempt: number | undefined): attempt is number => attempt !== undefined && attempt >= 1 && attempt < step.attempt;
  for (const row of rows) {
    const message = row.buildMsg ?? '';
    const attempt = attemptOf(message, step.identity);
    if (earlier(attempt)) {
      const why = notOwn(row, { user: step.user, values: step.values });
      if (why === undefined) mine.push({ attempt, row });
      else foreign.push({ attempt, row, why });
      continue;
    }
    const near = step.prefix === undefined ? undefined : nearMiss(message, step.prefix, step.identity);
    if (near !== undefined && earlier(near.attempt) && step.user !== '' && row.userId === step.user)
      others.push({ row, attempt: near.attempt, differs: near.differs });
  }
  const latest = Math.max(0, ...mine.map((m) => m.attempt));
  const ofLatest = mine.filter((m) => m.attempt === latest);
  const [only, ...more] = ofLatest;
  if (only === undefined) return { kind: 'none', searched: rows.length, foreign, others };
  if (more.length > 0) return { kind: 'ambiguous', attempt: latest, ids: ofLatest.map((m) => m.row.id) };
  return { kind: 'found', attempt: latest, row: only.row, foreign };
}

/** The search failed: said with what to do. */
export const searchFailed = (e: unknown): string =>
  `looking for the build of an earlier attempt of this step failed (${errorMessage(e)}); nothing was started. Run the job again, or set on-rerun: start to start a new build`;
