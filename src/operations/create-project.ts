import { OperationError, ProjectWriteError } from '../base/errors.ts';
import type { Block } from '../base/outcome.ts';
import { createProject, findProject, PROJECT_CREATE, PROJECT_READ, PROJECT_UPDATE } from '../bkci/projects.ts';
import { createProjectInputs } from '../inputs/project.ts';
import { defineOperation } from './operation.ts';
import { projectOutcome, readBack, wasDone } from './project-common.ts';
import { updateProject } from './update-project.ts';

/** Fields bk-ci requires in a create body that a user may leave out: for a real create only. */
const CREATE_DEFAULTS = { description: '' };

/** Creates a project; an existing one fails the step, is left as it is, or gets the given fields. */
export default defineOperation({
  inputs: createProjectInputs.unwrap(),
  endpoints: [PROJECT_READ, PROJECT_CREATE, PROJECT_UPDATE],
  outputs: [],
  credentials: 'any',
  describe: (task) => [
    ['project', task.project.englishName ?? ''],
    ['if-exists', task['if-exists']],
  ],
  waits: () => false,
  async run(task, { api }) {
    // Only what the user gave: a create's defaults would overwrite what is there on an update.
    const given = task.project;
    const id = given.englishName ?? '';
    const existing = await findProject(api, id);
    if (existing.project !== undefined) {
      if (task['if-exists'] === 'skip')
        return projectOutcome(`project ${id} already exists; left as it is (if-exists: skip)`, existing.project, existing.status, [
          { kind: 'note', text: 'The project already existed and was left unchanged (if-exists: skip).' },
        ]);
      if (task['if-exists'] === 'update') return updateProject(api, id, given, existing.project);
      throw new OperationError(
        `project "${id}" already exists; set if-exists to skip (keep it) or update (apply the given fields)`,
        projectOutcome(`project ${id} already exists`, existing.project, existing.status),
      );
    }
    const post = await createProject(api, { ...CREATE_DEFAULTS, ...given });
    if (!post.done) throw new ProjectWriteError(`bk-ci answered false to creating project "${id}"`, { status: post.status });
    const note: Block = { kind: 'note', text: 'The project was created.' };
    const { project, status } = await readBack(api, id, 'created', post.status, [note]);
    return { ...projectOutcome(`created project ${id}`, project, status, [note]), done: wasDone(id, 'created') };
  },
});
