// Which build a v4 log, variable or artifact call means: bk-ci's openapi resolves the build's pipeline
// (ApigwLogResourceV4Impl/ApigwBuildResourceV4Impl/ApigwArtifactoryResourceV4Impl.checkPipelineId) and
// throws a ParamBlankException that ApiAspect turns into a 400 with `参数校验失败:{0} ` before its text.
import type { Build } from './build-records.ts';
import type { BuildWorld } from './builds.ts';
import type { Reply, Wire } from './wire.ts';

/** The build `buildId` names in the project, or the openapi's refusal. */
export function buildOf(wire: Wire, builds: BuildWorld, projectId: string, query: URLSearchParams): { build: Build } | { reply: Reply } {
  const buildId = query.get('buildId');
  if (!buildId) return { reply: wire.error(400, 400, '参数校验失败:request param buildId cannot be empty') };
  const build = builds.builds.get(buildId);
  if (build === undefined || build.projectId !== projectId)
    return { reply: wire.error(400, 400, '参数校验失败:{0} Invalid buildId, please check if projectId & buildId are related') };
  const pipelineId = query.get('pipelineId');
  if (pipelineId !== null && pipelineId !== build.pipelineId)
    return { reply: wire.error(400, 400, '参数校验失败:{0} PipelineId is invalid ') };
  return { build };
}
