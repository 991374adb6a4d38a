// What the emulator keeps of a build: who started it with which values, the runs it has had, the
// review decisions of its current run, its stop. How it lives from these is emulator/build-life.ts;
// the pipelines and builds themselves, emulator/builds.ts.
import type { RetryLogs } from './log-script.ts';
import type { Phase } from './pipeline-seed.ts';

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

/** A decision on a stage's review group. */
interface StageDecision {
  kind: 'stage';
  phase: number;
  group: number;
  action: 'PROCESS' | 'ABORT';
  user: string;
  suggest?: string;
  params?: unknown[];
  at: number;
}

/** A decision on a manual-review step; `null` is what bk-ci stores when `status` is missing. */
export interface StepDecision {
  kind: 'step';
  phase: number;
  action: 'PROCESS' | 'ABORT' | 'null';
  user: string;
  suggest?: string;
  desc?: string;
  params?: unknown[];
  at: number;
  /** When the build moves on: bk-ci's engine picks the decision up moments later. */
  effectiveAt: number;
}

type Decision = StageDecision | StepDecision;

/**
 * Where a run starts, as build_retry's taskId, failedContainer and skip name it: the whole build,
 * a stage (its failed jobs only with failedContainer), or a job, step or element.
 */
export type RetryScope = { kind: 'all' } | { kind: 'stage' | 'task'; taskId: string; failedContainer: boolean; skip: boolean };

/** A run after the first: how it lives, and how the run before it ended. */
export interface Retry {
  executeCount: number;
  /** When bk-ci took the retry: the run's queue time, what its phases count from. */
  at: number;
  userId: string;
  phases: Phase[];
  result: string;
  logs?: RetryLogs;
  /** Where it started: the whole build unless build_retry named a stage or task. */
  scope: RetryScope;
  /** The run it follows, as that run ended: stopped when, by whom, and its review decisions. */
  previous: { canceledAt?: number; cancelUserId?: string; decisions: Decision[] };
}

/** bk-ci's BuildId, as build_start and build_retry answer it. */
export interface BuildIdData {
  id: string;
  executeCount: number;
  projectId: string;
  pipelineId: string;
  num: number;
}
