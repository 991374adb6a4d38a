// The build message names the step that started the build, so that a later attempt of the same
// workflow run finds it in the pipeline's history (build_histories' buildMsg filter): the GitHub run
// and job, then what tells this step's build apart inside the run (the pipeline, a digest of the
// start parameters, rerun-key), then the attempt and a random mark. bk-ci keeps 255 characters
// (docs/bkci/builds.md); an identity too long for them is cut and ends with a digest
// of the whole, so that every attempt cuts it the same way.
import { createHash, randomUUID } from 'node:crypto';
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

/** Room the attempt and the mark take: ` attempt 99999 [` + 13 + `]`. */
const TAIL_ROOM = 32;
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A short digest of the start parameters, the same whatever order they were written in. */
export function paramsDigest(params: Readonly<Record<string, string>>): string {
  const sorted = Object.entries(params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return sha(JSON.stringify(sorted)).slice(0, 8);
}

/**
 * "GitHub octo/app run 555 job release (p-app, params 1a2b3c4d, key linux)": the same for every
 * attempt of this step of the run; undefined outside a GitHub run (no repository or run id).
 */
export function stepIdentity(w: WorkflowContext | undefined, step: StepMark): string | undefined {
  if (w === undefined || w.runId === '') return undefined;
  const key = step.key === undefined || step.key === '' ? '' : `, key ${step.key.replace(/\s+/g, ' ')}`;
  const whole = `GitHub ${w.repository} run ${w.runId}${w.job ? ` job ${w.job}` : ''} (${step.pipelineId}, params ${paramsDigest(step.params)}${key})`;
  const room = BUILD_MSG_MAX - TAIL_ROOM;
  if ([...whole].length <= room) return whole;
  return `${[...whole].slice(0, room - 14).join('')}… #${sha(whole).slice(0, 12)}`;
}

/** The whole message: the identity, the attempt, a random mark that makes it this attempt's own. */
export function stepMessage(identity: string, attempt: string, mark = randomUUID().slice(0, 13)): string {
  return `${identity}${attempt ? ` attempt ${attempt}` : ''} [${mark}]`;
}

/** The attempt a message of this identity names (0 when it names none); undefined for another step's message. */
export function attemptOf(message: string, identity: string): number | undefined {
  if (!message.startsWith(identity)) return undefined;
  const m = /^(?: attempt (\d{1,9}))? \[[0-9a-f-]{1,36}\]$/.exec(message.slice(identity.length));
  return m === null ? undefined : Number(m[1] ?? '0');
}
