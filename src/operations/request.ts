import { z } from '../base/schema.ts';
import { anyPath } from '../bkci/routes.ts';
import { requestInputs } from '../inputs/request.ts';
import { defineOperation } from './operation.ts';

/** Any bk-ci OpenAPI call, with the same auth, renewal, retries, wrapper check, redaction and outputs as every operation. */
export default defineOperation({
  inputs: requestInputs.unwrap(),
  endpoints: [anyPath('GET')],
  outputs: [],
  credentials: 'any',
  describe: (t) => [
    ['method', t.method],
    ['path', t.path.join('/')],
    ['query', Object.keys(t.query ?? {}).join(', ')],
  ],
  waits: () => false,
  check: (t, settings) =>
    settings.gateway === 'bk-apigateway' && t.path[0] !== 'v4'
      ? [`path "${t.path.join('/')}" starts with ${t.path[0]}, but bk-ci publishes only v4 on the BlueKing API Gateway`]
      : [],
  async run(t, { api }) {
    const reply = await api.call({
      endpoint: anyPath(t.method),
      params: { path: t.path },
      ...(t.query === undefined ? {} : { query: t.query }),
      ...(t.body === undefined ? {} : { body: t.body.value }),
      data: z.unknown(),
      exact: true,
    });
    const shown = `${t.method} ${t.path.join('/')}`;
    return {
      headline: `${shown}: HTTP ${reply.status}${reply.data === undefined ? ', no data' : ''}`,
      ...(reply.data === undefined ? {} : { data: reply.data }),
      outputs: {},
      blocks: [
        {
          kind: 'facts',
          rows: [
            ['Request', shown],
            ['HTTP status', String(reply.status)],
            ['Data', reply.data === undefined ? 'none' : 'in the data and data-file outputs'],
          ],
        },
      ],
      status: reply.status,
    };
  },
});
