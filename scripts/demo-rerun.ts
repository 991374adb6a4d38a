// `npm start -- operation=start-build run-attempt=2`: attempt 1's build, seeded into the pipeline's
// history as attempt 1 of this very step started it, so that the re-run can prove it its own
// (docs/start-build.md, "Re-runs continue the build"): its build message (the same run, job,
// pipeline, build-params and rerun-key), started by the step's user, with the start values the
// step sends (its build-params and the commit's material). The step's inputs are read as the
// action reads them, and the message and the values made by the action's own functions.
import { z } from 'zod';
import type { Emulator } from '../emulator/server.ts';
import { prepareStep } from '../src/operations/prepare-step.ts';
import { stepIdentity, stepMessage } from '../src/pipeline/rerun-message.ts';
import { startValues } from '../src/pipeline/start.ts';
import { workflowContext } from '../src/runner/context.ts';

/** Statuses of a build under way: seeded as started just now, so the re-run finds it running. */
const UNDER_WAY = new Set(['QUEUE', 'QUEUE_CACHE', 'RUNNING', 'PREPARE_ENV', 'REVIEWING', 'PAUSE']);

/** What a start-build step's task holds that its build's message and values are made of (a build-params value as read: its text, or that text in a list). */
const startTask = z.looseObject({
  'project-id': z.string(),
  'pipeline-id': z.string(),
  'build-params': z
    .record(z.string(), z.union([z.string(), z.array(z.string())]))
    .transform((p) => Object.fromEntries(Object.entries(p).map(([k, v]) => [k, typeof v === 'string' ? v : (v[0] ?? '')])))
    .optional(),
  'rerun-key': z.string().optional(),
});

export interface Earlier {
  /** What was seeded, in a line for the banner. */
  said: string;
  /** The build, when one was seeded. */
  build?: { id: string; num: number; pipelineId: string; status: string };
}

/**
 * Seeds attempt 1's build of the step the inputs make, as `status` left it: under way (started
 * now, running 4 s more) or ended (10 minutes ago). Nothing for an attempt 1, another operation,
 * `on-rerun: start`, or inputs the step will refuse (it says why itself).
 */
export async function seedEarlierAttempt(
  emulator: Emulator,
  o: { inputs: Record<string, string>; env: Record<string, string>; status: string; user: string },
): Promise<Earlier | undefined> {
  const w = workflowContext(o.env);
  if (w === undefined || Number(w.runAttempt) <= 1 || o.inputs.operation !== 'start-build' || o.inputs['on-rerun'] === 'start')
    return undefined;
  const task = await prepareStep((name) => o.inputs[name] ?? '').then(
    (step) => startTask.safeParse(step.job.task),
    () => undefined,
  );
  if (!task?.success) return { said: "no earlier build is seeded: the step's inputs are refused (it says why)" };
  const t = task.data;
  const step = { pipelineId: t['pipeline-id'], params: t['build-params'] ?? {}, key: t['rerun-key'] };
  const identity = stepIdentity(w, step) ?? '';
  // As attempt 1 of this step started it: as its user, with what it sends (build-params, the commit's material).
  const { BK_CI_BUILD_MSG: _message, ...params } = startValues(step.params, w, step).body;
  const underWay = UNDER_WAY.has(o.status);
  const b = emulator.seedBuild({
    projectId: t['project-id'],
    pipelineId: step.pipelineId,
    buildMsg: stepMessage(identity, '1'),
    status: o.status,
    startTime: Date.now() - (underWay ? 0 : 600_000),
    runMs: underWay ? 4000 : 3000,
    userId: o.user,
    params,
  });
  const how = underWay ? `${o.status} since just now` : `ended ${o.status} 10 minutes ago`;
  return {
    said: `attempt 1's build #${b.num} (${b.id}) of ${step.pipelineId} seeded, ${how}; this step runs as attempt ${w.runAttempt}`,
    build: { id: b.id, num: b.num, pipelineId: step.pipelineId, status: o.status },
  };
}
