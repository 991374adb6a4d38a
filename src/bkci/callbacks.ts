// bk-ci's callbacks of a project (v3 on its own gateway, v4 on the BlueKing API Gateway): list,
// delete, register, and their answers. Facts: docs/bkci/projects-and-callbacks.md#callbacks.
import { z } from '../base/schema.ts';
import { perGateway } from './routes.ts';

// The schemas here are built on first use (z.lazy): this module loads at every start (the start
// file holds what the operations other than the builds share), and most steps use neither.

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
