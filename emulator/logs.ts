// A build's log as bk-ci's log service serves it (docs/bkci/logs.md; bk-ci
// LogServiceESImpl.doQueryLogsAfterLine): lines are numbered as they arrive at the log service,
// searchable a little later, and every page is sorted by the build machine's timestamp, then by
// line number. A pipeline's seed scripts what its steps write and when; every build plays it.
import { z } from 'zod';
import type { Build, Retry } from './build-records.ts';
import { buildOf } from './build-ref.ts';
import type { BuildWorld } from './builds.ts';
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

/** A line as the log service holds it: its number, when it arrived and when it can be found. */
interface Stored {
  lineNo: number;
  /** ms after build_start. */
  at: number;
  arrivesAt: number;
  visibleAt: number;
  message: string;
  tag: string;
  subTag: string;
  jobId: string;
  containerHashId: string;
  stepId: string;
  executeCount: number;
  debug: boolean;
}

/** Every line a script writes, numbered in order of arrival (one counter for all runs, as IndexService keeps). */
function store(script: LogScript): Stored[] {
  const steps = new Map(script.steps.map((s) => [s.tag, s]));
  const raw: Omit<Stored, 'lineNo'>[] = [];
  const add = (
    at: number,
    step: string,
    message: string,
    rest: { subTag?: string; debug?: boolean; executeCount: number; delayMs: number; lagMs: number },
  ) => {
    const s = steps.get(step);
    raw.push({
      at,
      arrivesAt: at + rest.delayMs,
      visibleAt: at + rest.delayMs + rest.lagMs,
      message,
      tag: step,
      subTag: rest.subTag ?? '',
      jobId: s?.jobId ?? '',
      containerHashId: s?.containerHashId ?? '',
      stepId: s?.stepId ?? '',
      executeCount: rest.executeCount,
      debug: rest.debug ?? false,
    });
  };
  for (const l of script.lines) add(l.at, l.step, l.text, l);
  for (const g of script.generate) {
    const span = Math.max(0, g.toMs - g.fromMs);
    for (let i = 0; i < g.count; i++) add(g.fromMs + Math.floor((i * span) / g.count), g.step, g.text.replaceAll('{i}', String(i + 1)), g);
  }
  // Stable: lines that arrive together keep the order they were scripted in.
  return raw
    .map((l, i) => ({ l, i }))
    .sort((a, b) => a.l.arrivesAt - b.l.arrivesAt || a.i - b.i)
    .map(({ l }, n) => ({ ...l, lineNo: n + 1 }));
}

const NUMBER = /^-?\d+$/;

function cached<K extends object>(m: WeakMap<K, Stored[]>, key: K, make: () => Stored[]): Stored[] {
  let s = m.get(key);
  if (s === undefined) {
    s = make();
    m.set(key, s);
  }
  return s;
}

/**
 * The pipeline's script with what each retried run writes added: the retry's own lines, or the
 * first run's again (the same steps run again), `at` counted from the retry and marked with the
 * run's executeCount. Numbered together, as the log service numbers every run of a build.
 */
function withRetries(script: LogScript, b: Build): LogScript {
  const firstRun = {
    lines: script.lines.filter((l) => l.executeCount === 1),
    generate: script.generate.filter((g) => g.executeCount === 1),
  };
  const lines = [...script.lines];
  const generate = [...script.generate];
  for (const r of b.retries) {
    const shift = r.at - b.startedAt;
    const own = r.logs ?? firstRun;
    lines.push(...own.lines.map((l) => ({ ...l, at: l.at + shift, executeCount: r.executeCount })));
    generate.push(...own.generate.map((g) => ({ ...g, fromMs: g.fromMs + shift, toMs: g.toMs + shift, executeCount: r.executeCount })));
  }
  return { ...script, lines, generate };
}

/** ms after build_start from which run `n`'s agent writes nothing: when that run was stopped, if it was. */
function stoppedAt(b: Build, n: number): number {
  const at = n < b.executeCount ? b.retries[n - 1]?.previous.canceledAt : b.canceledAt;
  return at === undefined ? Number.POSITIVE_INFINITY : at - b.startedAt;
}

/** How many of the lines (sorted by arrival) have arrived `t` ms after build_start. */
function arrivedBy(lines: Stored[], t: number): number {
  let lo = 0;
  let hi = lines.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((lines[mid]?.arrivesAt ?? Number.POSITIVE_INFINITY) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The log service of the emulated installation: after_line_logs and more_logs, and failed searches on demand. */
export class LogWorld {
  readonly #wire: Wire;
  readonly #now: () => number;
  readonly #builds: BuildWorld;
  readonly #stored = new WeakMap<LogScript, Stored[]>();
  /** A retried build's lines, by its latest retry: retries only add runs, so that names the whole set. */
  readonly #retried = new WeakMap<Retry, Stored[]>();
  /** Log requests so far, per build (what `failQueries` counts). */
  readonly #queries = new Map<string, number>();
  /** Failed searches armed through the control API: build id (or `*`) → how many are left. */
  readonly #failures = new Map<string, { left: number; finished: boolean; status: number }>();

  constructor(wire: Wire, now: () => number, builds: BuildWorld) {
    this.#wire = wire;
    this.#now = now;
    this.#builds = builds;
  }

  /** The next `times` searches of the build (every build when none is given) fail: 999, or 3 for a closed index. */
  failSearches(f: LogFailure): void {
    this.#failures.set(f.buildId ?? '*', { left: f.times, finished: f.status === FAIL && f.finished, status: f.status });
  }

  #lines(script: LogScript, b: Build): Stored[] {
    const latest = b.retries.at(-1);
    if (latest === undefined) return cached(this.#stored, script, () => store(script));
    return cached(this.#retried, latest, () => store(withRetries(script, b)));
  }

  /** A failed search now, armed by seed or control API: consumed if so. */
  #fails(b: Build, script: LogScript | undefined, query: number): { finished: boolean; status: number } | undefined {
    for (const key of [b.id, '*']) {
      const f = this.#failures.get(key);
      if (f !== undefined && f.left > 0) {
        f.left -= 1;
        return { finished: f.finished, status: f.status };
      }
    }
    // LogServiceESImpl: any error but an ES status one also says finished = true, hasMore = false.
    return script?.failQueries.includes(query) ? { finished: true, status: FAIL } : undefined;
  }

  /** GET v4/projects/{p}/logs/after_line_logs?buildId&start&pipelineId&executeCount&tag&jobId&stepId&containerHashId&subTag&debug. */
  afterLine(projectId: string, q: URLSearchParams): Reply {
    return this.#search(projectId, q, 'after');
  }

  /**
   * GET v4/projects/{p}/logs/more_logs?buildId&start&end&num&fromStart&…: lines start..end (both
   * inclusive), the first `num` (default 100) by time, or with fromStart=false the last `num` in
   * ascending order; hasMore always false (queryLogsBetweenLines).
   */
  moreLines(projectId: string, q: URLSearchParams): Reply {
    return this.#search(projectId, q, 'more');
  }

  #search(projectId: string, q: URLSearchParams, kind: 'after' | 'more'): Reply {
    const began = this.#now();
    const found = buildOf(this.#wire, this.#builds, projectId, q);
    if ('reply' in found) return found.reply;
    const b = found.build;
    // Required Long parameters: missing is the openapi's NPE message, not a number Jersey's conversion error.
    const required = kind === 'after' ? ['start'] : ['start', 'end'];
    for (const name of required)
      if (q.get(name) === null) return this.#wire.error(400, 400, `参数校验失败:request param ${name} cannot be empty`);
    // A Long or Int parameter: its value, the default when not sent, NaN when not a number (Jersey refuses it).
    const number = (name: string, fallback: number): number => {
      const v = q.get(name);
      return v === null || v === '' ? fallback : NUMBER.test(v) ? Number(v) : Number.NaN;
    };
    const start = number('start', 1);
    const executeCount = number('executeCount', 1);
    // after_line_logs has no end or num: whatever is sent as those is ignored there.
    const end = kind === 'more' ? number('end', Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY;
    const num = kind === 'more' ? number('num', 100) : 0;
    if ([start, executeCount, end, num].some(Number.isNaN)) return this.#wire.error(400, 400, '查询参数类型错误');
    const fromStart = q.get('fromStart') !== 'false';
    const filter = (name: string) => q.get(name) || undefined;
    const tag = filter('tag');
    const stepId = filter('stepId');
    // The openapi drops jobId when a tag or stepId is given.
    const jobId = tag === undefined && stepId === undefined ? filter('jobId') : undefined;
    const containerHashId = filter('containerHashId');
    const subTag = filter('subTag');
    const debug = q.get('debug') === 'true';

    const p = this.#builds.pipelines.get(`${b.projectId}/${b.pipelineId}`);
    const script = p?.logs;
    const query = (this.#queries.get(b.id) ?? 0) + 1;
    this.#queries.set(b.id, query);
    const all = script === undefined ? [] : this.#lines(script, b);
    const t = this.#now() - b.startedAt;
    // A stopped run's agent is gone: what it would have written after that never arrives.
    const written = (l: Stored) => l.at <= stoppedAt(b, l.executeCount);
    // Lines are numbered in order of arrival: those arrived by now are the first `count`, line n at n - 1.
    const count = arrivedBy(all, t);
    const window = all.slice(Math.min(count, Math.max(0, start - 1)), Math.min(count, end)).filter(written);
    const finished = this.#finished(b, p, script, executeCount, all, t);
    const base = {
      buildId: b.id,
      finished,
      hasMore: false,
      logs: [] as unknown[],
      // BuildLogQueryService: the time the search took (none on a test's clock).
      timeUsed: this.#now() - began,
      status: SUCCEED,
      ...(tag === undefined ? {} : { subTags: [...new Set(all.filter((l) => l.tag === tag && l.subTag !== '').map((l) => l.subTag))] }),
    };
    // No line has reached the log service: the build has no index yet, as after the logs expired.
    if (!all.slice(0, count).some(written)) return this.#wire.ok({ ...base, status: CLEAN, message: '构建日志过期，已被清理' });
    const failed = this.#fails(b, script, query);
    // Only after_line_logs's catch-all also says finished = true.
    if (failed !== undefined)
      return this.#wire.ok({ ...base, status: failed.status, finished: (kind === 'after' && failed.finished) || finished });
    const order = kind === 'more' && !fromStart ? -1 : 1;
    const hits = window
      .filter(
        (l) =>
          l.visibleAt <= t &&
          l.executeCount === executeCount &&
          (debug || !l.debug) &&
          (tag === undefined || l.tag === tag) &&
          (stepId === undefined || l.stepId === stepId) &&
          (jobId === undefined || l.jobId === jobId) &&
          (containerHashId === undefined || l.containerHashId === containerHashId) &&
          (subTag === undefined || l.subTag === subTag),
      )
      .sort((x, y) => order * (x.at - y.at || x.lineNo - y.lineNo));
    const size = kind === 'after' ? (script?.pageSize ?? BKCI_LOG_PAGE) : Math.max(0, num);
    const taken = hits.slice(0, size);
    if (order === -1) taken.reverse();
    const page = taken.map((l) => ({
      lineNo: l.lineNo,
      timestamp: b.startedAt + l.at,
      message: l.message,
      priority: 40,
      tag: l.tag,
      subTag: l.subTag,
      jobId: l.jobId,
      executeCount: l.executeCount,
      containerHashId: l.containerHashId,
      stepId: l.stepId,
    }));
    return this.#wire.ok({ ...base, logs: page, hasMore: kind === 'after' && hits.length > page.length });
  }

  /**
   * T_LOG_STATUS at build level: an earlier run's row was finished when that run ended (a retried
   * build's, before it was retried; a script's later-run lines: when that run writes its first
   * line); the current run's when the build ends (or `finishedAtMs` after that run's start).
   */
  #finished(b: Build, p: Pipeline | undefined, script: LogScript | undefined, executeCount: number, all: Stored[], t: number): boolean {
    if (executeCount < b.executeCount) return true;
    const latest = all.reduce((m, l) => (l.at <= t ? Math.max(m, l.executeCount) : m), 1);
    if (executeCount < latest) return true;
    const runT = this.#now() - this.#builds.runQueuedAt(b);
    if (script?.finishedAtMs !== undefined && runT >= script.finishedAtMs) return true;
    return p !== undefined && this.#builds.state(b).endTime !== null;
  }
}
