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
function shareable(status: BuildStatus): Record<string, unknown> {
  const { variables: _variables, ...rest } = status;
  return rest;
}

const table = (title: string, headers: string[], rows: string[][]): Block[] =>
  rows.length === 0 ? [] : [{ kind: 'table', title, headers, rows }];

/** How each pause the step saw was decided, as build_detail says it last. */
function decisionOf(pause: PendingReview, detail: BuildDetail | undefined, pending: PendingReview | undefined): string {
  if (pending?.key === pause.key) return 'waiting';
  for (const stage of detail?.model?.stages ?? []) {
    if (pause.kind === 'stage') {
      if ((stage.id ?? '') !== pause.stageId) continue;
      const group = (stage.checkIn?.reviewGroups ?? []).find((x) => (pause.groupId ? x.id === pause.groupId : x.name === pause.group));
      if (!group?.status) return 'waiting';
      const by = group.operator ? ` by ${group.operator}` : '';
      const why = group.suggest ? `: ${group.suggest}` : '';
      return ABORTED.has(group.status) ? `rejected${by}${why}` : `approved${by}${why}`;
    }
    const element = (stage.containers ?? []).flatMap((c) => c.elements ?? []).find((x) => x.id === pause.elementId);
    if (element !== undefined)
      return element.status === 'REVIEW_ABORT' ? 'rejected' : element.status === 'REVIEWING' ? 'waiting' : 'approved';
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

/** How a build is shown, whichever way the step ends: the outputs every ending sets, the summary's facts and tables. */
export function describeBuild(headline: string, build: BuildAtEnd): Outcome<BuildOutput> {
  const last = build.progress.last;
  // The number first known stays: a later answer with another is not followed.
  const num = build.num ?? last?.buildNum ?? undefined;
  const outputs: Outcome<BuildOutput>['outputs'] = {
    'build-id': build.id,
    'build-num': num === undefined ? '' : String(num),
    'build-status': last?.status ?? '',
    'build-url': build.url,
    elapsed: seconds(build.elapsedMs),
    polls: String(build.progress.polls),
    'execute-count': build.executeCount === undefined ? '' : String(build.executeCount),
    conclusion: build.conclusion,
    reviewers: JSON.stringify(build.pending?.reviewers ?? []),
  };
  const blocks: Block[] = [
    { kind: 'facts', rows: factRows(build, num) },
    ...table(
      'Stages',
      ['Stage', 'Status', 'Time'],
      (last?.stageStatus ?? []).map((st, index) => [
        stageName(st.name ?? st.stageId ?? '', index),
        st.status ?? 'not started',
        st.elapsed ? formatElapsed(st.elapsed) : '',
      ]),
    ),
    ...table(
      'Reviews',
      ['Review', 'Who may decide', 'Decision'],
      build.pauses.map((p) => [describePending(p), p.reviewers.join(', '), decisionOf(p, build.detail, build.pending)]),
    ),
    ...changesTable(build.progress, build.start),
    ...table(
      'Errors',
      ['Task', 'Code', 'Message'],
      (last?.errorInfoList ?? []).map((error) => [
        error.taskName ?? '',
        error.errorCode === undefined || error.errorCode === null ? '' : String(error.errorCode),
        error.errorMsg ?? '',
      ]),
    ),
  ];
  return { headline, ...(last === undefined ? {} : { data: shareable(last) }), outputs, blocks };
}

/** The summary's facts of the build: which it is, how it stands and ended, its time, and what was said of it. */
function factRows(build: BuildAtEnd, num: number | undefined): [string, Cell][] {
  const last = build.progress.last;
  const rows: [string, Cell][] = [
    ['Build', `${num ? `#${num} ` : ''}${build.id}`],
    ['Pipeline', `${build.projectId} / ${build.pipelineId ?? 'not given'}`],
    ['Status', last === undefined ? 'unknown' : waitingOn(last) === last.status ? last.status : `${last.status} (${waitingOn(last)})`],
    ['Conclusion', build.conclusion],
    ['Elapsed', formatElapsed(build.elapsedMs)],
    ['Polls', String(build.progress.polls)],
  ];
  if (build.executeCount !== undefined && build.executeCount > 1) rows.push(['Run', `${build.executeCount} (retried)`]);
  if (build.url) rows.push(['Link', { url: build.url }]);
  const { pending } = build;
  if (pending !== undefined)
    rows.push(['Waits for', `review of ${describePending(pending)} by ${pending.reviewers.join(', ') || 'nobody bk-ci names'}`]);
  if (build.stopped !== undefined) rows.push(['Stopped', build.stopped]);
  if (build.logAfterEndMs) rows.push(['Log read after the end', formatElapsed(build.logAfterEndMs)]);
  return rows;
}

/**
 * A stage as a reader knows it: bk-ci's first stage holds the pipeline's trigger and keeps the
 * default name `stage-1` nobody sees in the console, which shows it as the trigger.
 */
const stageName = (name: string, index: number): string => (index === 0 && /^stage-1$/.test(name) ? 'Trigger' : name);
