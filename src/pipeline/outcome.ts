// How a build is shown: the outputs every ending sets, and the summary's facts and tables.

import { formatElapsed, seconds } from '../base/duration.ts';
import type { Block, Cell, Outcome } from '../base/outcome.ts';
import type { BuildDetail, BuildStatus } from '../bkci/builds.ts';
import { changesTable, type Progress } from '../wait/poll.ts';
import type { Build, BuildContext } from './build.ts';
import type { BuildOutput } from './build-outputs.ts';
import { ABORTED, describePending, type PendingReview } from './review-state.ts';
import { type Conclusion, waitingOn } from './status.ts';

/** What the step knows of one build when it ends, whichever way it ends. */
export interface BuildAtEnd extends Build {
  progress: Progress<BuildStatus>;
  detail: BuildDetail | undefined;
  /** What the build waits on a person for now, if anything. */
  pending: PendingReview | undefined;
  /** Every review pause the step saw, once each. */
  pauses: PendingReview[];
  conclusion: Conclusion;
  stopped: string | undefined;
  /** The build's time as the step saw it: up to the poll that saw its end (or until now, when none did). */
  elapsedMs: number;
  /** The time spent reading the rest of the log after that poll, apart from the build's. */
  logAfterEndMs?: number | undefined;
  start: number;
}

/** The build's status as `data`: its variables left out (the parameters' values the schema drops), since they may hold secrets. */
function shareable(s: BuildStatus): Record<string, unknown> {
  const { variables: _variables, ...rest } = s;
  return rest;
}

const table = (title: string, headers: string[], rows: string[][]): Block[] =>
  rows.length === 0 ? [] : [{ kind: 'table', title, headers, rows }];

/** How each pause the step saw was decided, as build_detail says it last. */
function decisionOf(p: PendingReview, detail: BuildDetail | undefined, pending: PendingReview | undefined): string {
  if (pending?.key === p.key) return 'waiting';
  for (const s of detail?.model?.stages ?? []) {
    if (p.kind === 'stage') {
      if ((s.id ?? '') !== p.stageId) continue;
      const g = (s.checkIn?.reviewGroups ?? []).find((x) => (p.groupId ? x.id === p.groupId : x.name === p.group));
      if (!g?.status) return 'waiting';
      const by = g.operator ? ` by ${g.operator}` : '';
      const why = g.suggest ? `: ${g.suggest}` : '';
      return ABORTED.has(g.status) ? `rejected${by}${why}` : `approved${by}${why}`;
    }
    const e = (s.containers ?? []).flatMap((c) => c.elements ?? []).find((x) => x.id === p.elementId);
    if (e !== undefined) return e.status === 'REVIEW_ABORT' ? 'rejected' : e.status === 'REVIEWING' ? 'waiting' : 'approved';
  }
  return 'decided';
}

/** How a build the step did not read came out: its conclusion; with a stop on cancel, what came of it and the status read after it. */
export interface UnreadEnd {
  conclusion: Conclusion;
  stopped?: string | undefined;
  last?: BuildStatus | undefined;
}

/**
 * A build the step never read (a start refused or cancelled in flight, a retry not applied): what
 * the step can say of it, its time counted to now.
 */
export function describeUnread(
  headline: string,
  build: Build,
  end: UnreadEnd,
  ctx: Pick<BuildContext, 'clock' | 'start'>,
): Outcome<BuildOutput> {
  const { last } = end;
  return describeBuild(headline, {
    ...build,
    conclusion: end.conclusion,
    stopped: end.stopped,
    start: ctx.start,
    elapsedMs: ctx.clock.now() - ctx.start,
    progress: { polls: 0, last, status: last?.status, changes: [] },
    detail: undefined,
    pending: undefined,
    pauses: [],
  });
}

export function describeBuild(headline: string, v: BuildAtEnd): Outcome<BuildOutput> {
  const last = v.progress.last;
  // The number first known stays: a later answer with another is not followed.
  const num = v.num ?? last?.buildNum;
  const outputs: Outcome<BuildOutput>['outputs'] = {
    'build-id': v.id,
    'build-num': num === undefined || num === null ? '' : String(num),
    'build-status': last?.status ?? '',
    'build-url': v.url,
    elapsed: seconds(v.elapsedMs),
    polls: String(v.progress.polls),
    'execute-count': v.executeCount === undefined ? '' : String(v.executeCount),
    conclusion: v.conclusion,
    reviewers: JSON.stringify(v.pending?.reviewers ?? []),
  };
  const rows: [string, Cell][] = [
    ['Build', `${num ? `#${num} ` : ''}${v.id}`],
    ['Pipeline', `${v.projectId} / ${v.pipelineId ?? 'not given'}`],
    ['Status', last === undefined ? 'unknown' : waitingOn(last) === last.status ? last.status : `${last.status} (${waitingOn(last)})`],
    ['Conclusion', v.conclusion],
    ['Elapsed', formatElapsed(v.elapsedMs)],
    ['Polls', String(v.progress.polls)],
  ];
  if (v.executeCount !== undefined && v.executeCount > 1) rows.push(['Run', `${v.executeCount} (retried)`]);
  if (v.url) rows.push(['Link', { url: v.url }]);
  if (v.pending !== undefined)
    rows.push(['Waits for', `review of ${describePending(v.pending)} by ${v.pending.reviewers.join(', ') || 'nobody bk-ci names'}`]);
  if (v.stopped !== undefined) rows.push(['Stopped', v.stopped]);
  if (v.logAfterEndMs) rows.push(['Log read after the end', formatElapsed(v.logAfterEndMs)]);
  const stages = last?.stageStatus ?? [];
  const errors = last?.errorInfoList ?? [];
  const blocks: Block[] = [
    { kind: 'facts', rows },
    ...table(
      'Stages',
      ['Stage', 'Status', 'Time'],
      stages.map((st, i) => [
        stageName(st.name ?? st.stageId ?? '', i),
        st.status ?? 'not started',
        st.elapsed ? formatElapsed(st.elapsed) : '',
      ]),
    ),
    ...table(
      'Reviews',
      ['Review', 'Who may decide', 'Decision'],
      v.pauses.map((p) => [describePending(p), p.reviewers.join(', '), decisionOf(p, v.detail, v.pending)]),
    ),
    ...changesTable(v.progress, v.start),
    ...table(
      'Errors',
      ['Task', 'Code', 'Message'],
      errors.map((e) => [e.taskName ?? '', e.errorCode === undefined || e.errorCode === null ? '' : String(e.errorCode), e.errorMsg ?? '']),
    ),
  ];
  return { headline, ...(last === undefined ? {} : { data: shareable(last) }), outputs, blocks };
}

/**
 * A stage as a reader knows it: bk-ci's first stage holds the pipeline's trigger and keeps the
 * default name `stage-1` nobody sees in the console, which shows it as the trigger.
 */
export const stageName = (name: string, index: number): string => (index === 0 && /^stage-1$/.test(name) ? 'Trigger' : name);
