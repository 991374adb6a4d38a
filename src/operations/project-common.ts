// What the project operations share: the way a project is shown, read back and not found.

import { errorMessage, OperationError, statusOf } from '../base/errors.ts';
import type { Block, Outcome } from '../base/outcome.ts';
import type { BkciApi } from '../bkci/client.ts';
import { findProject, type Project } from '../bkci/projects.ts';

function projectFacts(project: Project): Block {
  return {
    kind: 'facts',
    rows: [
      ['English name', project.englishName],
      ['Name', project.projectName],
      ['Description', project.description ?? ''],
      ['Creator', project.creator ?? ''],
      ['Enabled', project.enabled === false ? 'no' : 'yes'],
    ],
  };
}

export const projectOutcome = (headline: string, project: Project, status: number, extra: Block[] = []): Outcome => ({
  headline,
  data: project,
  outputs: {},
  blocks: [projectFacts(project), ...extra],
  status,
});

export const notFound = (projectId: string, status: number): OperationError =>
  new OperationError(
    `project "${projectId}" was not found (or the user may not see it); check project-id, the English name of the project`,
    {
      headline: `project ${projectId} not found`,
      outputs: {},
      blocks: [],
      status,
    },
  );

export const wasDone = (projectId: string, what: 'created' | 'updated'): string => `project ${projectId} was ${what}`;

/**
 * The project after a write that went through. Whatever goes wrong from here (the read, a
 * cancel, the deadline) cannot undo the write: the failure's outcome says what was done, and
 * run() puts it first ("project demo was created, but reading it back failed: …").
 */
export async function readBack(
  api: BkciApi,
  projectId: string,
  what: 'created' | 'updated',
  writeStatus: number,
  blocks: Block[],
): Promise<{ project: Project; status: number }> {
  const known = (status: number | undefined): Outcome => ({
    headline: `${what} project ${projectId}, not read back`,
    done: wasDone(projectId, what),
    outputs: {},
    blocks,
    status,
  });
  let read: { project: Project | undefined; status: number };
  try {
    read = await findProject(api, projectId);
  } catch (error) {
    throw new OperationError(`reading it back failed: ${errorMessage(error)}`, known(statusOf(error) ?? writeStatus), { cause: error });
  }
  if (read.project === undefined)
    throw new OperationError('reading it back found nothing; it may be waiting for approval', known(read.status));
  return { project: read.project, status: read.status };
}
