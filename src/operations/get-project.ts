import { findProject, PROJECT_READ } from '../bkci/projects.ts';
import { getProjectInputs } from '../inputs/project.ts';
import { defineOperation } from './operation.ts';
import { notFound, projectOutcome } from './project-common.ts';

/** One project by its English name. */
export default defineOperation({
  inputs: getProjectInputs.unwrap(),
  endpoints: [PROJECT_READ],
  outputs: [],
  credentials: 'any',
  describe: (task) => [['project-id', task['project-id']]],
  waits: () => false,
  async run(task, { api }) {
    const { project, status } = await findProject(api, task['project-id']);
    if (project === undefined) throw notFound(task['project-id'], status);
    return projectOutcome(`project ${project.englishName}: ${project.projectName}`, project, status);
  },
});
