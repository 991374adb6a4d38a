import { buildStatusInputs, checkProblems } from '../inputs/build.ts';
import { downloadProblems } from '../inputs/download.ts';
import { FOLLOW_ENDPOINTS, followFor } from './build-follow.ts';
import { followGivenBuild, GIVEN_BUILD_OUTPUTS, givenBuild, givenBuildRows } from './given-build.ts';
import { defineOperation, waitRow } from './operation.ts';

/** Reads a build this step did not start, once or until it ends. It never stops the build. */
export default defineOperation({
  inputs: buildStatusInputs,
  endpoints: FOLLOW_ENDPOINTS,
  outputs: GIVEN_BUILD_OUTPUTS,
  credentials: 'any',
  describe: (t, settings) => [...givenBuildRows(t), waitRow(t.wait, settings.timeoutMs)],
  waits: (t) => t.wait,
  // A build read once may have ended: its files are then downloaded, else the step says it has not.
  check: (t, settings) => [...checkProblems(t), ...downloadProblems(t, settings, { waitsForEnd: false })],
  run: (task, ctx) => {
    const follow = followFor(task, ctx);
    return followGivenBuild(givenBuild(task, follow), follow);
  },
});
