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

export interface SignTask {
  resignId: string;
  createdAt: number;
  runningMs: number;
  result: 'SUCCESS' | 'FAIL';
  failMessage: string;
  projectId: string;
  pipelineId: string;
  buildId: string;
  resultFileName: string;
}

export interface Callback {
  id: number;
  projectId: string;
  url: string;
  event: string;
  region: string;
  secretToken: string | null;
  creator: string;
  /** bk-ci's circuit breaker clears it after 12 h of failed deliveries; re-registering does not set it again. */
  enable: boolean;
  createdAt: number;
}

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** ProjectVO as `ProjectUtils.packagingBean` builds it: numeric ids become strings. */
export function projectVO(p: StoredProject): Record<string, unknown> {
  const str = (n: Long | null): string | null => (n === null ? null : String(n));
  return {
    id: p.id,
    projectId: p.projectId,
    projectName: p.projectName,
    projectCode: p.englishName,
    projectType: p.projectType,
    approvalStatus: 2,
    approver: '',
    ccAppId: 0,
    ccAppName: '',
    createdAt: p.createdAt,
    creator: p.creator,
    dataId: 0,
    bgId: str(p.bgId),
    bgName: p.bgName,
    businessLineId: str(p.businessLineId),
    businessLineName: p.businessLineName,
    centerId: str(p.centerId),
    centerName: p.centerName,
    deptId: str(p.deptId),
    deptName: p.deptName,
    description: p.description,
    englishName: p.englishName,
    offlined: p.offlined,
    secrecy: p.secrecy,
    hidden: p.hidden,
    projectScope: p.projectScope,
    kind: p.kind,
    logoAddr: p.logoAddr ?? '',
    updatedAt: p.updatedAt,
    updator: p.updator ?? '',
    enabled: p.enabled,
    gray: false,
    enableIdc: false,
    pipelineLimit: 500,
    properties: p.properties ?? {},
    subjectScopes: p.subjectScopes,
    authSecrecy: p.authSecrecy,
    productId: p.productId,
  };
}

export function newProject(
  fields: Partial<StoredProject> & { englishName: string; projectName: string },
  id: number,
  creator: string,
  now: number,
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
    createdAt: day(now),
    updator: null,
    updatedAt: '',
    members: new Set([creator]),
    viewers: new Set(),
    offlined: false,
    ...fields,
  };
}

export { day };
