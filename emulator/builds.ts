// The pipelines and builds of the emulated installation, as bk-ci's v4 OpenAPI starts, finds and
// stops them. A seeded pipeline (pipeline-seed.ts) scripts the life of every build it starts; where
// a build is in it now is build-life.ts; the other build endpoints read it from here
// (build-status.ts, histories.ts, build-detail.ts, build-retry.ts, review-decisions.ts). Facts from
// docs/bkci/builds.md.
import { z } from 'zod';
import { errorInfoList, failedStep, type Life, lifeAt, type RunPlan, stageStatuses } from './build-life.ts';
import { layout, type StageLayout, type StepLayout } from './build-model.ts';
import type { Build } from './build-records.ts';
import { checkPhases, type Pipeline } from './pipeline-seed.ts';
import type { Reply, Wire } from './wire.ts';

/** bk-ci's default message for a SERVICE start over the BS channel (BuildMsgUtils: "OpenAPI " + 触发). */
const OPENAPI_BUILD_MSG = 'OpenAPI 触发';
const BUILD_MSG_MAX = 255;
/** ERROR_PIPELINE_LOCK's message (support-files/i18n/process/message_zh_CN.properties). */
export const PIPELINE_LOCKED = '流水线: 流水线锁定';

/** What build_start takes of a new build. */
export interface BuildStart {
  projectId: string;
  pipelineId: string;
  userId: string;
  params: Record<string, string>;
  startedAt: number;
}

/** The pipelines and builds of the emulated installation. */
export class BuildWorld {
  readonly pipelines = new Map<string, Pipeline>();
  readonly builds = new Map<string, Build>();
  readonly #wire: Wire;
  readonly #now: () => number;
  #lastBuild = 0;

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
  seed(pipeline: Pipeline): void {
    checkPhases(pipeline, pipeline.phases);
    this.pipelines.set(`${pipeline.projectId}/${pipeline.pipelineId}`, pipeline);
  }

  /** The pipeline as the build's current run lives it: a retry's phases and end replace the seeded ones. */
  pipelineOf(build: Build): Pipeline | undefined {
    const pipeline = this.pipelines.get(`${build.projectId}/${build.pipelineId}`);
    const run = build.retries.at(-1) ?? build.script;
    return pipeline === undefined || run === undefined ? pipeline : { ...pipeline, phases: run.phases, result: run.result };
  }

  /** When the build's current run entered the queue: build_start, or its retry. */
  runQueuedAt(build: Build): number {
    return build.retries.at(-1)?.at ?? build.startedAt;
  }

  layoutOf(build: Build): StageLayout[] {
    const pipeline = this.pipelineOf(build);
    return pipeline === undefined ? [] : layout(pipeline.pipelineId, pipeline.stages, pipeline.jobs);
  }

  /** POST v4/projects/{p}/build_start?pipelineId=: a BuildId, or bk-ci's start errors. */
  start(projectId: string, pipelineId: string | null, userId: string, body: unknown): Reply {
    if (!pipelineId) return this.#wire.error(400, 400, '参数校验失败:request param pipelineId cannot be empty');
    const pipeline = this.pipelines.get(`${projectId}/${pipelineId}`);
    if (pipeline === undefined) return this.#wire.error(404, 2101038, '流水线: 流水线不存在');
    if (pipeline.locked) return this.#wire.error(400, 2101047, PIPELINE_LOCKED);
    const refusal = pipeline.startError;
    if (refusal) return this.#wire.error(refusal.http, refusal.status, refusal.message);
    const values = z.record(z.string(), z.string()).safeParse(body ?? {});
    if (!values.success) return this.#wire.error(400, 400, 'JSON参数错误');
    const missing = pipeline.required.find((name) => (values.data[name] ?? '') === '');
    if (missing !== undefined) return this.#wire.error(400, 2101254, `构建入参[${missing}]必填，不能为空`);
    const build = this.create({ projectId, pipelineId, userId, params: values.data, startedAt: this.#now() });
    return this.#wire.ok({ id: build.id, executeCount: 1, projectId, pipelineId, num: build.num });
  }

  /** A new build of the pipeline, numbered on; its message from BK_CI_BUILD_MSG as build_start takes it. */
  create(start: BuildStart): Build {
    const siblings = [...this.builds.values()].filter(
      (build) => build.pipelineId === start.pipelineId && build.projectId === start.projectId,
    );
    const id = `b-${(++this.#lastBuild).toString(16).padStart(32, '0')}`;
    // BuildMsgUtils.getBuildMsg: a blank message is the start type's default; StartBuildContext cuts it.
    const given = start.params.BK_CI_BUILD_MSG;
    const buildMsg = (given === undefined || given.trim() === '' ? OPENAPI_BUILD_MSG : given).slice(0, BUILD_MSG_MAX);
    const build: Build = { ...start, id, num: siblings.length + 1, buildMsg, decisions: [], executeCount: 1, retries: [] };
    this.builds.set(id, build);
    return build;
  }

  /** The build a v4 call names, or its refusal. */
  find(projectId: string, buildId: string | null, pipelineId: string | null): Build | Reply {
    const build = buildId ? this.builds.get(buildId) : undefined;
    // v4's checkPipelineId: an unknown or foreign build id is a 400 with an unfilled {0}.
    if (build === undefined || build.projectId !== projectId)
      return this.#wire.error(400, 400, '参数校验失败:{0} Invalid buildId, please check if projectId & buildId are related');
    // The same check: a pipelineId that is given (even empty) and not the build's.
    if (pipelineId !== null && pipelineId !== build.pipelineId)
      return this.#wire.error(400, 400, '参数校验失败:{0} PipelineId is invalid ');
    return build;
  }

  /** Where a build is in its life now: status, endTime, the stage a review pause waits at. */
  state(build: Build): { status: string; endTime: number | null; stage?: string; phaseIndex: number } {
    const { status, endTime, stage, phaseIndex } = this.life(build);
    return { status, endTime, phaseIndex, ...(stage === undefined ? {} : { stage }) };
  }

  /** The whole picture of a build at `at` (default now): emulator/build-life.ts. */
  life(build: Build, at = this.#now()): Life {
    return lifeAt(this.#plan(build), build, at);
  }

  /** The step a failed build failed at: the one errorInfoList names, else the last step. */
  failedStep(build: Build, life: Life): StepLayout | undefined {
    return failedStep(this.#plan(build), life);
  }

  /** Each user stage's status now (undefined: not reached). */
  stageStatuses(build: Build, life: Life): (string | undefined)[] {
    return stageStatuses(this.#plan(build), life);
  }

  /** errorInfoList of a failed build, each placed at the step it names. */
  errorInfoList(build: Build, life: Life): Record<string, unknown>[] {
    return errorInfoList(this.#plan(build), life);
  }

  #plan(build: Build): RunPlan {
    return { pipeline: this.pipelineOf(build), stages: this.layoutOf(build), queuedAt: this.runQueuedAt(build) };
  }

  /** The material a checkout step recorded: the pipeline's, its commit from a start value when it says so. */
  material(build: Build): Record<string, unknown>[] {
    return (this.pipelineOf(build)?.material ?? []).map(({ commitFrom, ...material }) => ({
      ...material,
      newCommitId: commitFrom === undefined ? material.newCommitId : (build.params[commitFrom] ?? ''),
      commitTimes: 1,
      mainRepo: true,
    }));
  }

  /** POST v4/projects/{p}/build_stop?buildId=&pipelineId=: true, or 2101182 when it already ended. */
  stop(projectId: string, buildId: string | null, pipelineId: string | null, userId = ''): Reply {
    const build = this.find(projectId, buildId, pipelineId);
    if (!('id' in build)) return build;
    if (this.state(build).endTime !== null) return this.#wire.error(400, 2101182, '流水线: 流水线构建已结束，不能操作');
    build.canceledAt = this.#now();
    build.cancelUserId = userId;
    return this.#wire.ok(true);
  }
}
