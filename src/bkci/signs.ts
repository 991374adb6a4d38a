// bk-ci's IPA re-sign task (v3 sign/ipa): its status and the signed IPA's link. Facts:
// docs/bkci/signing.md.
import { z } from '../base/schema.ts';
import type { BkciApi, Reply } from './client.ts';
import { perGateway } from './routes.ts';

// The schema here is built on first use (z.lazy): this module loads at every start (the start
// file holds what the operations other than the builds share), and most steps do not use it.

// Not published on the BlueKing API Gateway (removed from open-source bk-ci's v4 in 2022).
export const SIGN_DETAIL = perGateway('GET', 'v3/sign/ipa/{resignId}/detail', null);
export const SIGN_DOWNLOAD_URL = perGateway('GET', 'v3/sign/ipa/{resignId}/downloadUrl', null);

export const signDetailData = z.lazy(() =>
  z.object({
    resignId: z.string().nullish(),
    status: z.string(),
    message: z.string().nullish(),
  }),
);
export type SignDetail = z.infer<typeof signDetailData>;

/** The re-sign task's status. */
export const readSignDetail = (api: Pick<BkciApi, 'call'>, resignId: string): Promise<Reply<SignDetail>> =>
  api.call({ endpoint: SIGN_DETAIL, params: { resignId }, data: signDetailData });

/** The signed IPA's link, once the task succeeded. */
export const readSignDownloadUrl = (api: Pick<BkciApi, 'call'>, resignId: string): Promise<Reply<string>> =>
  api.call({ endpoint: SIGN_DOWNLOAD_URL, params: { resignId }, data: z.string() });
