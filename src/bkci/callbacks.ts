// bk-ci's callbacks of a project (v3 on its own gateway, v4 on the BlueKing API Gateway): list,
// delete, register, and their answers. Facts: docs/bkci/projects-and-callbacks.md#callbacks.
import { ServerSaidError } from '../base/errors.ts';
import { z } from '../base/schema.ts';
import type { BkciApi, Reply } from './client.ts';
import { perGateway } from './routes.ts';

// The schemas here are built on first use (z.lazy): this module loads at every start (the start
// file holds what the operations other than the builds share), and most steps use neither. Each
// endpoint has its call below, which owns its query: the operation speaks of callbacks.

export const CALLBACKS_BATCH = perGateway('POST', 'v3/projects/{projectId}/callbacks/batch', 'v4/projects/{projectId}/callbacks/batch');
export const CALLBACKS_LIST = perGateway('GET', 'v3/projects/{projectId}/callbacks', 'v4/projects/{projectId}/callbacks/callback_list');
/** v3 takes the id in the path, v4 in the query (`callback?id=`); the id goes in both, each ignores the other. */
export const CALLBACK_DELETE = perGateway('DELETE', 'v3/projects/{projectId}/callbacks/{id}', 'v4/projects/{projectId}/callbacks/callback');

/** The batch registration's answer: the events registered, and each refused with bk-ci's reason. */
export const callbackResult = z.lazy(() =>
  z.object({
    successEvents: z.array(z.string()).nullish(),
    failureEvents: z.record(z.string(), z.string()).nullish(),
  }),
);

/** One page of ProjectPipelineCallBack rows: one (url, event) each; secretToken is never shown. */
export const callbackPage = z.lazy(() =>
  z.object({
    count: z.number().int().nullish(),
    records: z
      .array(
        z.object({
          id: z.union([z.number().int(), z.string()]),
          callBackUrl: z.string(),
          events: z.string(),
          enable: z.boolean().nullish(),
        }),
      )
      .nullish(),
  }),
);

/** What a call about callbacks sends through: bk-ci's client. */
type Calls = Pick<BkciApi, 'call'>;

/** One callback as the action reads it: one URL for one event, enabled unless bk-ci disabled it. */
export interface CallbackRow {
  id: string;
  url: string;
  event: string;
  enable: boolean;
}

/** One page (from 1) of the project's callbacks, and bk-ci's count of them all when it says it. */
export async function readCallbackPage(
  api: Calls,
  projectId: string,
  page: { page: number; pageSize: number },
): Promise<{ rows: CallbackRow[]; count: number | null | undefined }> {
  const reply = await api.call({
    endpoint: CALLBACKS_LIST,
    params: { projectId },
    query: { page: String(page.page), pageSize: String(page.pageSize) },
    data: callbackPage,
  });
  const records = reply.data?.records ?? [];
  return {
    rows: records.map((r) => ({ id: String(r.id), url: r.callBackUrl, event: r.events, enable: r.enable !== false })),
    count: reply.data?.count,
  };
}

/** bk-ci's answer to a deletion of a callback that is not there (another deploy deleted it first). */
const ALREADY_DELETED = 2101136;

/** Deletes one callback: its HTTP status, or undefined when it was already gone. */
export async function deleteCallback(api: Calls, projectId: string, id: string): Promise<number | undefined> {
  try {
    return (await api.call({ endpoint: CALLBACK_DELETE, params: { projectId, id }, query: { id }, data: z.unknown() })).status;
  } catch (error) {
    if (error instanceof ServerSaidError && error.serverStatus === ALREADY_DELETED) return undefined;
    throw error;
  }
}

/** What the batch registers: one URL for the events, in a region, with the token bk-ci signs deliveries with. */
export interface CallbackRegistration {
  url: string;
  region: string;
  events: readonly string[];
  secretToken: string | undefined;
}

/** POSTs the batch registration: each event registered, or refused with bk-ci's reason. */
export const registerCallbacks = (
  api: Calls,
  projectId: string,
  ask: CallbackRegistration,
): Promise<Reply<z.infer<typeof callbackResult>>> =>
  api.call({
    endpoint: CALLBACKS_BATCH,
    params: { projectId },
    query: { url: ask.url, region: ask.region, event: ask.events.join(','), secretToken: ask.secretToken },
    data: callbackResult,
  });
