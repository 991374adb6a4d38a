// retry-build's `retry` naming a task: bk-ci's build_retry runs a taskId it cannot find in the
// build's model as a whole-build retry (PipelineBuildRetryService.findRetryStartTaskId,
// docs/bkci/builds.md#retry), so a slip (`failed` for `failed-jobs`) would run the whole build
// again: a redeploy. The id is checked against the model before anything is sent. bk-ci finds a
// stage by its id, a job by its container id, a step by its element id or stepId.
import type { BuildDetail } from '../bkci/builds.ts';
import { looseName, suggest } from '../inputs/suggest.ts';

/** What `retry` takes besides a task id. */
const WORDS = ['failed-jobs', 'all'];

/** Every id build_retry's taskId finds in the model, and the stages in words ("stage-2 (Build)"). */
export function taskIds(detail: BuildDetail): { ids: string[]; stages: string[] } {
  const stages = detail.model?.stages ?? [];
  const ids = stages.flatMap((stage) => [
    stage.id,
    ...(stage.containers ?? []).flatMap((c) => [c.id, ...(c.elements ?? []).flatMap((e) => [e.id, e.stepId])]),
  ]);
  return {
    ids: [...new Set(ids.filter((id): id is string => typeof id === 'string' && id !== ''))],
    stages: stages.flatMap((s) => (s.id ? [s.name && s.name !== s.id ? `${s.id} (${s.name})` : s.id] : [])),
  };
}

/** The known name `value` most likely meant: the closest, or one it begins (`failed` → `failed-jobs`). */
function nearest(value: string, known: readonly string[]): string | undefined {
  const loose = looseName(value);
  return suggest(value, known) ?? (loose === '' ? undefined : known.find((k) => looseName(k).startsWith(loose)));
}

/** Why `taskId` cannot be sent as build `id`'s taskId, with the nearest id and the build's stages; undefined when the model has it. */
export function unknownTask(taskId: string, id: string, detail: BuildDetail): string | undefined {
  const { ids, stages } = taskIds(detail);
  if (ids.includes(taskId)) return undefined;
  const near = nearest(taskId, [...WORDS, ...ids]);
  return `retry: ${taskId} is no task of build ${id}${near === undefined ? '' : ` (did you mean ${near}?)`}, and bk-ci would retry the whole build for an id it does not find, so nothing was sent. retry takes failed-jobs, all, or a stage, job, step or element id of the build's model; its stages: ${stages.join(', ') || 'none'}`;
}
