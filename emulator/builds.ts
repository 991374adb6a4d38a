// Pipelines and their builds, as bk-ci's v4 OpenAPI shows them: start, status, stop. A seeded
// pipeline scripts the life of every build it starts: phases (QUEUE, RUNNING, a STAGE_SUCCESS
// review pause, …), then an end status. Facts from bkci-builds-callbacks-gateway.md §1.
import { z } from 'zod';
import { artifactSeedSchema } from './artifacts.ts';
import { logScriptSchema } from './logs.ts';
import { variablesSeedSchema } from './variables.ts';
import type { Reply, Wire } from './wire.ts';

export const phaseSchema = z
  .object({
    status: z.string().min(1),
    ms: z.number().int().min(0),
    /** For a STAGE_SUCCESS pause: the stage that waits for review. */
    stage: z.string().optional(),
  })
  .strict();

/** A pipeline as the control API seeds it. */
export const pipelineSchema = z
  .object({
    projectId: z.string().min(1),
    pipelineId: z.string().regex(/^p-/),
    name: z.string().default('Pipeline'),
    /** Every build goes through these, in order; a phase with no `ms` limit lasts forever. */
    phases: z.array(phaseSchema).default([
      { status: 'QUEUE', ms: 500 },
      { status: 'RUNNING', ms: 1500 },
    ]),
    /** How a build ends; STAGE_SUCCESS here means it ended at a stage (endTime set). */
    result: z.string().default('SUCCEED'),
    stages: z.array(z.string()).default(['Build', 'Release']),
    errorInfoList: z
      .array(
        z.object({ taskName: z.string(), errorCode: z.number().int(), errorMsg: z.string(), atomCode: z.string().optional() }).strict(),
      )
      .default([]),
    /** Start parameters that must be given (bk-ci's valueNotEmpty): 2101254 when missing. */
    required: z.array(z.string()).default([]),
    /** Every start fails with this, as bk-ci's checks would: locked, queue full, … */
    startError: z.object({ http: z.number().int(), status: z.number().int(), message: z.string() }).strict().optional(),
    /** A build whose QUEUE phase says where it is in the queue. */
    queuePosition: z.number().int().min(1).default(1),
    /** What its steps write to the build log, and when (emulator/logs.ts). */
    logs: logScriptSchema.optional(),
    /** Variables its steps set, read with build_variables (emulator/variables.ts). */
    variables: variablesSeedSchema.optional(),
    /** Files every build archives, listed with artifactories/file_info (emulator/artifacts.ts). */
    artifacts: z.array(artifactSeedSchema).optional(),
  })
  .strict();
export type Pipeline = z.infer<typeof pipelineSchema>;

export interface Build {
  id: string;
  num: number;
  projectId: string;
  pipelineId: string;
  startedAt: number;
  userId: string;
  params: Record<string, string>;
  /** When it was stopped, if it was. */
  canceledAt?: number;
}

/** The pipelines and builds of the emulated installation. */
export class BuildWorld {
  readonly pipelines = new Map<string, Pipeline>();
  readonly builds = new Map<string, Build>();
  readonly #wire: Wire;
  readonly #now: () => number;
  #nextBuild = 0;

  constructor(wire: Wire, now: () => number) {
    this.#wire = wire;
    this.#now = now;
  }

  seed(p: Pipeline): void {
    this.pipelines.set(`${p.projectId}/${p.pipelineId}`, p);
  }

  /** POST v4/projects/{p}/build_start?pipelineId=: a BuildId, or bk-ci's start errors. */
  start(projectId: string, pipelineId: string | null, userId: string, body: unknown): Reply {
    if (!pipelineId) return this.#wire.error(400, 400, '参数校验失败:request param pipelineId cannot be empty');
    const p = this.pipelines.get(`${projectId}/${pipelineId}`);
    if (p === undefined) return this.#wire.error(404, 2101038, '流水线: 流水线不存在');
    if (p.startError) return this.#wire.error(p.startError.http, p.startError.status, p.startError.message);
    const values = z.record(z.string(), z.string()).safeParse(body ?? {});
    if (!values.success) return this.#wire.error(400, 400, 'JSON参数错误');
    const missing = p.required.find((k) => (values.data[k] ?? '') === '');
    if (missing !== undefined) return this.#wire.error(400, 2101254, `构建入参[${missing}]必填，不能为空`);
    const num = [...this.builds.values()].filter((b) => b.pipelineId === pipelineId).length + 1;
    const id = `b-${(++this.#nextBuild).toString(16).padStart(32, '0')}`;
    this.builds.set(id, { id, num, projectId, pipelineId, startedAt: this.#now(), userId, params: values.data });
    return this.#wire.ok({ id, executeCount: 1, projectId, pipelineId, num });
  }

  #find(projectId: string, buildId: string | null, pipelineId: string | null): Build | Reply {
    const b = buildId ? this.builds.get(buildId) : undefined;
    // v4's checkPipelineId: an unknown or foreign build id is a 400 with an unfilled {0}.
    if (b === undefined || b.projectId !== projectId)
      return this.#wire.error(400, 400, '参数校验失败:{0} Invalid buildId, please check if projectId & buildId are related');
    if (pipelineId && pipelineId !== b.pipelineId) return this.#wire.error(400, 2101058, '流水线: 流水线ID与构建ID不匹配');
    return b;
  }

  /** Where a build is in its life now: status, endTime, the stage a review pause waits at. */
  state(b: Build): { status: string; endTime: number | null; stage?: string; phaseIndex: number } {
    const p = this.pipelines.get(`${b.projectId}/${b.pipelineId}`);
    if (b.canceledAt !== undefined) return { status: 'CANCELED', endTime: b.canceledAt, phaseIndex: -1 };
    let t = b.startedAt;
    const now = this.#now();
    for (const [i, phase] of (p?.phases ?? []).entries()) {
      if (now < t + phase.ms) return { status: phase.status, endTime: null, ...(phase.stage ? { stage: phase.stage } : {}), phaseIndex: i };
      t += phase.ms;
    }
    return { status: p?.result ?? 'SUCCEED', endTime: t, phaseIndex: p?.phases.length ?? 0 };
  }

  /** GET v4/projects/{p}/build_status?buildId=&pipelineId=: BuildHistoryWithVars. */
  status(projectId: string, buildId: string | null, pipelineId: string | null): Reply {
    const b = this.#find(projectId, buildId, pipelineId);
    if (!('id' in b)) return b;
    const p = this.pipelines.get(`${b.projectId}/${b.pipelineId}`);
    const s = this.state(b);
    const ended = s.endTime !== null;
    const stageNames = p?.stages ?? [];
    const last = stageNames.length - 1;
    // The stage under way: the one a review pause waits at, else the one after the last review passed.
    let current = 0;
    for (const phase of (p?.phases ?? []).slice(0, Math.max(0, s.phaseIndex + 1))) {
      const at = phase.stage === undefined ? -1 : stageNames.indexOf(phase.stage);
      if (at >= 0) current = phase === p?.phases[s.phaseIndex] ? at : Math.min(at + 1, last);
    }
    const stageStatus = stageNames.map((name, i) => ({
      stageId: `stage-${i + 1}`,
      name,
      ...(ended
        ? { status: i === last ? s.status : 'SUCCEED', elapsed: 1000 }
        : i < current
          ? { status: 'SUCCEED', elapsed: 1000 }
          : i === current && s.status !== 'QUEUE'
            ? { status: s.status }
            : {}),
    }));
    const failed = ended && !['SUCCEED', 'STAGE_SUCCESS', 'CANCELED'].includes(s.status);
    return this.#wire.ok({
      id: b.id,
      userId: b.userId,
      trigger: '服务触发',
      buildNum: b.num,
      pipelineVersion: 1,
      startTime: s.status === 'QUEUE' ? 0 : b.startedAt,
      endTime: s.endTime,
      status: s.status,
      stageStatus,
      currentTimestamp: this.#now(),
      queueTime: b.startedAt,
      currentQueuePosition: s.status === 'QUEUE' ? (p?.queuePosition ?? 1) : 0,
      material: [],
      artifactList: [],
      buildParameters: Object.entries(b.params).map(([key, value]) => ({ key, value, valueType: 'STRING', readOnly: false })),
      errorInfoList: failed
        ? (p?.errorInfoList ?? []).map((e) => ({ stageId: 'stage-1', containerId: '1', taskId: 'e-1', errorType: 'USER', ...e }))
        : [],
      variables: { ...b.params, BK_CI_BUILD_ID: b.id, BK_CI_BUILD_NUM: String(b.num) },
    });
  }

  /** POST v4/projects/{p}/build_stop?buildId=&pipelineId=: true, or 2101182 when it already ended. */
  stop(projectId: string, buildId: string | null, pipelineId: string | null): Reply {
    const b = this.#find(projectId, buildId, pipelineId);
    if (!('id' in b)) return b;
    if (this.state(b).endTime !== null) return this.#wire.error(400, 2101182, '流水线: 流水线构建已结束，不能操作');
    b.canceledAt = this.#now();
    return this.#wire.ok(true);
  }
}
