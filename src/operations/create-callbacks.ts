import { z } from 'zod';
import { CALLBACK_EVENTS, REGIONS } from '../bkci/events.ts';
import type { Endpoint } from '../bkci/routes.ts';
import { OperationError } from '../errors.ts';
import { oneOf, publicHttpUrl, segment, splitList, suggest } from '../inputs/fields.ts';
import type { Outcome } from '../outcome.ts';
import { defineOperation } from './operation.ts';

const CALLBACKS_BATCH: Endpoint = {
  method: 'POST',
  path: { 'bk-ci': 'v3/projects/{projectId}/callbacks/batch', 'bk-apigateway': 'v4/projects/{projectId}/callbacks/batch' },
};

const callbackResult = z.object({
  successEvents: z.array(z.string()).nullish(),
  failureEvents: z.record(z.string(), z.string()).nullish(),
});

const events = z.string().transform((v, ctx) => {
  const names = splitList(v);
  if (names.length === 0) ctx.addIssue({ code: 'custom', message: 'events names no event' });
  for (const e of names) {
    if ((CALLBACK_EVENTS as readonly string[]).includes(e)) continue;
    const hint = suggest(e, CALLBACK_EVENTS);
    ctx.addIssue({
      code: 'custom',
      message: `event "${e}" is not a bk-ci callback event${hint ? ` (did you mean ${hint}?)` : ''}; known events: ${CALLBACK_EVENTS.join(', ')}`,
    });
  }
  return names;
});

/** One batch request for all events; bk-ci upserts on (project, url, event). */
export default defineOperation({
  inputs: z.object({
    'project-id': segment('project-id'),
    'callback-url': publicHttpUrl('callback-url'),
    region: oneOf('region', REGIONS),
    events,
    'secret-token': z.string().optional(),
  }),
  secrets: ['secret-token'],
  endpoints: [CALLBACKS_BATCH],
  outputs: ['success-events', 'failure-events'],
  credentials: 'any',
  describe: (t) => [
    ['project-id', t['project-id']],
    ['callback-url', t['callback-url']],
    ['region', t.region],
    ['events', t.events.join(', ')],
  ],
  waits: () => false,
  async run(t, { api }) {
    const reply = await api.call({
      endpoint: CALLBACKS_BATCH,
      params: { projectId: t['project-id'] },
      query: { url: t['callback-url'], region: t.region, event: t.events.join(','), secretToken: t['secret-token'] },
      data: callbackResult,
    });
    const success = reply.data?.successEvents ?? [];
    const failure = reply.data?.failureEvents ?? {};
    const failed = Object.entries(failure);
    const rows = [...success.map((e) => [e, 'registered', '']), ...failed.map(([e, why]) => [e, 'failed', why])];
    const outcome: Outcome<'success-events' | 'failure-events'> = {
      headline: `registered ${success.length} of ${t.events.length} callbacks for ${t['project-id']}`,
      data: { successEvents: success, failureEvents: failure },
      outputs: { 'success-events': JSON.stringify(success), 'failure-events': JSON.stringify(failure) },
      blocks: [
        {
          kind: 'facts',
          rows: [
            ['Project', t['project-id']],
            ['Callback URL', t['callback-url']],
            ['Region', t.region],
          ],
        },
        { kind: 'table', title: 'Events', headers: ['Event', 'Result', 'Reason'], rows },
      ],
      status: reply.status,
    };
    if (reply.data === undefined) throw new OperationError('bk-ci answered the callback batch without a result', outcome);
    if (failed.length > 0)
      throw new OperationError(
        `${failed.length} of ${t.events.length} callbacks failed: ${failed.map(([e, why]) => `${e} (${why})`).join('; ')}`,
        outcome,
      );
    return outcome;
  },
});
