// A project as bk-ci stores it (T_PROJECT) and as its API shows it (ProjectVO), and the day
// strings bk-ci keeps its times in. The projects themselves and their endpoints: emulator/projects.ts.
/** Java's Long: exact beyond 2^53, as Jackson reads it. */
export type Long = number | bigint;

/** A project as bk-ci stores it; `packagingBean` turns it into the ProjectVO the API returns. */
export interface StoredProject {
  id: number;
  projectId: string;
  englishName: string;
  projectName: string;
  description: string;
  projectType: number;
  bgId: Long;
  bgName: string;
  businessLineId: Long | null;
  businessLineName: string;
  deptId: Long | null;
  deptName: string;
  centerId: Long | null;
  centerName: string;
  secrecy: boolean;
  hidden: boolean;
  kind: number;
  projectScope: number;
  authSecrecy: number;
  enabled: boolean;
  logoAddr: string | null;
  properties: Record<string, unknown> | null;
  subjectScopes: unknown[];
  productId: number | null;
  creator: string;
  createdAt: string;
  updator: string | null;
  updatedAt: string;
  /** Project managers: they may register and delete callbacks. */
  members: Set<string>;
  /** Members who are not managers: they may see the project and list its callbacks. */
  viewers: Set<string>;
  offlined: boolean;
}

/** The day of an epoch time, as bk-ci's project rows keep `createdAt` and `updatedAt`. */
export const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** ProjectVO as `ProjectUtils.packagingBean` builds it: numeric ids become strings. */
export function projectVO(project: StoredProject): Record<string, unknown> {
  const text = (id: Long | null): string | null => (id === null ? null : String(id));
  return {
    id: project.id,
    projectId: project.projectId,
    projectName: project.projectName,
    projectCode: project.englishName,
    projectType: project.projectType,
    approvalStatus: 2,
    approver: '',
    ccAppId: 0,
    ccAppName: '',
    createdAt: project.createdAt,
    creator: project.creator,
    dataId: 0,
    bgId: text(project.bgId),
    bgName: project.bgName,
    businessLineId: text(project.businessLineId),
    businessLineName: project.businessLineName,
    centerId: text(project.centerId),
    centerName: project.centerName,
    deptId: text(project.deptId),
    deptName: project.deptName,
    description: project.description,
    englishName: project.englishName,
    offlined: project.offlined,
    secrecy: project.secrecy,
    hidden: project.hidden,
    projectScope: project.projectScope,
    kind: project.kind,
    logoAddr: project.logoAddr ?? '',
    updatedAt: project.updatedAt,
    updator: project.updator ?? '',
    enabled: project.enabled,
    gray: false,
    enableIdc: false,
    pipelineLimit: 500,
    properties: project.properties ?? {},
    subjectScopes: project.subjectScopes,
    authSecrecy: project.authSecrecy,
    productId: project.productId,
  };
}

export function newProject(
  fields: Partial<StoredProject> & { englishName: string; projectName: string },
  id: number,
  creator: string,
  createdAt: number,
): StoredProject {
  return {
    id,
    projectId: `${id.toString(16).padStart(8, '0')}0000000000000000000000${id}`.slice(0, 32),
    description: '',
    projectType: 0,
    bgId: 0,
    bgName: '',
    businessLineId: null,
    businessLineName: '',
    deptId: 0,
    deptName: '',
    centerId: 0,
    centerName: '',
    secrecy: false,
    hidden: false,
    kind: 0,
    projectScope: 0,
    authSecrecy: 0,
    enabled: true,
    logoAddr: null,
    properties: null,
    subjectScopes: [],
    productId: null,
    creator,
    createdAt: day(createdAt),
    updator: null,
    updatedAt: '',
    members: new Set([creator]),
    viewers: new Set(),
    offlined: false,
    ...fields,
  };
}
