import { z } from 'zod';
import type { BkciApi } from '../http/api.ts';
import { OperationError, type Outcome } from '../outcome.ts';

const callbackResult = z.object({
  successEvents: z.array(z.string()).nullish(),
  failureEvents: z.record(z.string(), z.string()).nullish(),
});

export interface CallbackParams {
  projectId: string;
  callbackUrl: string;
  region: string;
  events: string[];
  secretToken?: string;
}

/** One batch request for all events; bk-ci upserts on (project, url, event). */
export async function createCallbacks(api: BkciApi, p: CallbackParams): Promise<Outcome> {
  const result = await api.call({
    method: 'POST',
    path: ['projects', p.projectId, 'callbacks', 'batch'],
    query: { url: p.callbackUrl, region: p.region, event: p.events.join(','), secretToken: p.secretToken },
    data: callbackResult,
  });
  const success = result?.successEvents ?? [];
  const failure = result?.failureEvents ?? {};
  const failed = Object.entries(failure);
  const rows = [...success.map((e) => [e, 'registered', '']), ...failed.map(([e, why]) => [e, 'failed', why])];
  const outcome: Outcome = {
    headline: `registered ${success.length} of ${p.events.length} callbacks for ${p.projectId}`,
    data: { successEvents: success, failureEvents: failure },
    outputs: { 'success-events': JSON.stringify(success), 'failure-events': JSON.stringify(failure) },
    blocks: [
      {
        kind: 'facts',
        rows: [
          ['Project', p.projectId],
          ['Callback URL', p.callbackUrl],
          ['Region', p.region],
        ],
      },
      { kind: 'table', title: 'Events', headers: ['Event', 'Result', 'Reason'], rows },
    ],
  };
  if (result === undefined) throw new OperationError('bk-ci answered the callback batch without a result', outcome);
  if (failed.length > 0) {
    throw new OperationError(
      `${failed.length} of ${p.events.length} callbacks failed: ${failed.map(([e, why]) => `${e} (${why})`).join('; ')}`,
      outcome,
    );
  }
  return outcome;
}
