// A build's log as bk-ci's log service serves it (docs/bkci/logs.md; bk-ci
// LogServiceESImpl.doQueryLogsAfterLine): lines are numbered as they arrive at the log service,
// searchable a little later, and every page is sorted by the build machine's timestamp, then by
// line number. A pipeline's seed scripts what its steps write and when (log-script.ts); every
// build plays it (log-lines.ts); a search reads its query and pages what it finds (log-query.ts).
import { z } from 'zod';
import type { Build, Retry } from './build-records.ts';
import { buildOf } from './build-ref.ts';
import type { BuildWorld } from './builds.ts';
import { arrivedBy, type StoredLine, stoppedAt, storeLines, withRetries } from './log-lines.ts';
import { finds, type LogCall, lineView, pageOf, readLogQuery } from './log-query.ts';
import { BKCI_LOG_PAGE, type LogScript } from './log-script.ts';
import type { Pipeline } from './pipeline-seed.ts';
import type { Reply, Wire } from './wire.ts';

/** POST /__emulator/logs/fail: the next searches of a build (or of every build) fail. */
export const logFailBody = z
  .object({
    buildId: z.string().regex(/^b-/).optional(),
    times: z.number().int().min(1).default(1),
    /** What the failed answer says of `finished`: true as bk-ci's catch-all does, false for an ES status error. */
    finished: z.boolean().default(true),
    /** 999 (FAIL), or 3 (CLOSED: index_closed_exception, the index closed or made cold; `finished` left as it was). */
    status: z.union([z.literal(999), z.literal(3)]).default(999),
  })
  .strict();
export type LogFailure = z.infer<typeof logFailBody>;

/** LogStatus codes of QueryLogs.status (bk-ci LogStatus.kt). */
const SUCCEED = 0;
const CLEAN = 2;
const FAIL = 999;

/** Lines worked out once, by what names them all. */
function cached<K extends object>(memo: WeakMap<K, StoredLine[]>, key: K, make: () => StoredLine[]): StoredLine[] {
  let lines = memo.get(key);
  if (lines === undefined) {
    lines = make();
    memo.set(key, lines);
  }
  return lines;
}

/** A failed search: what it says of `finished`, and its status. */
interface SearchFailure {
  finished: boolean;
  status: number;
}

/** The log service of the emulated installation: after_line_logs and more_logs, and failed searches on demand. */
export class LogWorld {
  readonly #wire: Wire;
  readonly #now: () => number;
  readonly #builds: BuildWorld;
  readonly #stored = new WeakMap<LogScript, StoredLine[]>();
  /** A retried build's lines, by its latest retry: retries only add runs, so that names the whole set. */
  readonly #retried = new WeakMap<Retry, StoredLine[]>();
  /** Log requests so far, per build (what `failQueries` counts). */
  readonly #queries = new Map<string, number>();
  /** Failed searches armed through the control API: build id (or `*`) → how many are left. */
  readonly #failures = new Map<string, SearchFailure & { left: number }>();

  constructor(wire: Wire, now: () => number, builds: BuildWorld) {
    this.#wire = wire;
    this.#now = now;
    this.#builds = builds;
  }

  /** The next `times` searches of the build (every build when none is given) fail: 999, or 3 for a closed index. */
  failSearches(failure: LogFailure): void {
    this.#failures.set(failure.buildId ?? '*', {
      left: failure.times,
      finished: failure.status === FAIL && failure.finished,
      status: failure.status,
    });
  }

  /** GET v4/projects/{p}/logs/after_line_logs?buildId&start&pipelineId&executeCount&tag&jobId&stepId&containerHashId&subTag&debug. */
  afterLine(projectId: string, params: URLSearchParams): Reply {
    return this.#search(projectId, params, 'after');
  }

  /**
   * GET v4/projects/{p}/logs/more_logs?buildId&start&end&num&fromStart&…: lines start..end (both
   * inclusive), the first `num` (default 100) by time, or with fromStart=false the last `num` in
   * ascending order; hasMore always false (queryLogsBetweenLines).
   */
  moreLines(projectId: string, params: URLSearchParams): Reply {
    return this.#search(projectId, params, 'more');
  }

  #search(projectId: string, params: URLSearchParams, call: LogCall): Reply {
    const began = this.#now();
    const found = buildOf(this.#wire, this.#builds, projectId, params);
    if ('reply' in found) return found.reply;
    const read = readLogQuery(this.#wire, params, call);
    if ('reply' in read) return read.reply;
    const { build } = found;
    const { query } = read;
    const pipeline = this.#builds.pipelines.get(`${build.projectId}/${build.pipelineId}`);
    const script = pipeline?.logs;
    const queryNumber = (this.#queries.get(build.id) ?? 0) + 1;
    this.#queries.set(build.id, queryNumber);
    const all = script === undefined ? [] : this.#lines(script, build);
    const elapsed = this.#now() - build.startedAt;
    // A stopped run's agent is gone: what it would have written after that never arrives.
    const written = (line: StoredLine) => line.at <= stoppedAt(build, line.executeCount);
    // Lines are numbered in order of arrival: those arrived by now are the first `arrived`, line n at n - 1.
    const arrived = arrivedBy(all, elapsed);
    const finished = this.#finished(build, pipeline, query.executeCount, all, elapsed);
    const base = {
      buildId: build.id,
      finished,
      hasMore: false,
      logs: [] as unknown[],
      // BuildLogQueryService: the time the search took (none on a test's clock).
      timeUsed: this.#now() - began,
      status: SUCCEED,
      ...(query.tag === undefined ? {} : { subTags: subTagsOf(all, query.tag) }),
    };
    // No line has reached the log service: the build has no index yet, as after the logs expired.
    if (!all.slice(0, arrived).some(written)) return this.#wire.ok({ ...base, status: CLEAN, message: '构建日志过期，已被清理' });
    const failed = this.#fails(build, script, queryNumber);
    // Only after_line_logs's catch-all also says finished = true.
    if (failed !== undefined)
      return this.#wire.ok({ ...base, status: failed.status, finished: (call === 'after' && failed.finished) || finished });
    const window = all.slice(Math.min(arrived, Math.max(0, query.start - 1)), Math.min(arrived, query.end)).filter(written);
    const page = pageOf(
      window.filter((line) => finds(query, line, elapsed)),
      query,
      script?.pageSize ?? BKCI_LOG_PAGE,
    );
    return this.#wire.ok({ ...base, logs: page.lines.map((line) => lineView(line, build.startedAt)), hasMore: page.hasMore });
  }

  #lines(script: LogScript, build: Build): StoredLine[] {
    const latest = build.retries.at(-1);
    if (latest === undefined) return cached(this.#stored, script, () => storeLines(script));
    return cached(this.#retried, latest, () => storeLines(withRetries(script, build)));
  }

  /** A failed search now, armed by seed or control API: consumed if so. */
  #fails(build: Build, script: LogScript | undefined, queryNumber: number): SearchFailure | undefined {
    for (const key of [build.id, '*']) {
      const armed = this.#failures.get(key);
      if (armed !== undefined && armed.left > 0) {
        armed.left -= 1;
        return { finished: armed.finished, status: armed.status };
      }
    }
    // LogServiceESImpl: any error but an ES status one also says finished = true, hasMore = false.
    return script?.failQueries.includes(queryNumber) ? { finished: true, status: FAIL } : undefined;
  }

  /**
   * T_LOG_STATUS at build level: an earlier run's row was finished when that run ended (a retried
   * build's, before it was retried; a script's later-run lines: when that run writes its first
   * line); the current run's when the build ends (or `finishedAtMs` after that run's start).
   */
  #finished(build: Build, pipeline: Pipeline | undefined, executeCount: number, all: StoredLine[], elapsed: number): boolean {
    if (executeCount < build.executeCount) return true;
    const latest = all.reduce((highest, line) => (line.at <= elapsed ? Math.max(highest, line.executeCount) : highest), 1);
    if (executeCount < latest) return true;
    const sinceRunQueued = this.#now() - this.#builds.runQueuedAt(build);
    const finishedAtMs = pipeline?.logs?.finishedAtMs;
    if (finishedAtMs !== undefined && sinceRunQueued >= finishedAtMs) return true;
    return pipeline !== undefined && this.#builds.state(build).endTime !== null;
  }
}

/** The tag's sub-tags, in the order their lines arrived. */
function subTagsOf(all: StoredLine[], tag: string): string[] {
  return [...new Set(all.filter((line) => line.tag === tag && line.subTag !== '').map((line) => line.subTag))];
}
