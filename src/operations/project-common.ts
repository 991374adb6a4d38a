// What the project operations share: the `project` input and the way a project is shown.

import { errorMessage, OperationError, statusOf } from '../base/errors.ts';
import type { Block, Outcome } from '../base/outcome.ts';
import { z } from '../base/schema.ts';
import type { BkciApi } from '../bkci/client.ts';
import { findProject, type Project, projectFields } from '../bkci/projects.ts';
import { mapping, suggest } from '../inputs/fields.ts';

/** The project fields bk-ci knows; read when a `project` input is, not at every start. */
const knownFields = (): string[] => Object.keys(projectFields.unwrap().shape);

/**
 * A field bk-ci does not know is dropped by its JSON reader without a word, so a typo would be
 * a change that silently never happens: each is named, with the field that was probably meant.
 */
function unknownField(name: string): string {
  const known = knownFields();
  const hint = suggest(name, known);
  return `project.${name} is not a field of a bk-ci project, and bk-ci would ignore it: ${hint === undefined ? `the fields are ${known.join(', ')}` : `did you mean ${hint}?`}`;
}

/** `project`: project fields as a JSON object or a YAML mapping; each problem names its field. */
export const projectInput = z.lazy(() =>
  mapping('project').transform((value, ctx) => {
    const known = knownFields();
    const unknown = Object.keys(value).filter((k) => !known.includes(k));
    for (const name of unknown) ctx.addIssue({ code: 'custom', message: unknownField(name) });
    if (unknown.length > 0) return z.NEVER;
    const fields = projectFields.safeParse(value);
    if (fields.success) return fields.data;
    for (const issue of fields.error.issues) ctx.addIssue({ code: 'custom', message: `project.${issue.path.join('.')}: ${issue.message}` });
    return z.NEVER;
  }),
);

export function projectFacts(p: Project): Block {
  return {
    kind: 'facts',
    rows: [
      ['English name', p.englishName],
      ['Name', p.projectName],
      ['Description', p.description ?? ''],
      ['Creator', p.creator ?? ''],
      ['Enabled', p.enabled === false ? 'no' : 'yes'],
    ],
  };
}

export const projectOutcome = (headline: string, p: Project, status: number, extra: Block[] = []): Outcome => ({
  headline,
  data: p,
  outputs: {},
  blocks: [projectFacts(p), ...extra],
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
  } catch (e) {
    throw new OperationError(`reading it back failed: ${errorMessage(e)}`, known(statusOf(e) ?? writeStatus), { cause: e });
  }
  if (read.project === undefined)
    throw new OperationError('reading it back found nothing; it may be waiting for approval', known(read.status));
  return { project: read.project, status: read.status };
}
