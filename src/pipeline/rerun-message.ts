// The build message names the step that started the build, so that a later attempt of the same
// workflow run finds it in the pipeline's history (build_histories' buildMsg filter): the GitHub run
// and job, then what tells this step's build apart inside the run (the pipeline, a digest of the
// start parameters, rerun-key), then the attempt and a random mark. bk-ci keeps 255 UTF-16 code
// units of it (docs/bkci/builds.md), so the whole message is fitted to them and bk-ci never cuts
// it; an identity too long for its room is cut and ends with a digest of the whole, so that every
// attempt cuts it the same way.
import { createHash, randomUUID } from 'node:crypto';
import { headUnits } from '../base/text.ts';
import { BUILD_MSG_MAX } from '../bkci/builds.ts';
import type { WorkflowContext } from '../runner/context.ts';

/** What tells this step's build apart: from the workflow, the inputs and the start parameters. */
export interface StepMark {
  pipelineId: string;
  /** build-params as written (the digest is over them, not over what the action adds). */
  params: Readonly<Record<string, string>>;
  /** rerun-key, when given. */
  key?: string | undefined;
}

/** Room the attempt and the mark take, in UTF-16 units: ` attempt ` + 9 digits + ` [` + 13 + `]`. */
const TAIL_ROOM = 34;
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A short digest of the start parameters, the same whatever order they were written in. */
export function paramsDigest(params: Readonly<Record<string, string>>): string {
  const sorted = Object.entries(params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return sha(JSON.stringify(sorted)).slice(0, 8);
}

/** How every step of this run's job that starts this pipeline begins its identity: "GitHub octo/app run 555 job release (p-app, params ". */
export const runPrefix = (w: WorkflowContext, pipelineId: string): string =>
  `GitHub ${w.repository} run ${w.runId}${w.job ? ` job ${w.job}` : ''} (${pipelineId}, params `;

/**
 * "GitHub octo/app run 555 job release (p-app, params 1a2b3c4d, key linux)": the same for every
 * attempt of this step of the run; undefined outside a GitHub run (no repository or run id).
 */
export function stepIdentity(workflow: WorkflowContext | undefined, step: StepMark): string | undefined {
  if (workflow === undefined || workflow.runId === '') return undefined;
  const key = step.key === undefined || step.key === '' ? '' : `, key ${step.key.replace(/\s+/g, ' ')}`;
  const whole = `${runPrefix(workflow, step.pipelineId)}${paramsDigest(step.params)}${key})`;
  const room = BUILD_MSG_MAX - TAIL_ROOM;
  if (whole.length <= room) return whole;
  const tail = `… #${sha(whole).slice(0, 12)}`;
  return `${headUnits(whole, room - tail.length)}${tail}`;
}

/** The whole message: the identity, the attempt, a random mark that makes it this attempt's own. */
export function stepMessage(identity: string, attempt: string, mark = randomUUID().slice(0, 13)): string {
  return `${identity}${attempt ? ` attempt ${attempt}` : ''} [${mark}]`;
}

const TAIL = /^(?: attempt (\d{1,9}))? \[[0-9a-f-]{1,36}\]$/;

/** The attempt a message of this identity names (0 when it names none); undefined for another step's message. */
export function attemptOf(message: string, identity: string): number | undefined {
  if (!message.startsWith(identity)) return undefined;
  const match = TAIL.exec(message.slice(identity.length));
  return match === null ? undefined : Number(match[1] ?? '0');
}

/** Why another step's message of the same run, job and pipeline is not this step's: other build-params, or another rerun-key. */
export type NearMiss = 'build-params' | 'rerun-key';

/**
 * Whether `message` was started by a step of this run's job on this pipeline (`prefix`,
 * runPrefix) that is not this one (`identity`), and what differs; undefined for any other message.
 */
export function nearMiss(message: string, prefix: string, identity: string): { differs: NearMiss; attempt: number } | undefined {
  if (!identity.startsWith(prefix) || !message.startsWith(prefix) || attemptOf(message, identity) !== undefined) return undefined;
  const match = /(?: attempt (\d{1,9}))? \[[0-9a-f-]{1,36}\]$/.exec(message);
  if (match === null) return undefined;
  const digest = (s: string): string => s.slice(prefix.length, prefix.length + 8);
  return { differs: digest(message) === digest(identity) ? 'rerun-key' : 'build-params', attempt: Number(match[1] ?? '0') };
}
