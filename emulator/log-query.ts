// What a log search asks for, as bk-ci's openapi reads after_line_logs' and more_logs' query
// (ApigwLogResourceV4Impl; docs/bkci/logs.md), which of the build's lines it finds, and the page
// of them it answers: sorted by the build machine's timestamp, then by line number.
import type { StoredLine } from './log-lines.ts';
import type { Reply, Wire } from './wire.ts';

/** after_line_logs (from a line on, paged) or more_logs (a range of lines, the first or last `num`). */
export type LogCall = 'after' | 'more';

export interface LogQuery {
  call: LogCall;
  /** The first line number, inclusive. */
  start: number;
  /** The last line number, inclusive (more_logs only). */
  end: number;
  /** How many lines more_logs answers. */
  num: number;
  /** The run; 1 when not given, not the latest. */
  executeCount: number;
  /** more_logs: the first `num` lines (true), or the last (false). */
  fromStart: boolean;
  tag: string | undefined;
  stepId: string | undefined;
  jobId: string | undefined;
  containerHashId: string | undefined;
  subTag: string | undefined;
  debug: boolean;
}

const NUMBER = /^-?\d+$/;

/** The query, or the openapi's refusal of it. */
export function readLogQuery(wire: Wire, params: URLSearchParams, call: LogCall): { query: LogQuery } | { reply: Reply } {
  // Required Long parameters: missing is the openapi's NPE message, not a number Jersey's conversion error.
  const required = call === 'after' ? ['start'] : ['start', 'end'];
  for (const name of required)
    if (params.get(name) === null) return { reply: wire.error(400, 400, `参数校验失败:request param ${name} cannot be empty`) };
  // A Long or Int parameter: its value, the default when not sent, NaN when not a number (Jersey refuses it).
  const number = (name: string, fallback: number): number => {
    const value = params.get(name);
    return value === null || value === '' ? fallback : NUMBER.test(value) ? Number(value) : Number.NaN;
  };
  const start = number('start', 1);
  const executeCount = number('executeCount', 1);
  // after_line_logs has no end or num: whatever is sent as those is ignored there.
  const end = call === 'more' ? number('end', Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY;
  const num = call === 'more' ? number('num', 100) : 0;
  if ([start, executeCount, end, num].some(Number.isNaN)) return { reply: wire.error(400, 400, '查询参数类型错误') };
  const filter = (name: string) => params.get(name) || undefined;
  const tag = filter('tag');
  const stepId = filter('stepId');
  return {
    query: {
      call,
      start,
      end,
      num,
      executeCount,
      fromStart: params.get('fromStart') !== 'false',
      tag,
      stepId,
      // The openapi drops jobId when a tag or stepId is given.
      jobId: tag === undefined && stepId === undefined ? filter('jobId') : undefined,
      containerHashId: filter('containerHashId'),
      subTag: filter('subTag'),
      debug: params.get('debug') === 'true',
    },
  };
}

/** Whether a search `elapsed` ms after build_start finds the line: searchable by then, of the run and filters asked for. */
export function finds(query: LogQuery, line: StoredLine, elapsed: number): boolean {
  return (
    line.visibleAt <= elapsed &&
    line.executeCount === query.executeCount &&
    (query.debug || !line.debug) &&
    (query.tag === undefined || line.tag === query.tag) &&
    (query.stepId === undefined || line.stepId === query.stepId) &&
    (query.jobId === undefined || line.jobId === query.jobId) &&
    (query.containerHashId === undefined || line.containerHashId === query.containerHashId) &&
    (query.subTag === undefined || line.subTag === query.subTag)
  );
}

/** The lines the answer holds, by time: after_line_logs' first `pageSize`, or more_logs' first or last `num` (ascending). */
export function pageOf(found: StoredLine[], query: LogQuery, pageSize: number): { lines: StoredLine[]; hasMore: boolean } {
  const order = query.call === 'more' && !query.fromStart ? -1 : 1;
  const sorted = [...found].sort((one, other) => order * (one.at - other.at || one.lineNo - other.lineNo));
  const lines = sorted.slice(0, query.call === 'after' ? pageSize : Math.max(0, query.num));
  if (order === -1) lines.reverse();
  return { lines, hasMore: query.call === 'after' && found.length > lines.length };
}

/** A line as QueryLogs' `logs` shows it. */
export function lineView(line: StoredLine, buildStartedAt: number): Record<string, unknown> {
  return {
    lineNo: line.lineNo,
    timestamp: buildStartedAt + line.at,
    message: line.message,
    priority: 40,
    tag: line.tag,
    subTag: line.subTag,
    jobId: line.jobId,
    executeCount: line.executeCount,
    containerHashId: line.containerHashId,
    stepId: line.stepId,
  };
}
