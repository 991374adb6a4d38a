import { ProjectWriteError } from '../base/errors.ts';
import type { Block, Outcome } from '../base/outcome.ts';
import type { BkciApi } from '../bkci/client.ts';
import {
  findProject,
  mergeForUpdate,
  PROJECT_READ,
  PROJECT_UPDATE,
  type Project,
  type ProjectFields,
  putProject,
} from '../bkci/projects.ts';
import { updateProjectInputs } from '../inputs/project.ts';
import { defineOperation } from './operation.ts';
import { notFound, projectOutcome, readBack, wasDone } from './project-common.ts';

const show = (value: unknown): string =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/**
 * bk-ci's PUT resets every organisation field it is not given and needs `englishName` equal to
 * the path id; so: read, merge the given fields over what is there, PUT it all, read back.
 * create-project's `if-exists: update` comes here too, with the project it already read.
 */
export async function updateProject(api: BkciApi, projectId: string, given: ProjectFields, current?: Project): Promise<Outcome> {
  const before = current ?? (await findProject(api, projectId)).project;
  if (before === undefined) throw notFound(projectId, 200);
  const { body, problems } = mergeForUpdate(before, given, projectId);
  if (problems.length > 0) {
    const one = problems.length === 1;
    throw new ProjectWriteError(
      `project "${projectId}" was not updated: bk-ci's PUT resets every field it is not given, and ${one ? 'this value' : 'these values'} of the project cannot be sent back unchanged: ${problems.join('; ')}. Give ${one ? 'that field' : 'those fields'} in project to set ${one ? 'it' : 'them'} explicitly.`,
    );
  }
  const put = await putProject(api, projectId, body);
  if (!put.done) throw new ProjectWriteError(`bk-ci answered false to updating project "${projectId}"`, { status: put.status });
  const keys = Object.keys(given)
    .filter((k) => k !== 'englishName')
    .map((k) => [k, k === 'logoAddress' ? 'logoAddr' : k] as const);
  const table = (after?: Project): Block => ({
    kind: 'table',
    title: 'Given fields',
    headers: after === undefined ? ['Field', 'Before'] : ['Field', 'Before', 'After'],
    rows: keys.map(([k, read]) => (after === undefined ? [k, show(before[read])] : [k, show(before[read]), show(after[read])])),
  });
  const { project: after, status } = await readBack(api, projectId, 'updated', put.status, [table()]);
  const changed = keys.filter(([, read]) => show(before[read]) !== show(after[read])).length;
  return {
    ...projectOutcome(`updated project ${projectId} (${changed} of ${keys.length} given fields changed)`, after, status, [table(after)]),
    done: wasDone(projectId, 'updated'),
  };
}

/** Changes only the given fields of a project; every other field is sent back as it was read. */
export default defineOperation({
  inputs: updateProjectInputs.unwrap(),
  endpoints: [PROJECT_READ, PROJECT_UPDATE],
  outputs: [],
  credentials: 'any',
  describe: (task) => [
    ['project-id', task['project-id']],
    ['fields', Object.keys(task.project).join(', ')],
  ],
  waits: () => false,
  run: (task, { api }) => updateProject(api, task['project-id'], task.project),
});
