// bk-ci's projects: where they live, what a ProjectVO holds, and the field mapping a PUT needs.
import { ActionError, HttpError } from '../base/errors.ts';
import { exactInteger, type RawJson } from '../base/json.ts';
import type { JsonItemSink } from '../base/json-stream.ts';
import { z } from '../base/schema.ts';
import type { BkciApi, Reply } from './client.ts';
import type { ListRead } from './list-reader.ts';
import { perGateway } from './routes.ts';

// Every schema here is built on first use (z.lazy): this module loads at every start, and most
// steps use none of them or one.

/**
 * bk-ci ids are Long in create/update bodies but strings in ProjectVO; both are accepted and
 * sent as JSON numbers, exact to the digit beyond 2^53.
 */
const exactId = () =>
  z.union([
    z.number().int().refine(Number.isSafeInteger, 'a whole number too large to be exact here; write it as a string of digits'),
    z.custom<RawJson>((value) => JSON.isRawJSON(value)),
    z.string().transform((digits, ctx) => {
      const exact = exactInteger(digits);
      if (exact === undefined) ctx.addIssue({ code: 'custom', message: `"${digits}" is not a whole number` });
      return exact ?? z.NEVER;
    }),
  ]);

/** The fields of ProjectCreateInfo / ProjectUpdateInfo; others are passed through untouched. */
export const projectFields = z.lazy(() => {
  const id = exactId();
  return z.looseObject({
    englishName: z.string().optional(),
    projectName: z.string().optional(),
    description: z.string().optional(),
    projectType: z.number().int().optional(),
    bgId: id.optional(),
    bgName: z.string().optional(),
    businessLineId: id.optional(),
    businessLineName: z.string().optional(),
    deptId: id.optional(),
    deptName: z.string().optional(),
    centerId: id.optional(),
    centerName: z.string().optional(),
    secrecy: z.boolean().optional(),
    hidden: z.boolean().optional(),
    projectScope: z.number().int().optional(),
    kind: z.number().int().optional(),
    properties: z.record(z.string(), z.unknown()).optional(),
    subjectScopes: z.array(z.unknown()).optional(),
    logoAddress: z.string().optional(),
    authSecrecy: z.number().int().optional(),
    enabled: z.boolean().optional(),
    productId: z.number().int().optional(),
    productName: z.string().optional(),
    kpiCode: z.string().optional(),
    kpiName: z.string().optional(),
    ccAppId: id.optional(),
    ccAppName: z.string().optional(),
  });
});
export type ProjectFields = z.infer<typeof projectFields>;

/** Fields of ProjectUpdateInfo. bk-ci's PUT resets every one of these it is not given. */
const UPDATE_KEYS = [
  'projectName',
  'description',
  'projectType',
  'bgId',
  'bgName',
  'businessLineId',
  'businessLineName',
  'centerId',
  'centerName',
  'deptId',
  'deptName',
  'ccAppId',
  'ccAppName',
  'kind',
  'secrecy',
  'hidden',
  'properties',
  'subjectScopes',
  'logoAddress',
  'authSecrecy',
  'productId',
  'productName',
  'kpiCode',
  'kpiName',
] as const;
const NUMERIC_KEYS = new Set([
  'bgId',
  'businessLineId',
  'centerId',
  'deptId',
  'ccAppId',
  'projectType',
  'kind',
  'authSecrecy',
  'productId',
]);

const WHOLE = /^-?(0|[1-9]\d*)$/;

/** A value read from ProjectVO as it goes back into a PUT, or undefined when it cannot go back unchanged. */
function carried(key: string, value: unknown): unknown {
  if (!NUMERIC_KEYS.has(key)) return value;
  if ((typeof value === 'number' && Number.isSafeInteger(value)) || JSON.isRawJSON(value)) return value;
  return typeof value === 'string' && WHOLE.test(value) ? exactInteger(value) : undefined;
}

/**
 * The PUT body that changes only what `given` names: the project as it is now (ProjectVO's
 * string ids back as exact numbers), the given fields over it, and `englishName` equal to the
 * path id, which bk-ci needs for its permission and name checks. bk-ci's PUT resets every field
 * it is not given, so a value read that cannot be sent back unchanged is a problem, named, never
 * dropped: the caller stops before the PUT.
 */
export function mergeForUpdate(
  current: Record<string, unknown>,
  given: ProjectFields,
  projectId: string,
): { body: Record<string, unknown>; problems: string[] } {
  const body: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const key of UPDATE_KEYS) {
    if (given[key] !== undefined) continue;
    const value = key === 'logoAddress' ? current.logoAddr : current[key];
    // ProjectVO shows a missing logo as "": sending "" back would store an empty address.
    if (value === undefined || value === null || (key === 'logoAddress' && value === '')) continue;
    const out = carried(key, value);
    if (out === undefined) problems.push(`${key} is ${JSON.stringify(value)}, not a whole number that can be sent back as it is`);
    else body[key] = out;
  }
  for (const [key, value] of Object.entries(given)) if (value !== undefined) body[key] = value;
  body.englishName = projectId;
  return { body, problems };
}

// The gateway renames the project calls (@BkApigwApi apigwPathTail): same ProjectVO, same wrapper.
export const PROJECT_READ = perGateway('GET', 'v3/projects/{projectId}', 'v4/projects/{projectId}');
export const PROJECT_UPDATE = perGateway('PUT', 'v3/projects/{projectId}', 'v4/projects/{projectId}');
export const PROJECT_LIST = perGateway('GET', 'v3/projects', 'v4/projects/project_list');
export const PROJECT_CREATE = perGateway('POST', 'v3/projects', 'v4/projects/project_create');

/** The fields of ProjectVO this action reads. */
const projectFieldsRead = () => ({
  englishName: z.string(),
  projectName: z.string(),
  description: z.string().nullish(),
  creator: z.string().nullish(),
  enabled: z.boolean().nullish(),
  approvalStatus: z.number().nullish(),
});
/** ProjectVO: the fields this action reads are checked, the rest passed through to `data`. */
const projectVO = z.lazy(() => z.looseObject(projectFieldsRead()));
export type Project = z.infer<typeof projectVO>;

/**
 * Each project checked by projectVO but kept as it came: zod returns a copy of every object it
 * parses, which for a list of 20,000 projects doubled the peak memory (BENCHMARKS.md).
 * Sound because projectVO transforms nothing; the check strips what it does not read, so the
 * throw-away copy it makes of each project is six fields, not fifty.
 */
export const projectInPlace = z.lazy(() => {
  const check = z.object(projectFieldsRead());
  return z.custom<Project>((v) => check.safeParse(v).success, { error: 'not a project: englishName and projectName must be strings' });
});

/**
 * The project, or undefined when there is none: bk-ci answers 200 without data, the spec 404.
 * Read exactly (ids beyond 2^53 to the digit), since an update sends it back.
 */
export async function findProject(api: BkciApi, projectId: string): Promise<{ project: Project | undefined; status: number }> {
  try {
    const reply = await api.call({ endpoint: PROJECT_READ, params: { projectId }, data: projectVO, exact: true });
    // An answer about another project (a cache, a proxy, a rewrite) would be shown, or merged and
    // written back over this one. MySQL compares project codes without case, so case may differ.
    const about = reply.data?.englishName;
    if (about !== undefined && about.toLowerCase() !== projectId.toLowerCase())
      throw new ActionError(
        `bk-ci answered about project ${JSON.stringify(about)} when asked for project ${JSON.stringify(projectId)}: the answer is not used`,
        { status: reply.status },
      );
    return { project: reply.data, status: reply.status };
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return { project: undefined, status: 404 };
    throw error;
  }
}

/** Creates a project from the fields given (bk-ci's defaults under them): whether bk-ci said it did. */
export async function createProject(api: BkciApi, fields: Record<string, unknown>): Promise<{ done: boolean; status: number }> {
  const reply = await api.call({ endpoint: PROJECT_CREATE, body: fields, data: z.boolean() });
  return { done: reply.data !== false, status: reply.status };
}

/** Writes a project whole (bk-ci's PUT resets every field it is not given): whether bk-ci said it did. */
export async function putProject(
  api: BkciApi,
  projectId: string,
  body: Record<string, unknown>,
): Promise<{ done: boolean; status: number }> {
  const reply = await api.call({ endpoint: PROJECT_UPDATE, params: { projectId }, body, data: z.boolean() });
  return { done: reply.data !== false, status: reply.status };
}

/** Every project the user can see, read one at a time as the answer arrives: the first `keep` as objects, all of them into `into`. */
export const listProjects = (api: BkciApi, keep: number, into: JsonItemSink): Promise<Reply<ListRead<Project>>> =>
  api.list({ endpoint: PROJECT_LIST, item: projectInPlace, keep, into });
