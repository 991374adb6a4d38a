// A project's create and update bodies as bk-ci reads them: Jackson's view (unknown fields ignored,
// a wrong type or a missing required field a 400) and ProjectDao's writes (organisation fields
// written whether given or not; a few only when non-null; `kind` and `ccAppId` never on update).
import type { Long, StoredProject } from './project-record.ts';
import type { Reply, Wire } from './wire.ts';

/** A request body as Jackson has read it: field name → value. */
export type ProjectBody = Record<string, unknown>;
type FieldKind = 'string' | 'int' | 'bool' | 'object' | 'array';

export const CREATE_FIELDS: Record<string, FieldKind> = {
  projectName: 'string',
  englishName: 'string',
  description: 'string',
  projectType: 'int',
  bgId: 'int',
  bgName: 'string',
  businessLineId: 'int',
  businessLineName: 'string',
  deptId: 'int',
  deptName: 'string',
  centerId: 'int',
  centerName: 'string',
  secrecy: 'bool',
  hidden: 'bool',
  projectScope: 'int',
  kind: 'int',
  properties: 'object',
  subjectScopes: 'array',
  logoAddress: 'string',
  authSecrecy: 'int',
  enabled: 'bool',
  productId: 'int',
  productName: 'string',
  kpiCode: 'string',
  kpiName: 'string',
};
export const UPDATE_FIELDS: Record<string, FieldKind> = { ...CREATE_FIELDS, ccAppId: 'int', ccAppName: 'string' };

const fits = (kind: FieldKind, value: unknown): boolean =>
  kind === 'string'
    ? typeof value === 'string'
    : kind === 'int'
      ? Number.isInteger(value) || typeof value === 'bigint'
      : kind === 'bool'
        ? typeof value === 'boolean'
        : kind === 'array'
          ? Array.isArray(value)
          : typeof value === 'object' && !Array.isArray(value);

/** Jackson's view of the body: unknown fields ignored, wrong types and missing required fields a 400. */
export function readProjectBody(
  wire: Wire,
  body: unknown,
  fields: Record<string, FieldKind>,
  required: string[],
): { body: ProjectBody } | { reply: Reply } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { reply: wire.error(400, 400, 'JSON参数错误') };
  const read = body as ProjectBody;
  for (const name of required) {
    if (read[name] === undefined || read[name] === null)
      return { reply: wire.error(400, 400, `请求体内容参数错误。温馨提示：请确认${name}是否符合要求`) };
  }
  for (const [name, kind] of Object.entries(fields)) {
    const value = read[name];
    if (value !== undefined && value !== null && !fits(kind, value)) return { reply: wire.error(400, 400, '查询参数请求错误') };
  }
  return { body: read };
}

/**
 * bk-ci's ProjectDao.update: organisation fields are written whether given or not (their
 * defaults when omitted); a few only when non-null; `kind` and `ccAppId` never.
 */
export function assignFields(project: StoredProject, body: ProjectBody, creating: boolean): void {
  const long = (name: string, fallback: number | null): Long | null =>
    body[name] === undefined || body[name] === null ? fallback : (body[name] as Long);
  // Int fields: readProjectBody let a bigint through only for Long ones in spirit; Number keeps the type.
  const int = (name: string, fallback: number | null): number | null => {
    const value = long(name, fallback);
    return value === null ? null : Number(value);
  };
  const text = (name: string, fallback: string): string => (typeof body[name] === 'string' ? (body[name] as string) : fallback);
  project.projectName = body.projectName as string;
  project.description = body.description as string;
  project.projectType = int('projectType', 0) ?? 0;
  project.bgId = long('bgId', 0) ?? 0;
  project.bgName = text('bgName', '');
  project.businessLineId = long('businessLineId', null);
  project.businessLineName = text('businessLineName', '');
  project.centerId = long('centerId', creating ? 0 : null);
  project.centerName = text('centerName', '');
  project.deptId = long('deptId', creating ? 0 : null);
  project.deptName = text('deptName', '');
  project.productId = int('productId', null);
  project.subjectScopes = Array.isArray(body.subjectScopes) ? body.subjectScopes : [];
  project.secrecy = body.secrecy === true;
  if (typeof body.hidden === 'boolean') project.hidden = body.hidden;
  if (typeof body.logoAddress === 'string') project.logoAddr = body.logoAddress;
  if (typeof body.properties === 'object' && body.properties !== null) project.properties = body.properties as Record<string, unknown>;
  if (Number.isInteger(body.authSecrecy)) project.authSecrecy = body.authSecrecy as number;
  if (creating) {
    project.kind = int('kind', 0) ?? 0;
    project.projectScope = int('projectScope', 0) ?? 0;
    if (typeof body.enabled === 'boolean') project.enabled = body.enabled;
  }
}
