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
  describe: (task) => [
    ['method', task.method],
    ['path', task.path.join('/')],
    ['query', Object.keys(task.query ?? {}).join(', ')],
  ],
  waits: () => false,
  check: (task, settings) =>
    settings.gateway === 'bk-apigateway' && task.path[0] !== 'v4'
      ? [`path "${task.path.join('/')}" starts with ${task.path[0]}, but bk-ci publishes only v4 on the BlueKing API Gateway`]
      : [],
  async run(task, { api }) {
    const reply = await api.call({
      endpoint: anyPath(task.method),
      params: { path: task.path },
      ...(task.query === undefined ? {} : { query: task.query }),
      ...(task.body === undefined ? {} : { body: task.body.value }),
      data: z.unknown(),
      exact: true,
    });
    const shown = `${task.method} ${task.path.join('/')}`;
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
