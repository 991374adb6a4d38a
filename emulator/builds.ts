// Pipelines and their builds, as bk-ci's v4 OpenAPI shows them: start, status, stop, history,
// detail. A seeded pipeline scripts the life of every build it starts: phases (QUEUE, RUNNING, a
// stage waiting for review, a manual-review step, …), then an end status. Facts from
// docs/bkci/builds.md.
import { z } from 'zod';
import { artifactSeedSchema } from './artifacts.ts';
import {
  allSteps,
  jobSeedSchema,
  layout,
  reviewParamSchema,
  type StageLayout,
  type StepLayout,
  startParameters,
  startVariables,
} from './build-model.ts';
import { logScriptSchema } from './logs.ts';
import type { Retry } from './retries.ts';
import { type Decision, stageReview, stepReview } from './reviews.ts';
import { variablesSeedSchema } from './variables.ts';
import type { Reply, Wire } from './wire.ts';

export const reviewGroupSchema = z
  .object({
    name: z.string().min(1),
    reviewers: z.array(z.string().min(1)).min(1),
    /** Project user groups; bk-ci expands them into `reviewers` when the stage pauses. */
    groups: z.array(z.string()).default([]),
  })
  .strict();

export const phaseSchema = z
  .object({
    status: z.string().min(1),
    /** How long the phase lasts; required unless it waits for a review (`review`, `step`), which lasts until decided. */
    ms: z.number().int().min(0).optional(),
    /** The stage this phase runs; for a STAGE_SUCCESS pause, the stage that waits for review. */
    stage: z.string().optional(),
    /** A stage review (StagePauseCheck) at `stage`: the build waits until the groups decide, or `timeout` hours pass. */
    review: z
      .object({
        groups: z.array(reviewGroupSchema).min(1),
        params: z.array(reviewParamSchema).default([]),
        desc: z.string().optional(),
        timeout: z.number().int().min(1).default(24),
      })
      .strict()
      .optional(),
    /** The name of a manual-review step (a step with `reviewers` in `jobs`) that waits in this phase. */
    step: z.string().optional(),
  })
  .strict();
export type Phase = z.infer<typeof phaseSchema>;

const materialSchema = z
  .object({
    aliasName: z.string().default('app'),
    url: z.string().default(''),
    branchName: z.string().default('main'),
    newCommitId: z.string().default(''),
    /** Or the start value that names the commit, as a checkout step reads it from the build's variables. */
    commitFrom: z.string().optional(),
    newCommitComment: z.string().default(''),
    scmType: z.string().default('CODE_GIT'),
  })
  .strict();

/** A pipeline as the control API seeds it. */
export const pipelineSchema = z
  .object({
    projectId: z.string().min(1),
    pipelineId: z.string().regex(/^p-/),
    name: z.string().default('Pipeline'),
    /** Every build goes through these, in order. */
    phases: z.array(phaseSchema).default([
      { status: 'QUEUE', ms: 500 },
      { status: 'RUNNING', ms: 1500 },
    ]),
    /** How a build ends; STAGE_SUCCESS here means it ended at a stage (endTime set). */
    result: z.string().default('SUCCEED'),
    stages: z.array(z.string()).default(['Build', 'Release']),
    /** The jobs (containers) of a stage, by stage name, each with its steps; default one job with one step named after the stage. */
    jobs: z.record(z.string(), z.array(jobSeedSchema)).default({}),
    errorInfoList: z
      .array(
        z.object({ taskName: z.string(), errorCode: z.number().int(), errorMsg: z.string(), atomCode: z.string().optional() }).strict(),
      )
      .default([]),
    /** Start parameters that must be given (bk-ci's valueNotEmpty): 2101254 when missing. */
    required: z.array(z.string()).default([]),
    /**
     * The start parameters the pipeline declares, with their defaults: a start value it does not
     * declare is dropped, one it declares and a start does not give takes its default. Absent:
     * every value a start gives is declared (default "").
     */
    params: z.record(z.string(), z.string()).optional(),
    /** Start parameters declared as passwords (BuildFormProperty type PASSWORD): build_detail's trigger container says so. */
    passwords: z.array(z.string()).default([]),
    /** Locked (disabled): build_start and build_retry are refused with 2101047 (ERROR_PIPELINE_LOCK). */
    locked: z.boolean().default(false),
    /** Every retry fails with this, as bk-ci's checks would: 2101039 when the build's model is gone, … */
    retryError: z.object({ http: z.number().int(), status: z.number().int(), message: z.string() }).strict().optional(),
    /** How a retried run ends (default `result`): a flaky failure that passes the second time. */
    retryResult: z.string().optional(),
    /** Every start fails with this, as bk-ci's checks would: locked, queue full, … */
    startError: z.object({ http: z.number().int(), status: z.number().int(), message: z.string() }).strict().optional(),
    /** A build whose QUEUE phase says where it is in the queue. */
    queuePosition: z.number().int().min(1).default(1),
    /** What a checkout step records as the build's material (`build_histories`' material filters). */
    material: z.array(materialSchema).default([]),
    /** How long bk-ci takes to apply a manual_review decision made through the OpenAPI. */
    decisionDelayMs: z.number().int().min(0).default(1000),
    /** How long a build runs on (finally stages) after its stage review was rejected. */
    rejectRunMs: z.number().int().min(0).default(1000),
    /**
     * How long after its start a build shows in build_histories (a read replica behind, say);
     * build_status knows it at once. Default 0: bk-ci writes the history row before it answers.
     */
    historyLagMs: z.number().int().min(0).default(0),
    /** build_status answers about this build (its whole answer, or just its id when it does not exist) instead of the one asked for. */
    answerAsBuild: z.string().optional(),
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
  /** Who stopped it. */
  cancelUserId?: string;
  /** BK_CI_BUILD_MSG from the start values, cut to 255, or what bk-ci sets for an OpenAPI start. */
  buildMsg: string;
  /** Review decisions of the current run, in the order they were made. */
  decisions: Decision[];
  /** The run under way or last ended: 1, then one more for each retry (bk-ci's executeCount). */
  executeCount: number;
  /** The runs after the first, oldest first (emulator/retries.ts); the build lives the last. */
  retries: Retry[];
  /** A build seeded into the history (POST /__emulator/builds): its own life instead of the pipeline's. */
  script?: { phases: Phase[]; result: string };
}

/** bk-ci's BuildStatus.isFailure, and the build statuses that end as a failure. */
const FAILURES = new Set([
  'FAILED',
  'TERMINATE',
  'REVIEW_ABORT',
  'QUALITY_CHECK_FAIL',
  'QUEUE_TIMEOUT',
  'EXEC_TIMEOUT',
  'HEARTBEAT_TIMEOUT',
  'QUOTA_FAILED',
]);
/** A status of the queue: the build has not started running (startTime 0). */
const QUEUED = new Set(['QUEUE', 'QUEUE_CACHE', 'RETRY', 'DEPENDENT_WAITING', 'TRIGGER_REVIEWING']);
/** bk-ci's default message for a SERVICE start over the BS channel (BuildMsgUtils: "OpenAPI " + 触发). */
export const OPENAPI_BUILD_MSG = 'OpenAPI 触发';
const BUILD_MSG_MAX = 255;
/** ERROR_PIPELINE_LOCK's message (support-files/i18n/process/message_zh_CN.properties). */
export const PIPELINE_LOCKED = '流水线: 流水线锁定';

/** Where a build is in its life at one moment. */
export interface Life {
  status: string;
  endTime: number | null;
  /** For a STAGE_SUCCESS pause: the stage's name. */
  stage?: string;
  phaseIndex: number;
  /** When it left the queue; 0 while queued or when it never ran. */
  startTime: number;
  /** The user stage under way (index into the layout), -1 before any. */
  current: number;
  /** The phase whose review waits, with when the pause began. */
  pending?: { phase: number; since: number };
  /** When each phase reached so far began, by phase index. */
  phaseStarts: number[];
  /** How it ended, when a review decided it. */
  ending?: { kind: 'rejected'; stageIndex: number } | { kind: 'step'; step: StepLayout; action: string };
}

/** Throws when a phase of the pipeline's (or of a retried run's) names a stage or review step it does not have. */
export function checkPhases(p: Pipeline, phases: Phase[]): void {
  const stages = layout(p.pipelineId, p.stages, p.jobs);
  for (const [i, phase] of phases.entries()) {
    if (phase.ms === undefined && phase.review === undefined && phase.step === undefined)
      throw new Error(`phases.${i}.ms: required unless the phase waits for a review (review or step)`);
    if (phase.stage !== undefined && !p.stages.includes(phase.stage)) throw new Error(`phases.${i}.stage: no stage ${phase.stage}`);
    if (phase.review !== undefined && phase.stage === undefined) throw new Error(`phases.${i}: a review needs its stage`);
    if (phase.step !== undefined && !allSteps(stages).some((s) => s.name === phase.step && s.reviewers))
      throw new Error(`phases.${i}.step: no manual-review step ${phase.step} (a step with reviewers in jobs)`);
  }
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

  get wire(): Wire {
    return this.#wire;
  }

  now(): number {
    return this.#now();
  }

  /** Adds the pipeline; throws when its phases name a stage or review step it does not have. */
  seed(p: Pipeline): void {
    checkPhases(p, p.phases);
    this.pipelines.set(`${p.projectId}/${p.pipelineId}`, p);
  }

  /** The pipeline as the build's current run lives it: a retry's phases and end replace the seeded ones. */
  pipelineOf(b: Build): Pipeline | undefined {
    const p = this.pipelines.get(`${b.projectId}/${b.pipelineId}`);
    const run = b.retries.at(-1) ?? b.script;
    return p === undefined || run === undefined ? p : { ...p, phases: run.phases, result: run.result };
  }

  /** When the build's current run entered the queue: build_start, or its retry. */
  runQueuedAt(b: Build): number {
    return b.retries.at(-1)?.at ?? b.startedAt;
  }

  layoutOf(b: Build): StageLayout[] {
    const p = this.pipelineOf(b);
    return p === undefined ? [] : layout(p.pipelineId, p.stages, p.jobs);
  }

  /** POST v4/projects/{p}/build_start?pipelineId=: a BuildId, or bk-ci's start errors. */
  start(projectId: string, pipelineId: string | null, userId: string, body: unknown): Reply {
    if (!pipelineId) return this.#wire.error(400, 400, '参数校验失败:request param pipelineId cannot be empty');
    const p = this.pipelines.get(`${projectId}/${pipelineId}`);
    if (p === undefined) return this.#wire.error(404, 2101038, '流水线: 流水线不存在');
    if (p.locked) return this.#wire.error(400, 2101047, PIPELINE_LOCKED);
    if (p.startError) return this.#wire.error(p.startError.http, p.startError.status, p.startError.message);
    const values = z.record(z.string(), z.string()).safeParse(body ?? {});
    if (!values.success) return this.#wire.error(400, 400, 'JSON参数错误');
    const missing = p.required.find((k) => (values.data[k] ?? '') === '');
    if (missing !== undefined) return this.#wire.error(400, 2101254, `构建入参[${missing}]必填，不能为空`);
    const b = this.create({ projectId, pipelineId, userId, params: values.data, startedAt: this.#now() });
    return this.#wire.ok({ id: b.id, executeCount: 1, projectId, pipelineId, num: b.num });
  }

  /** A new build of the pipeline, numbered on; its message from BK_CI_BUILD_MSG as build_start takes it. */
  create(f: { projectId: string; pipelineId: string; userId: string; params: Record<string, string>; startedAt: number }): Build {
    const num = [...this.builds.values()].filter((b) => b.pipelineId === f.pipelineId && b.projectId === f.projectId).length + 1;
    const id = `b-${(++this.#nextBuild).toString(16).padStart(32, '0')}`;
    // BuildMsgUtils.getBuildMsg: a blank message is the start type's default; StartBuildContext cuts it.
    const given = f.params.BK_CI_BUILD_MSG;
    const buildMsg = (given === undefined || given.trim() === '' ? OPENAPI_BUILD_MSG : given).slice(0, BUILD_MSG_MAX);
    const b: Build = { ...f, id, num, buildMsg, decisions: [], executeCount: 1, retries: [] };
    this.builds.set(id, b);
    return b;
  }

  /** The build a v4 call names, or its refusal. */
  find(projectId: string, buildId: string | null, pipelineId: string | null): Build | Reply {
    const b = buildId ? this.builds.get(buildId) : undefined;
    // v4's checkPipelineId: an unknown or foreign build id is a 400 with an unfilled {0}.
    if (b === undefined || b.projectId !== projectId)
      return this.#wire.error(400, 400, '参数校验失败:{0} Invalid buildId, please check if projectId & buildId are related');
    // The same check: a pipelineId that is given (even empty) and not the build's.
    if (pipelineId !== null && pipelineId !== b.pipelineId) return this.#wire.error(400, 400, '参数校验失败:{0} PipelineId is invalid ');
    return b;
  }

  /** Where a build is in its life now: status, endTime, the stage a review pause waits at. */
  state(b: Build): { status: string; endTime: number | null; stage?: string; phaseIndex: number } {
    const { status, endTime, stage, phaseIndex } = this.life(b);
    return { status, endTime, phaseIndex, ...(stage === undefined ? {} : { stage }) };
  }

  /** The whole picture of a build at `at` (default now). */
  life(b: Build, at = this.#now()): Life {
    if (b.canceledAt !== undefined && b.canceledAt <= at) {
      const { canceledAt, ...running } = b;
      // Stopped: what it was doing then, and nothing waits any more.
      const { pending: _, ...before } = this.life(running, canceledAt);
      return { ...before, status: 'CANCELED', endTime: canceledAt, phaseIndex: -1 };
    }
    const p = this.pipelineOf(b);
    const stages = this.layoutOf(b);
    const stageIndex = (name: string | undefined) => (name === undefined ? -1 : (p?.stages.indexOf(name) ?? -1));
    let t = this.runQueuedAt(b);
    let startTime = 0;
    let current = -1;
    const phaseStarts: number[] = [];
    for (const [i, phase] of (p?.phases ?? []).entries()) {
      phaseStarts.push(t);
      if (startTime === 0 && !QUEUED.has(phase.status)) startTime = t;
      if (startTime !== 0) current = Math.max(current, 0);
      const anchored =
        phase.step !== undefined ? (allSteps(stages).find((s) => s.name === phase.step)?.stageIndex ?? -1) : stageIndex(phase.stage);
      if (anchored >= 0) current = anchored;
      const here = { phaseIndex: i, startTime, current, phaseStarts };
      if (phase.review !== undefined && p !== undefined) {
        const r = stageReview(p, b, i, t, at);
        if (r.decidedAt === undefined)
          return { ...here, status: 'STAGE_SUCCESS', endTime: null, stage: phase.stage ?? '', pending: { phase: i, since: t } };
        if (r.status === 'REVIEW_PROCESSED') {
          t = r.decidedAt;
          continue;
        }
        // Rejected (by a reviewer or the timeout): the build runs its finally stages, then ends STAGE_SUCCESS.
        const ending = { kind: 'rejected' as const, stageIndex: current };
        const end = r.decidedAt + p.rejectRunMs;
        return at < end
          ? { ...here, status: 'RUNNING', endTime: null, ending }
          : { ...here, status: 'STAGE_SUCCESS', endTime: end, ending };
      }
      if (phase.step !== undefined && p !== undefined) {
        const step = allSteps(stages).find((s) => s.name === phase.step);
        const r = stepReview(b, i, at);
        if (step === undefined || r === undefined || r.effectiveAt > at)
          return { ...here, status: phase.status, endTime: null, pending: { phase: i, since: t } };
        if (r.action === 'PROCESS') {
          t = r.effectiveAt;
          continue;
        }
        return { ...here, status: 'FAILED', endTime: r.effectiveAt, ending: { kind: 'step', step, action: r.action } };
      }
      if (phase.ms === undefined || at < t + phase.ms)
        return { ...here, status: phase.status, endTime: null, ...(phase.stage ? { stage: phase.stage } : {}) };
      t += phase.ms;
    }
    return { status: p?.result ?? 'SUCCEED', endTime: t, phaseIndex: p?.phases.length ?? 0, startTime, current, phaseStarts };
  }

  /** The step a failed build failed at: the one errorInfoList names, else the last step. */
  failedStep(b: Build, life: Life): StepLayout | undefined {
    if (life.ending?.kind === 'step') return life.ending.step;
    const steps = allSteps(this.layoutOf(b));
    const named = this.pipelineOf(b)?.errorInfoList[0]?.taskName;
    return steps.find((s) => s.name === named) ?? steps.at(-1);
  }

  /** Each user stage's status now (undefined: not reached). */
  stageStatuses(b: Build, life: Life): (string | undefined)[] {
    const n = this.pipelineOf(b)?.stages.length ?? 0;
    const before = (k: number, at: string | undefined) =>
      Array.from({ length: n }, (_, i) => (i < k ? 'SUCCEED' : i === k ? at : undefined));
    if (life.startTime === 0) return Array.from({ length: n }, () => undefined);
    if (life.ending?.kind === 'rejected') return before(life.ending.stageIndex, 'CANCELED');
    if (life.endTime === null) {
      if (life.status === 'STAGE_SUCCESS') return before(life.current, 'PAUSE');
      return before(life.current, QUEUED.has(life.status) ? undefined : life.status);
    }
    if (life.status === 'CANCELED') return before(life.current, 'CANCELED');
    if (life.status === 'SKIP') return Array.from({ length: n }, () => 'SKIP');
    if (FAILURES.has(life.status)) {
      const step = this.failedStep(b, life);
      return before(step?.stageIndex ?? n - 1, life.status);
    }
    return before(n - 1, life.status);
  }

  /** errorInfoList of a failed build, each placed at the step it names. */
  errorInfoList(b: Build, life: Life): Record<string, unknown>[] {
    if (life.endTime === null || !FAILURES.has(life.status)) return [];
    const steps = allSteps(this.layoutOf(b));
    const fallback = this.failedStep(b, life);
    return (this.pipelineOf(b)?.errorInfoList ?? []).map((e) => {
      const step = steps.find((s) => s.name === e.taskName) ?? fallback;
      return {
        stageId: `stage-${(step?.stageIndex ?? 0) + 2}`,
        containerId: step?.containerId ?? '1',
        taskId: step?.id ?? '',
        errorType: 'USER',
        ...e,
        atomCode: e.atomCode ?? step?.atomCode ?? 'run',
      };
    });
  }

  /** A BuildHistory row (build_histories), the core of build_status. */
  history(b: Build, life = this.life(b)): Record<string, unknown> {
    const p = this.pipelineOf(b);
    const statuses = this.stageStatuses(b, life);
    const stageStatus = [
      { stageId: 'stage-1', name: 'stage-1', ...(life.startTime === 0 ? {} : { status: 'SUCCEED', elapsed: 0 }) },
      ...(p?.stages ?? []).map((name, i) => {
        const status = statuses[i];
        return {
          stageId: `stage-${i + 2}`,
          name,
          ...(status === undefined ? {} : { status }),
          ...(status === 'SUCCEED' ? { elapsed: 1000 } : {}),
        };
      }),
    ];
    return {
      id: b.id,
      userId: b.userId,
      trigger: '服务触发',
      buildNum: b.num,
      pipelineVersion: 1,
      startTime: life.startTime,
      endTime: life.endTime,
      status: life.status,
      stageStatus,
      currentTimestamp: this.#now(),
      isMobileStart: false,
      material: this.material(b),
      queueTime: b.startedAt,
      artifactList: [],
      ...(life.endTime !== null && life.startTime !== 0
        ? { totalTime: life.endTime - b.startedAt, executeTime: life.endTime - life.startTime }
        : {}),
      buildParameters: startParameters(p, b.params),
      startType: 'SERVICE',
      retry: false,
      errorInfoList: this.errorInfoList(b, life),
      buildMsg: b.buildMsg,
      executeCount: b.executeCount,
      updateTime: life.endTime ?? (life.startTime || this.runQueuedAt(b)),
    };
  }

  /** The material a checkout step recorded: the pipeline's, its commit from a start value when it says so. */
  material(b: Build): Record<string, unknown>[] {
    return (this.pipelineOf(b)?.material ?? []).map(({ commitFrom, ...m }) => ({
      ...m,
      newCommitId: commitFrom === undefined ? m.newCommitId : (b.params[commitFrom] ?? ''),
      commitTimes: 1,
      mainRepo: true,
    }));
  }

  /** GET v4/projects/{p}/build_status?buildId=&pipelineId=: BuildHistoryWithVars. */
  status(projectId: string, buildId: string | null, pipelineId: string | null): Reply {
    const b = this.find(projectId, buildId, pipelineId);
    if (!('id' in b)) return b;
    // answerAsBuild: the whole answer is that build's when it exists, else this one's with its id.
    const asked = this.pipelineOf(b)?.answerAsBuild;
    const other = asked === undefined ? undefined : this.builds.get(asked);
    const shown = other ?? b;
    const life = this.life(shown);
    const queued = QUEUED.has(life.status) && life.endTime === null;
    // BuildHistoryWithVars lacks BuildHistory's executeCount and updateTime (docs/bkci/builds.md, trap L1).
    const { executeCount: _, updateTime: __, ...row } = this.history(shown, life);
    return this.#wire.ok({
      ...row,
      // BuildHistoryWithVars: computed only while the build waits in the queue.
      currentQueuePosition: queued ? (this.pipelineOf(shown)?.queuePosition ?? 1) : 0,
      ...(asked !== undefined && other === undefined ? { id: asked } : {}),
      variables: {
        ...startVariables(this.pipelineOf(shown), shown.params),
        BK_CI_BUILD_MSG: shown.buildMsg,
        BK_CI_BUILD_ID: shown.id,
        BK_CI_BUILD_NUM: String(shown.num),
      },
    });
  }

  /** POST v4/projects/{p}/build_stop?buildId=&pipelineId=: true, or 2101182 when it already ended. */
  stop(projectId: string, buildId: string | null, pipelineId: string | null, userId = ''): Reply {
    const b = this.find(projectId, buildId, pipelineId);
    if (!('id' in b)) return b;
    if (this.state(b).endTime !== null) return this.#wire.error(400, 2101182, '流水线: 流水线构建已结束，不能操作');
    b.canceledAt = this.#now();
    b.cancelUserId = userId;
    return this.#wire.ok(true);
  }
}
