// bk-ci's build log (v4 logs/after_line_logs): lines from a number on, as the log service
// answers them. Facts and traps: docs/bkci/logs.md.
import { z } from '../base/schema.ts';
import { atBuild, type BuildRef, type Calls } from './builds.ts';
import { onBoth } from './routes.ts';

export const LOG_AFTER = onBoth('GET', 'v4/projects/{projectId}/logs/after_line_logs');

/** QueryLogs.status, the log query's own status (not the wrapper's). */
export const LOG_STATUS = { succeed: 0, empty: 1, clean: 2, closed: 3, fail: 999 } as const;

/** LogLine: the ES implementation sends "" for what it does not know; null is read the same. */
const logLine = z.looseObject({
  lineNo: z.number().int(),
  timestamp: z.number().nullish(),
  message: z.string().nullish(),
  tag: z.string().nullish(),
  jobId: z.string().nullish(),
  stepId: z.string().nullish(),
  containerHashId: z.string().nullish(),
  executeCount: z.number().int().nullish(),
});
export type BkciLogLine = z.infer<typeof logLine>;

/** QueryLogs. */
const queryLogs = z.looseObject({
  status: z.number().int().nullish(),
  hasMore: z.boolean().nullish(),
  finished: z.boolean().nullish(),
  logs: z.array(logLine).nullish(),
  message: z.string().nullish(),
});
export type QueryLogs = z.infer<typeof queryLogs>;

/** One page of run `executeCount`'s log, from line `start` on (inclusive): QueryLogs, or undefined when bk-ci sent none. */
export async function readLogAfter(
  api: Calls,
  build: BuildRef,
  from: { start: number; executeCount: number },
): Promise<QueryLogs | undefined> {
  const reply = await api.call({
    endpoint: LOG_AFTER,
    ...atBuild(build, { start: String(from.start), executeCount: String(from.executeCount) }),
    data: queryLogs,
  });
  return reply.data;
}
