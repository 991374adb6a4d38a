// bk-ci's build history (v4 build_histories): a pipeline's builds, newest first, found by their
// message. What finds a build again after a lost answer (src/pipeline/start.ts) and an earlier
// attempt's build on a re-run (src/pipeline/rerun.ts). Facts: docs/bkci/builds.md#finding-a-build-again-build_histories.
import { z } from '../base/schema.ts';
import type { Calls, SendOptions } from './builds.ts';
import { onBoth } from './routes.ts';

export const BUILD_HISTORIES = onBoth('GET', 'v4/projects/{projectId}/build_histories');

const count = z.number().int().nullish();

/**
 * build_histories' text filters (buildMsg, remark, materialCommitId) are MySQL `LIKE '%value%'`
 * with the value pasted in as it is (PipelineBuildDao): `%` and `_` are wildcards and a backslash
 * escapes. This is the value that matches `text` itself.
 */
const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, '\\$&');

/**
 * A start parameter as a build row shows it (BuildParameters): bk-ci's own (the material, the
 * message) are read-only; a declared one carries its default. Its value may be a secret: it is
 * compared, never shown.
 */
const buildParameter = z.looseObject({
  key: z.string(),
  value: z.unknown().optional(),
  readOnly: z.boolean().nullish(),
  defaultValue: z.unknown().optional(),
  sensitive: z.boolean().nullish(),
});
export type BuildParameter = z.infer<typeof buildParameter>;

/** A row of build_histories: what finds a build again, and what proves whose it is (its starter, its start parameters). */
const historyPage = z.looseObject({
  count: z.number().nullish(),
  page: z.number().nullish(),
  pageSize: z.number().nullish(),
  totalPages: z.number().nullish(),
  records: z
    .array(
      z.looseObject({
        id: z.string(),
        buildNum: count,
        status: z.string().nullish(),
        buildMsg: z.string().nullish(),
        executeCount: count,
        startTime: z.number().nullish(),
        endTime: z.number().nullish(),
        /** The start user (the trigger user for other starts). Unreadable, they prove nothing, and cost no other row. */
        userId: z.string().nullish().catch(null),
        buildParameters: z.array(buildParameter).nullish().catch(null),
      }),
    )
    .nullish(),
});
export type HistoryPage = z.infer<typeof historyPage>;

/** One build of the history. */
export type HistoryRow = NonNullable<HistoryPage['records']>[number];

/** A page of the history: its builds, the count bk-ci gives of them all, the user the call was made as. */
export interface HistoryRead {
  rows: HistoryRow[];
  count: number | undefined;
  user: string;
}

/**
 * One page of the pipeline's builds whose message contains `message` (compared as it is: bk-ci's
 * filter is LIKE '%…%', so the caller compares each row's message exactly), newest first.
 */
export async function readHistoryPage(
  api: Calls,
  pipeline: { projectId: string; pipelineId: string },
  ask: { message: string; page: number; pageSize: number },
  send: SendOptions = {},
): Promise<HistoryRead> {
  const reply = await api.call({
    endpoint: BUILD_HISTORIES,
    params: { projectId: pipeline.projectId },
    query: { pipelineId: pipeline.pipelineId, buildMsg: likeLiteral(ask.message), page: String(ask.page), pageSize: String(ask.pageSize) },
    data: historyPage,
    ...send,
  });
  return { rows: reply.data?.records ?? [], count: reply.data?.count ?? undefined, user: reply.user };
}
