import { z } from 'zod';

/** bk-ci ids are Long in create/update bodies but strings in ProjectVO; accept both, send numbers. */
const id = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d+$/, 'a whole number')
    .transform(Number),
]);

/** The fields of ProjectCreateInfo / ProjectUpdateInfo; others are passed through untouched. */
export const projectFields = z.looseObject({
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
export type ProjectFields = z.infer<typeof projectFields>;

/** `project` as a JSON object or a YAML mapping. YAML's parser loads only when needed. */
export async function parseProjectText(text: string): Promise<unknown> {
  const t = text.trim();
  if (t.startsWith('{')) {
    try {
      return JSON.parse(t) as unknown;
    } catch {
      // a YAML flow mapping also starts with '{'
    }
  }
  const { parse } = await import('yaml');
  return parse(t, { schema: 'core' }) as unknown;
}

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

/**
 * The PUT body that changes only what `given` names: the project as it is now (ProjectVO,
 * string ids turned back into numbers), the given fields over it, and `englishName` equal to
 * the path id, which bk-ci needs for its permission and name checks.
 */
export function mergeForUpdate(current: Record<string, unknown>, given: ProjectFields, projectId: string): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of UPDATE_KEYS) {
    let value = key === 'logoAddress' ? current.logoAddr : current[key];
    if (NUMERIC_KEYS.has(key) && typeof value === 'string') value = /^-?\d+$/.test(value) ? Number(value) : undefined;
    if (key === 'logoAddress' && value === '') value = undefined;
    if (value !== undefined && value !== null) body[key] = value;
  }
  for (const [key, value] of Object.entries(given)) if (value !== undefined) body[key] = value;
  body.englishName = projectId;
  return body;
}
