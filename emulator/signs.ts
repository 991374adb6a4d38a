// IPA re-signing tasks, as bk-ci's sign service answers for them (v3/sign/ipa/{id}/detail and
// downloadUrl): a task seeded through the control API (POST /__emulator/signs) runs for
// `runningMs`, then succeeds or fails.
import { z } from 'zod';
import type { Reply, Wire } from './wire.ts';

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

export interface SignSeed {
  resignId: string;
  runningMs?: number;
  result?: 'SUCCESS' | 'FAIL';
  failMessage?: string;
  projectId?: string;
}

/** POST /__emulator/signs. */
export const signBody = z
  .object({
    resignId: z.string().min(1),
    runningMs: z.number().int().min(0).optional(),
    result: z.enum(['SUCCESS', 'FAIL']).optional(),
    failMessage: z.string().optional(),
    projectId: z.string().optional(),
  })
  .strict();

/** The re-signing tasks of the emulated installation, by id. */
export class SignWorld {
  readonly signs = new Map<string, SignTask>();
  readonly #wire: Wire;
  readonly #now: () => number;
  readonly #baseUrl: () => string;

  constructor(wire: Wire, now: () => number, baseUrl: () => string) {
    this.#wire = wire;
    this.#now = now;
    this.#baseUrl = baseUrl;
  }

  /** A task that runs from now for `runningMs`, then ends with `result`. */
  seed(seed: SignSeed): SignTask {
    const task: SignTask = {
      resignId: seed.resignId,
      createdAt: this.#now(),
      runningMs: seed.runningMs ?? 0,
      result: seed.result ?? 'SUCCESS',
      failMessage: seed.failMessage ?? '',
      projectId: seed.projectId ?? 'demo',
      pipelineId: 'p-0123456789abcdef',
      buildId: 'b-0123456789abcdef',
      resultFileName: `${seed.resignId}_enterprise_sign.ipa`,
    };
    this.signs.set(task.resignId, task);
    return task;
  }

  /** GET v3/sign/ipa/{id}/detail. */
  detail(id: string): Reply {
    const task = this.signs.get(id);
    if (task === undefined) {
      // bk-ci's EnumResignStatus.parse(null) is RUNNING: an unknown id runs forever.
      return this.#wire.flavour === 'bkci'
        ? this.#wire.ok({ resignId: id, status: 'RUNNING', message: 'Sign is running...' })
        : this.#wire.notFound();
    }
    return this.#wire.ok({ resignId: id, ...this.#status(task) });
  }

  /** GET v3/sign/ipa/{id}/downloadUrl: where the signed IPA is, on bk-ci's own disk. */
  downloadUrl(id: string): Reply {
    const task = this.signs.get(id);
    if (task === undefined) return this.#wire.domain(404, 2122011, '签名任务不存在。');
    const filePath = `bk-archive/${task.projectId}/${task.pipelineId}/${task.buildId}/${task.resultFileName}`;
    return this.#wire.ok(
      `${this.#baseUrl()}/artifactory/api/service/artifactories/file/download/local?filePath=${encodeURIComponent(filePath)}`,
    );
  }

  #status(task: SignTask): { status: string; message: string } {
    if (this.#now() - task.createdAt < task.runningMs) return { status: 'RUNNING', message: 'Sign is running...' };
    return task.result === 'SUCCESS'
      ? { status: 'SUCCESS', message: 'Sign finished.' }
      : { status: 'FAIL', message: task.failMessage || 'Unknown error.' };
  }
}
