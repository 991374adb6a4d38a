// What the check run shows of the build: while it runs (status, the running stage, a review
// pause with who may approve) and at its end (a conclusion matching the step's). Pure, and raw:
// the watch hands over what it saw, this says what GitHub should show, as text; the body builder
// (body.ts) scrubs and renders it. Titles are short; the details are in the summary.
import { formatElapsed } from '../base/duration.ts';
import type { Block, Outcome } from '../base/outcome.ts';
import type { BuildStatus } from '../bkci/builds.ts';
import { describePending, type PendingReview } from '../pipeline/review-state.ts';
import { type Conclusion, stagePaused } from '../pipeline/status.ts';
import type { Cell, Part } from './text.ts';

export type CheckConclusion = 'success' | 'failure' | 'cancelled' | 'action_required' | 'timed_out';

export interface CheckView {
  status: 'queued' | 'in_progress' | 'completed';
  conclusion?: CheckConclusion;
  /** One line, raw. */
  title: string;
  summary: readonly Part[];
  text: readonly Part[];
  /** What the check shows, in one string: an update is sent only when it changes. */
  key: string;
}

/** The build as the check names it: its number when known, its id, the run a retry made. */
export interface Label {
  num: number | undefined;
  id: string;
  /** bk-ci's executeCount: above 1 after a retry. */
  run: number | undefined;
  /** What a re-run did with an earlier attempt's build, in words (the summary says it). */
  rerun?: string | undefined;
}

/** The step's conclusion as a check's; `running` (wait: false) leaves the check in progress. */
export const CHECK_CONCLUSION: Record<Conclusion, CheckConclusion | undefined> = {
  success: 'success',
  failure: 'failure',
  rejected: 'failure',
  cancelled: 'cancelled',
  'waiting-review': 'action_required',
  'timed-out': 'timed_out',
  running: undefined,
};

const QUEUED = new Set(['QUEUE', 'QUEUE_CACHE']);

/** "Build #12 (run 2)": what a title starts with. */
const buildTitle = (l: Label): string => `Build ${l.num ? `#${l.num}` : l.id}${l.run !== undefined && l.run > 1 ? ` (run ${l.run})` : ''}`;

/** The summary's first line: the build, its id as code, what it is doing; then a re-run's words. */
function headLines(label: Label, doing: string): Part[] {
  const run = label.run !== undefined && label.run > 1 ? ` (run ${label.run})` : '';
  return [
    { kind: 'line', spans: [{ strong: label.num ? `Build #${label.num}` : 'Build' }, ' ', { code: label.id }, `${run} ${doing}`] },
    ...(label.rerun ? [{ kind: 'line' as const, spans: [`Re-run: ${label.rerun}`] }] : []),
  ];
}

/** The stage running now: the one bk-ci marks RUNNING. */
const runningStage = (s: BuildStatus): string | undefined => s.stageStatus?.find((st) => st.status === 'RUNNING')?.name ?? undefined;

function stagesTable(status: BuildStatus | undefined): Part[] {
  const stages = status?.stageStatus ?? [];
  if (stages.length === 0) return [];
  const rows = stages.map((st) => [st.name ?? st.stageId ?? '', st.status ?? 'not started', st.elapsed ? formatElapsed(st.elapsed) : '']);
  return [{ kind: 'table', title: 'Stages', headers: ['Stage', 'Status', 'Time'], rows }];
}

/** While the build runs. */
export function shownWhileRunning(status: BuildStatus, pending: PendingReview | undefined, label: Label): CheckView {
  const queued = QUEUED.has(status.status);
  const stage = runningStage(status);
  let title: string;
  if (pending !== undefined) {
    const who = pending.reviewers.length > 0 ? `${pending.reviewers.join(', ')} may approve` : 'bk-ci names nobody who may approve';
    title = `Waiting for review of ${describePending(pending)}: ${who}`;
  } else if (stagePaused(status)) title = 'Waiting for a stage review';
  else if (queued) title = `Queued in bk-ci${status.currentQueuePosition ? ` (position ${status.currentQueuePosition})` : ''}`;
  else title = stage === undefined ? `Running in bk-ci (${status.status})` : `Running: stage '${stage}'`;
  return {
    status: queued ? 'queued' : 'in_progress',
    title,
    summary: [...headLines(label, `is ${title.charAt(0).toLowerCase()}${title.slice(1)}`), ...stagesTable(status)],
    text: [],
    key: JSON.stringify([queued, stage, pending?.key, stagePaused(status), status.status]),
  };
}

/** How the end reads: short in the title, whole in the summary. */
const ENDING: Record<Conclusion, [title: string, summary: string]> = {
  success: ['succeeded', 'succeeded'],
  failure: ['failed', 'failed'],
  rejected: ['failed: review rejected', 'ended: a review was rejected'],
  cancelled: ['was cancelled', 'was cancelled'],
  'waiting-review': ['waits for a review', 'waits for a review (on-review: fail ended the step)'],
  'timed-out': ['goes on in bk-ci', 'goes on in bk-ci: the step stopped waiting (timeout)'],
  running: ['goes on in bk-ci', 'goes on in bk-ci (not waited for: wait: false)'],
};

/** Whether the step's `conclusion` output is one of the conclusions (ENDING has a line for each). */
const isConclusion = (text: string): text is Conclusion => Object.hasOwn(ENDING, text);

/** A summary table's rows as text (a link shown as its URL: the check's text makes no link of it). */
const tableRows = (blocks: readonly Block[], title: string): string[][] =>
  blocks.flatMap((b) =>
    b.kind === 'table' && b.title === title ? b.rows.map((r) => r.map((c) => (typeof c === 'string' ? c : c.url))) : [],
  );

/** The failed steps as the model names them (their error as bk-ci wrote it), else bk-ci's errorInfoList with each code as code. */
function failedTable(blocks: readonly Block[]): Part[] {
  const steps: Cell[][] = tableRows(blocks, 'Failed steps');
  const rows =
    steps.length > 0
      ? steps
      : tableRows(blocks, 'Errors').map(([task = '', code = '', msg = '']): Cell[] => [task, code ? [{ code }, `: ${msg}`] : msg]);
  return rows.length === 0 ? [] : [{ kind: 'table', title: 'Failed steps', headers: ['Step', 'Error'], rows }];
}

/**
 * The check's conclusion for the step's: as the table says; when the step failed while the build
 * goes on (a read that failed, a cancel that did not stop it), the check still ends: cancelled or
 * failed, never left in progress for good.
 */
export function checkConclusion(said: string, failed: boolean, cancelled: boolean): CheckConclusion | undefined {
  const conclusion = isConclusion(said) ? CHECK_CONCLUSION[said] : undefined;
  if (conclusion !== undefined || !failed) return conclusion;
  return cancelled ? 'cancelled' : 'failure';
}

/** How the end reads, title and summary: the conclusion's words, or the words of a step that stopped following the build. */
function endingOf(said: string, check: CheckConclusion | undefined): [string, string] {
  if (!isConclusion(said)) return [said, said];
  if (said === 'running' && check !== undefined) return ['not followed to its end', 'goes on in bk-ci; this step stopped following it'];
  return ENDING[said];
}

/**
 * At the end: the conclusion, what the step said, the stages with status and time, and the failed
 * steps with their last lines. `message` is the step's failure, when it failed.
 */
export function shownAtEnd(
  outcome: Outcome,
  label: Label,
  message: string | undefined,
  last: BuildStatus | undefined,
  cancelled = false,
): CheckView {
  const said = outcome.outputs.conclusion ?? 'failure';
  const check = checkConclusion(said, message !== undefined, cancelled);
  const [ending, whole] = endingOf(said, check);
  const reviews = tableRows(outcome.blocks, 'Reviews');
  const summary: Part[] = [
    ...headLines(label, whole),
    ...(message === undefined ? [] : [{ kind: 'line' as const, spans: [message] }]),
    ...stagesTable(last),
    ...(reviews.length === 0
      ? []
      : [{ kind: 'table' as const, title: 'Reviews', headers: ['Review', 'Who may decide', 'Decision'], rows: reviews }]),
  ];
  const tails = outcome.blocks.flatMap((b): Part[] => (b.kind === 'lines' ? [{ kind: 'lines', title: b.title, lines: b.lines }] : []));
  return {
    status: check === undefined ? 'in_progress' : 'completed',
    ...(check === undefined ? {} : { conclusion: check }),
    title: `${buildTitle(label)} ${ending}`,
    summary,
    text: [...failedTable(outcome.blocks), ...tails],
    key: `end:${said}`,
  };
}
