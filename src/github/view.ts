// What the check run shows of the build: while it runs (status, the running stage, a review
// pause with who may approve) and at its end (a conclusion matching the step's). Pure: the
// watch hands over what it saw, this says what GitHub should show.
import { formatElapsed } from '../base/duration.ts';
import type { Block, Outcome } from '../base/outcome.ts';
import type { BuildStatus } from '../bkci/builds.ts';
import { describePending, type PendingReview } from '../pipeline/review-state.ts';
import { type Conclusion, stagePaused } from '../pipeline/status.ts';
import { codeBlock, fitParts, inert, table, titleText } from './text.ts';

export type CheckConclusion = 'success' | 'failure' | 'cancelled' | 'action_required' | 'timed_out';

export interface Shown {
  status: 'queued' | 'in_progress' | 'completed';
  conclusion?: CheckConclusion;
  title: string;
  summary: string;
  text?: string;
  /** What the check shows, in one string: an update is sent only when it changes. */
  key: string;
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

/** The stage running now: the one bk-ci marks RUNNING. */
const runningStage = (s: BuildStatus): string | undefined => s.stageStatus?.find((st) => st.status === 'RUNNING')?.name ?? undefined;

function stagesTable(s: BuildStatus | undefined): string[] {
  const stages = s?.stageStatus ?? [];
  if (stages.length === 0) return [];
  return [
    `### Stages\n\n${table(
      ['Stage', 'Status', 'Time'],
      stages.map((st) => [st.name ?? st.stageId ?? '', st.status ?? 'not started', st.elapsed ? formatElapsed(st.elapsed) : '']),
    )}`,
  ];
}

/** While the build runs. */
export function shownWhileRunning(s: BuildStatus, pending: PendingReview | undefined, build: string): Shown {
  const queued = QUEUED.has(s.status);
  const stage = runningStage(s);
  let title: string;
  if (pending !== undefined) {
    const who = pending.reviewers.length > 0 ? `${pending.reviewers.join(', ')} may approve` : 'bk-ci names nobody who may approve';
    title = `Waiting for review of ${describePending(pending)}: ${who}`;
  } else if (stagePaused(s)) title = 'Waiting for a stage review';
  else if (queued) title = `Queued in bk-ci${s.currentQueuePosition ? ` (position ${s.currentQueuePosition})` : ''}`;
  else title = stage === undefined ? `Running in bk-ci (${s.status})` : `Running: stage '${stage}'`;
  const summary = fitParts([`**${inert(build)}** ${inert(`is ${title.charAt(0).toLowerCase()}${title.slice(1)}`)}`, ...stagesTable(s)]);
  return {
    status: queued ? 'queued' : 'in_progress',
    title: titleText(title),
    summary,
    key: JSON.stringify([queued, stage, pending?.key, stagePaused(s), s.status]),
  };
}

const ENDING: Record<Conclusion, string> = {
  success: 'succeeded',
  failure: 'failed',
  rejected: 'ended: a review was rejected',
  cancelled: 'was cancelled',
  'waiting-review': 'waits for a review (on-review: fail ended the step)',
  'timed-out': 'goes on in bk-ci: the step stopped waiting (timeout)',
  running: 'goes on in bk-ci (not waited for: wait: false)',
};

/** Whether the step's `conclusion` output is one of the conclusions (ENDING has a line for each). */
const isConclusion = (text: string): text is Conclusion => Object.hasOwn(ENDING, text);

/** A summary table's rows as text (a link shown as its URL: the check's text makes no link of it). */
const tableRows = (blocks: readonly Block[], title: string): string[][] =>
  blocks.flatMap((b) =>
    b.kind === 'table' && b.title === title ? b.rows.map((r) => r.map((c) => (typeof c === 'string' ? c : c.url))) : [],
  );

/**
 * At the end: the conclusion, what the step said, the stages with status and time, and the failed
 * steps with their last lines. `message` is the step's failure, when it failed.
 */
export function shownAtEnd(o: Outcome, build: string, message: string | undefined, last: BuildStatus | undefined): Shown {
  const said = o.outputs.conclusion ?? 'failure';
  const conclusion = isConclusion(said) ? said : undefined;
  const check = conclusion === undefined ? undefined : CHECK_CONCLUSION[conclusion];
  const ending = conclusion === undefined ? said : ENDING[conclusion];
  const title = titleText(`${build} ${ending}`);
  const reviews = tableRows(o.blocks, 'Reviews');
  const summary = fitParts([
    `**${inert(build)}** ${inert(ending)}`,
    ...(message === undefined ? [] : [inert(message, 4000)]),
    ...stagesTable(last),
    ...(reviews.length === 0 ? [] : [`### Reviews\n\n${table(['Review', 'Who may decide', 'Decision'], reviews)}`]),
  ]);
  // The failed steps as the model names them (with their log's last lines), else bk-ci's errorInfoList.
  const steps = tableRows(o.blocks, 'Failed steps');
  const errors =
    steps.length > 0
      ? steps
      : tableRows(o.blocks, 'Errors').map(([task = '', code = '', msg = '']) => [task, code ? `${code}: ${msg}` : msg]);
  const tails = o.blocks.flatMap((b) => (b.kind === 'lines' ? [`### ${inert(b.title, 300)}\n\n${codeBlock(b.lines)}`] : []));
  const text = fitParts([...(errors.length === 0 ? [] : [`### Failed steps\n\n${table(['Step', 'Error'], errors)}`]), ...tails]);
  return {
    status: check === undefined ? 'in_progress' : 'completed',
    ...(check === undefined ? {} : { conclusion: check }),
    title,
    summary,
    ...(text === '' ? {} : { text }),
    key: `end:${said}`,
  };
}
