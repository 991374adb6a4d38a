// GET v4/projects/{p}/build_status?buildId=&pipelineId=: BuildHistoryWithVars, a build's history row
// with its variables and its place in the queue (docs/bkci/builds.md). A pipeline's `answerAsBuild`
// makes it answer about another build, as a confused server would.

import { QUEUED } from './build-life.ts';
import type { BuildWorld } from './builds.ts';
import { historyRow } from './histories.ts';
import type { VariableWorld } from './variables.ts';
import type { Reply } from './wire.ts';

export function buildStatus(builds: BuildWorld, variables: VariableWorld, projectId: string, query: URLSearchParams): Reply {
  const found = builds.find(projectId, query.get('buildId'), query.get('pipelineId'));
  if (!('id' in found)) return found;
  // answerAsBuild: the whole answer is that build's when it exists, else this one's with its id.
  const asked = builds.pipelineOf(found)?.answerAsBuild;
  const other = asked === undefined ? undefined : builds.builds.get(asked);
  const shown = other ?? found;
  const life = builds.life(shown);
  const queued = QUEUED.has(life.status) && life.endTime === null;
  // BuildHistoryWithVars lacks BuildHistory's executeCount and updateTime (docs/bkci/builds.md, trap L1).
  const { executeCount: _executeCount, updateTime: _updateTime, ...row } = historyRow(builds, shown, life);
  return builds.wire.ok({
    ...row,
    // BuildHistoryWithVars: computed only while the build waits in the queue.
    currentQueuePosition: queued ? (builds.pipelineOf(shown)?.queuePosition ?? 1) : 0,
    ...(asked !== undefined && other === undefined ? { id: asked } : {}),
    // Every variable the build has now (bk-ci's getAllVariable): what its steps set too, raw.
    variables: { ...variables.all(shown), BK_CI_BUILD_MSG: shown.buildMsg },
  });
}
