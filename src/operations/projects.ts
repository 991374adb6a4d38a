import { z } from 'zod';
import type { BkciApi } from '../http/api.ts';
import { HttpError } from '../http/errors.ts';
import { type Block, errorMessage, OperationError, type Outcome } from '../outcome.ts';
import { mergeForUpdate, type ProjectFields } from '../project-fields.ts';

/** The fields of ProjectVO this action reads. */
const projectFieldsRead = {
  englishName: z.string(),
  projectName: z.string(),
  description: z.string().nullish(),
  creator: z.string().nullish(),
  enabled: z.boolean().nullish(),
  approvalStatus: z.number().nullish(),
};
/** ProjectVO: the fields this action reads are checked, the rest passed through to `data`. */
const projectVO = z.looseObject(projectFieldsRead);
export type Project = z.infer<typeof projectVO>;

/**
 * Each project checked by projectVO but kept as it came: zod returns a copy of every object it
 * parses, which for a list of 20,000 projects doubled the peak memory (BENCHMARKS.md).
 * Sound because projectVO transforms nothing; the check strips what it does not read, so the
 * throw-away copy it makes of each project is six fields, not fifty.
 */
const projectCheck = z.object(projectFieldsRead);
const projectInPlace = z.custom<Project>((v) => projectCheck.safeParse(v).success, {
  error: 'not a project: englishName and projectName must be strings',
});

const TABLE_LIMIT = 50;

/** The project, or undefined when there is none: bk-ci answers 200 without data, the spec 404. */
export async function findProject(api: BkciApi, projectId: string): Promise<Project | undefined> {
  try {
    return await api.call({ method: 'GET', path: ['projects', projectId], data: projectVO, exact: true });
  } catch (e) {
    if (e instanceof HttpError && e.status === 404) return undefined;
    throw e;
  }
}

function projectFacts(p: Project): Block {
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

const projectOutcome = (headline: string, p: Project, extra: Block[] = []): Outcome => ({
  headline,
  data: p,
  outputs: {},
  blocks: [projectFacts(p), ...extra],
});

const notFound = (projectId: string): OperationError =>
  new OperationError(
    `project "${projectId}" was not found (or the user may not see it); check project-id, the English name of the project`,
    {
      headline: `project ${projectId} not found`,
      outputs: {},
      blocks: [],
    },
  );

export async function getProject(api: BkciApi, projectId: string): Promise<Outcome> {
  const p = await findProject(api, projectId);
  if (p === undefined) throw notFound(projectId);
  return projectOutcome(`project ${p.englishName}: ${p.projectName}`, p);
}

export async function listProjects(api: BkciApi): Promise<Outcome> {
  const list = (await api.call({ method: 'GET', path: ['projects'], data: z.array(projectInPlace) })) ?? [];
  const rows = list.slice(0, TABLE_LIMIT).map((p) => [p.englishName, p.projectName, p.creator ?? '', p.enabled === false ? 'no' : 'yes']);
  const counted = `${list.length} project${list.length === 1 ? '' : 's'}`;
  const blocks: Block[] = [{ kind: 'table', title: counted, headers: ['English name', 'Name', 'Creator', 'Enabled'], rows }];
  if (list.length > TABLE_LIMIT)
    blocks.push({ kind: 'note', text: `… and ${list.length - TABLE_LIMIT} more (all of them are in data-file)` });
  return { headline: counted, data: list, outputs: { count: String(list.length) }, blocks };
}

const wasDone = (projectId: string, what: 'created' | 'updated'): string => `project ${projectId} was ${what}`;

/**
 * The project after a write that went through. Whatever goes wrong from here (the read, a
 * cancel, the deadline) cannot undo the write: the failure's outcome says what was done, and
 * run() puts it first ("project demo was created, but reading it back failed: …").
 */
async function readBack(api: BkciApi, projectId: string, what: 'created' | 'updated', blocks: Block[]): Promise<Project> {
  const known: Outcome = { headline: `${what} project ${projectId}, not read back`, done: wasDone(projectId, what), outputs: {}, blocks };
  let p: Project | undefined;
  try {
    p = await findProject(api, projectId);
  } catch (e) {
    throw new OperationError(`reading it back failed: ${errorMessage(e)}`, known, { cause: e });
  }
  if (p === undefined) throw new OperationError('reading it back found nothing; it may be waiting for approval', known);
  return p;
}

export type IfExists = 'fail' | 'skip' | 'update';

/** Fields bk-ci requires in a create body that a user may leave out. */
const CREATE_DEFAULTS = { description: '' };

export async function createProject(api: BkciApi, given: ProjectFields & { englishName: string }, ifExists: IfExists): Promise<Outcome> {
  const id = given.englishName;
  const existing = await findProject(api, id);
  if (existing !== undefined) {
    if (ifExists === 'skip') {
      return projectOutcome(`project ${id} already exists; left as it is (if-exists: skip)`, existing, [
        { kind: 'note', text: 'The project already existed and was left unchanged (if-exists: skip).' },
      ]);
    }
    // Only what the user gave: a create's defaults would overwrite what is there.
    if (ifExists === 'update') return updateProject(api, id, given, existing);
    throw new OperationError(
      `project "${id}" already exists; set if-exists to skip (keep it) or update (apply the given fields)`,
      projectOutcome(`project ${id} already exists`, existing),
    );
  }
  const created = await api.call({ method: 'POST', path: ['projects'], body: { ...CREATE_DEFAULTS, ...given }, data: z.boolean() });
  if (created === false) throw new ProjectWriteError(`bk-ci answered false to creating project "${id}"`);
  const note: Block = { kind: 'note', text: 'The project was created.' };
  const p = await readBack(api, id, 'created', [note]);
  return { ...projectOutcome(`created project ${id}`, p, [note]), done: wasDone(id, 'created') };
}

const show = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/**
 * bk-ci's PUT resets every organisation field it is not given and needs `englishName` equal to
 * the path id; so: read, merge the given fields over what is there, PUT it all, read back.
 */
export async function updateProject(api: BkciApi, projectId: string, given: ProjectFields, current?: Project): Promise<Outcome> {
  const before = current ?? (await findProject(api, projectId));
  if (before === undefined) throw notFound(projectId);
  const { body, problems } = mergeForUpdate(before, given, projectId);
  if (problems.length > 0) {
    throw new ProjectWriteError(
      `project "${projectId}" was not updated: bk-ci's PUT resets every field it is not given, and ${problems.length === 1 ? 'this value' : 'these values'} of the project cannot be sent back unchanged: ${problems.join('; ')}. Give ${problems.length === 1 ? 'that field' : 'those fields'} in project to set ${problems.length === 1 ? 'it' : 'them'} explicitly.`,
    );
  }
  const ok = await api.call({ method: 'PUT', path: ['projects', projectId], body, data: z.boolean() });
  if (ok === false) throw new ProjectWriteError(`bk-ci answered false to updating project "${projectId}"`);
  const keys = Object.keys(given)
    .filter((k) => k !== 'englishName')
    .map((k) => [k, k === 'logoAddress' ? 'logoAddr' : k] as const);
  const table = (after?: Project): Block => ({
    kind: 'table',
    title: 'Given fields',
    headers: after === undefined ? ['Field', 'Before'] : ['Field', 'Before', 'After'],
    rows: keys.map(([k, read]) => (after === undefined ? [k, show(before[read])] : [k, show(before[read]), show(after[read])])),
  });
  const after = await readBack(api, projectId, 'updated', [table()]);
  const changed = keys.filter(([, read]) => show(before[read]) !== show(after[read])).length;
  return {
    ...projectOutcome(`updated project ${projectId} (${changed} of ${keys.length} given fields changed)`, after, [table(after)]),
    done: wasDone(projectId, 'updated'),
  };
}

/** bk-ci refused a project write, or the action refused to send one. */
export class ProjectWriteError extends Error {
  override name = 'ProjectWriteError';
}
