// Brings the files of a build an earlier job started into the runner: its status read once (its
// files are whole once it has ended, whatever its conclusion), then the download of
// src/download/build-files.ts. The build's verdict is not this step's: a failed build's test
// report downloads like a successful build's package. docs/download.md.
import { ActionError, OperationError } from '../base/errors.ts';
import type { Outcome } from '../base/outcome.ts';
import type { z } from '../base/schema.ts';
import { FILE_INFO, USER_DOWNLOAD_URL } from '../bkci/artifacts.ts';
import { BUILD_STATUS, readBuildStatus } from '../bkci/builds.ts';
import { downloadBuildFiles } from '../download/build-files.ts';
import { downloadArtifactsInputs } from '../inputs/build.ts';
import { downloadProblems } from '../inputs/download.ts';
import { buildName } from '../pipeline/build.ts';
import { downloadAsk } from '../pipeline/build-download.ts';
import { endOf, pausedStage, stagePaused } from '../pipeline/status.ts';
import { type Context, defineOperation } from './operation.ts';

type DownloadArtifactsTask = z.output<typeof downloadArtifactsInputs>;

const OUTPUTS = ['downloaded', 'download-path'] as const;
type Output = (typeof OUTPUTS)[number];

export default defineOperation({
  inputs: downloadArtifactsInputs,
  endpoints: [BUILD_STATUS, FILE_INFO, USER_DOWNLOAD_URL],
  outputs: OUTPUTS,
  credentials: 'any',
  describe: (task) => [
    ['project-id', task['project-id']],
    ['build-id', task['build-id']],
    ['pipeline-id', task['pipeline-id'] ?? ''],
    ['download', task.download === undefined || task.download.length === 0 ? 'every file' : task.download.join(', ')],
    ['download-path', task['download-path']],
  ],
  waits: () => false,
  check: (t, settings) => downloadProblems({ ...t, wait: true }, settings, { waitsForEnd: false }),
  run: (t, ctx) => runDownload(t, ctx),
});

async function runDownload(task: DownloadArtifactsTask, ctx: Context): Promise<Outcome<Output>> {
  const build = { projectId: task['project-id'], pipelineId: task['pipeline-id'], id: task['build-id'] };
  const reply = await readBuildStatus(ctx.api, build);
  const status = reply.data;
  const name = buildName({ id: build.id, num: status.buildNum ?? undefined });
  // STAGE_SUCCESS without an end says nothing to a reader: the stage it waits at does.
  const review = stagePaused(status) ? pausedStage(status) : undefined;
  if (endOf(status) === 'waiting')
    throw new ActionError(
      `${name} is still ${status.status}${review === undefined ? '' : `, waiting for the review of stage '${review}'`}: its files are downloaded once it has ended. Wait for it first (build-status with wait: true, which takes download too)`,
      { status: reply.status },
    );
  // No pattern: every file. The console's origin may have the ticket when given (on bk-ci's own
  // gateway it is base-url's, which may anyway).
  const ask = downloadAsk({ ...task, download: task.download?.length ? task.download : ['**'] }, ctx, task['console-url']);
  const files = await downloadBuildFiles(ask, build, ctx);
  const outcome: Outcome<Output> = {
    headline: `${files.count === 1 ? '1 file' : `${files.count} files`} of ${name}, which ended ${status.status}, downloaded to ${ask.root}`,
    outputs: files.outputs,
    // The whole list, in data-file too: `downloaded` holds what fits in 64 KiB.
    data: files.entries,
    blocks: [{ kind: 'facts', rows: [['Build', `${name}: ${status.status}`]] }, ...files.blocks],
    status: reply.status,
  };
  if (files.problem !== undefined) throw new OperationError(files.problem, outcome);
  return outcome;
}
