// bk-ci's projects: seeded through the control API (POST /__emulator/projects) and read, listed,
// created and updated through the OpenAPI as bk-ci's project service answers (its project
// `Result` with `code`; AbsProjectServiceImpl's checks in its order). Who may see a project:
// its members (managers) and viewers.
import { z } from 'zod';
import { assignFields, CREATE_FIELDS, readProjectBody, UPDATE_FIELDS } from './project-body.ts';
import { day, newProject, projectVO, type StoredProject } from './project-record.ts';
import { json, type Reply, type Wire } from './wire.ts';

const ENGLISH_NAME = /^[a-z][a-zA-Z0-9-]+$/;

export interface ProjectSeed extends Partial<Omit<StoredProject, 'members' | 'viewers'>> {
  englishName: string;
  projectName: string;
  /** Project managers. */
  members?: string[];
  /** Members who are not managers. */
  viewers?: string[];
}

/** A Long as the control API takes it: a whole number, or a string of digits (exact beyond 2^53, as a bigint). */
const long = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d+$/)
    .transform((digits) => BigInt(digits)),
]);

/** POST /__emulator/projects. */
export const projectBody = z
  .object({
    englishName: z.string().min(1),
    projectName: z.string().min(1),
    description: z.string().optional(),
    creator: z.string().optional(),
    members: z.array(z.string()).optional(),
    viewers: z.array(z.string()).optional(),
    projectType: z.number().int().optional(),
    bgId: long.optional(),
    bgName: z.string().optional(),
    deptId: long.nullable().optional(),
    deptName: z.string().optional(),
    centerId: long.nullable().optional(),
    centerName: z.string().optional(),
    businessLineId: long.nullable().optional(),
    businessLineName: z.string().optional(),
    secrecy: z.boolean().optional(),
    enabled: z.boolean().optional(),
    properties: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/** The projects of the emulated installation, by English name. */
export class ProjectWorld {
  readonly projects = new Map<string, StoredProject>();
  readonly #wire: Wire;
  readonly #now: () => number;
  #lastId = 0;

  constructor(wire: Wire, now: () => number) {
    this.#wire = wire;
    this.#now = now;
  }

  /** Whether the user may see the project: a member or a viewer. */
  sees(project: StoredProject | undefined, userId: string): project is StoredProject {
    return project !== undefined && (project.members.has(userId) || project.viewers.has(userId));
  }

  /**
   * What bk-ci says to a project that cannot be created (AbsProjectServiceImpl.validate): a name
   * checked first, then the English name. A seed gets no exemption: a test that seeds a
   * duplicate would pass where bk-ci fails.
   */
  duplicateOf(seed: { englishName: string; projectName: string }): Reply | undefined {
    for (const project of this.projects.values())
      if (project.projectName === seed.projectName)
        return json(400, {
          status: 2119002,
          message: '项目名或英文名重复',
          detail: `a project named "${seed.projectName}" exists: ${project.englishName}`,
        });
    if (this.projects.has(seed.englishName))
      return json(400, { status: 2119007, message: '英文名已经存在', detail: `project ${seed.englishName} exists` });
    return undefined;
  }

  /** Adds the project; throws what bk-ci would refuse its creation with. */
  seed(seed: ProjectSeed): StoredProject {
    const duplicate = this.duplicateOf(seed);
    if (duplicate !== undefined) throw new Error(`cannot seed project ${seed.englishName}: ${duplicate.body}`);
    const { members, viewers, ...fields } = seed;
    const creator = seed.creator ?? members?.[0] ?? 'admin';
    const project = newProject(fields, ++this.#lastId, creator, this.#now());
    for (const member of members ?? []) project.members.add(member);
    for (const viewer of viewers ?? []) project.viewers.add(viewer);
    this.projects.set(project.englishName, project);
    return project;
  }

  /** GET v3/projects/{id}. */
  get(id: string): Reply {
    const project = this.projects.get(id);
    // bk-ci: getByEnglishName returns null and the answer is 200, code 0, no data.
    if (project === undefined) return this.#wire.flavour === 'bkci' ? this.#wire.projectOk(undefined) : this.#wire.notFound();
    return this.#wire.projectOk(projectVO(project));
  }

  /** GET v3/projects: the projects the user sees, offlined ones left out. */
  list(userId: string): Reply {
    return this.#wire.projectOk(this.#visible(userId).map(projectVO));
  }

  /**
   * v4's list (ApigwProjectResourceV4 project_list): the same projects, filtered by `channelCodes`
   * (repeated; every project here is made through the API, channel BS) and paged only when both
   * `page` and `pageSize` are given (AbsProjectServiceImpl.list).
   */
  listV4(userId: string, query: URLSearchParams): Reply {
    const channels = query.getAll('channelCodes');
    const visible = channels.length === 0 || channels.includes('BS') ? this.#visible(userId) : [];
    const page = Number(query.get('page'));
    const size = Number(query.get('pageSize'));
    const paged =
      query.has('page') && query.has('pageSize') && page >= 1 && size >= 1 ? visible.slice((page - 1) * size, page * size) : visible;
    return this.#wire.projectOk(paged.map(projectVO));
  }

  #visible(userId: string): StoredProject[] {
    return [...this.projects.values()].filter((project) => this.sees(project, userId) && !project.offlined);
  }

  /** POST v3/projects: bk-ci's checks in its order, then the project, created by the caller. */
  create(userId: string, body: unknown): Reply {
    const read = readProjectBody(this.#wire, body, CREATE_FIELDS, ['projectName', 'englishName', 'description']);
    if ('reply' in read) return read.reply;
    const projectName = read.body.projectName as string;
    const englishName = read.body.englishName as string;
    const nameProblem = this.#nameProblem(projectName, '\u0000');
    if (nameProblem) return nameProblem;
    if (englishName.trim() === '') return this.#wire.domain(400, 2119003, '名称不能为空');
    if (englishName.length < 2 || englishName.length > 32) return this.#wire.domain(400, 2119005, '英文名长度在3-32个字符');
    if (!ENGLISH_NAME.test(englishName)) return this.#wire.domain(400, 2119006, '英文名是字符+数字组成，并以小写字母开头');
    if (this.projects.has(englishName)) return this.#wire.domain(409, 2119007, '英文名已经存在');
    const project = newProject({ englishName, projectName }, ++this.#lastId, userId, this.#now());
    assignFields(project, read.body, true);
    this.projects.set(englishName, project);
    return this.#wire.projectOk(true, 201);
  }

  /** PUT v3/projects/{id}: a manager's, of the project the body names. */
  update(userId: string, id: string, body: unknown): Reply {
    const project = this.projects.get(id);
    if (project === undefined) return this.#wire.notFound();
    const read = readProjectBody(this.#wire, body, UPDATE_FIELDS, ['projectName', 'description']);
    if ('reply' in read) return read.reply;
    // The permission check and the name-uniqueness check both use the body's englishName
    // (default ""), not the path: a client that leaves it out trips over its own name.
    const englishName = typeof read.body.englishName === 'string' ? read.body.englishName : '';
    const target = this.projects.get(englishName);
    if (target === undefined || !target.members.has(userId)) {
      return this.#wire.flavour === 'spec'
        ? this.#wire.error(403, 403, 'You do not have permission to do so')
        : this.#wire.error(400, 400, '修改项目错误: 没有该项目的操作权限');
    }
    const nameProblem = this.#nameProblem(read.body.projectName as string, englishName);
    if (nameProblem) return nameProblem;
    assignFields(project, read.body, false);
    project.englishName = englishName;
    project.updator = userId;
    project.updatedAt = day(this.#now());
    return this.#wire.projectOk(true);
  }

  /** A project name bk-ci refuses: empty, too long, or another project's. */
  #nameProblem(name: string, exceptEnglishName: string): Reply | undefined {
    if (name.trim() === '') return this.#wire.domain(400, 2119003, '名称不能为空');
    if (name.length > 64) return this.#wire.domain(400, 2119004, '项目名至多1-64个字符');
    for (const project of this.projects.values()) {
      if (project.projectName === name && project.englishName !== exceptEnglishName)
        return this.#wire.domain(409, 2119002, '项目名或英文名重复');
    }
    return undefined;
  }
}
