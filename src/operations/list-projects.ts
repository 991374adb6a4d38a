import { z } from 'zod';
import { PROJECT_LIST, projectInPlace } from '../bkci/projects.ts';
import type { Block } from '../outcome.ts';
import { defineOperation } from './operation.ts';

const TABLE_LIMIT = 50;

/** Every project the user can see. */
export default defineOperation({
  inputs: z.object({}),
  endpoints: [PROJECT_LIST],
  outputs: ['count'],
  credentials: 'any',
  describe: () => [],
  waits: () => false,
  async run(_, { api }) {
    const reply = await api.call({ endpoint: PROJECT_LIST, data: z.array(projectInPlace) });
    const list = reply.data ?? [];
    const rows = list.slice(0, TABLE_LIMIT).map((p) => [p.englishName, p.projectName, p.creator ?? '', p.enabled === false ? 'no' : 'yes']);
    const counted = `${list.length} project${list.length === 1 ? '' : 's'}`;
    const blocks: Block[] = [{ kind: 'table', title: counted, headers: ['English name', 'Name', 'Creator', 'Enabled'], rows }];
    if (list.length > TABLE_LIMIT)
      blocks.push({ kind: 'note', text: `… and ${list.length - TABLE_LIMIT} more (all of them are in data-file)` });
    return { headline: counted, data: list, outputs: { count: String(list.length) }, blocks, status: reply.status };
  },
});
