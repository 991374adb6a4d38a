import type { Block } from '../base/outcome.ts';
import { z } from '../base/schema.ts';
import { listProjects, PROJECT_LIST } from '../bkci/projects.ts';
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
  async run(_task, { api, dataFile }) {
    const reply = await listProjects(api, TABLE_LIMIT, dataFile);
    const count = reply.data?.count ?? 0;
    const rows = (reply.data?.first ?? []).map((project) => [
      project.englishName,
      project.projectName,
      project.creator ?? '',
      project.enabled === false ? 'no' : 'yes',
    ]);
    const counted = `${count} project${count === 1 ? '' : 's'}`;
    const blocks: Block[] = [{ kind: 'table', title: counted, headers: ['English name', 'Name', 'Creator', 'Enabled'], rows }];
    if (count > TABLE_LIMIT) blocks.push({ kind: 'note', text: `… and ${count - TABLE_LIMIT} more (all of them are in data-file)` });
    return { headline: counted, data: dataFile, outputs: { count: String(count) }, blocks, status: reply.status };
  },
});
