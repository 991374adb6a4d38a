// A build's variables as bk-ci's build_variables reads them (docs/bkci/artifacts-and-variables.md;
// bk-ci ServiceBuildResourceImpl.getBuildVariableValue, PipelineBuildFacadeService.getBuildVarsByNames):
// start parameters, the BK_CI_* built-ins and what the pipeline's steps set, raw (secrets too).
import { z } from 'zod';
import { startVariables } from './build-model.ts';
import type { Build } from './build-records.ts';
import { buildOf } from './build-ref.ts';
import type { BuildWorld } from './builds.ts';
import type { Reply, Wire } from './wire.ts';

/** bk-ci's limit on names per request (ServiceBuildResourceImpl). */
const MAX_NAMES = 50;

/** Java's String.hashCode, over UTF-16 code units with int overflow. */
function javaHash(text: string): number {
  let hash = 0;
  for (let index = 0; index < text.length; index++) hash = (Math.imul(hash, 31) + text.charCodeAt(index)) | 0;
  return hash;
}

/**
 * The keys in the order a java.util.HashMap of them iterates (bucket by spread hash, then insertion):
 * bk-ci answers with a HashMap, so the names do not come back in the order asked.
 */
function hashMapOrder(keys: string[]): string[] {
  let capacity = 16;
  while (keys.length > capacity * 0.75) capacity *= 2;
  const bucket = (key: string) => {
    const hash = javaHash(key);
    return (hash ^ (hash >>> 16)) & (capacity - 1);
  };
  return keys
    .map((k, i) => ({ k, i, b: bucket(k) }))
    .sort((x, y) => x.b - y.b || x.i - y.i)
    .map((e) => e.k);
}

export class VariableWorld {
  readonly #wire: Wire;
  readonly #now: () => number;
  readonly #builds: BuildWorld;

  constructor(wire: Wire, now: () => number, builds: BuildWorld) {
    this.#wire = wire;
    this.#now = now;
    this.#builds = builds;
  }

  /** Every variable the build has now (T_PIPELINE_BUILD_VAR): built-ins, start parameters, then what steps set. */
  all(build: Build): Record<string, string> {
    const pipeline = this.#builds.pipelines.get(`${build.projectId}/${build.pipelineId}`);
    const elapsed = this.#now() - build.startedAt;
    const set: Record<string, string> = {};
    for (const [name, value] of Object.entries(pipeline?.variables ?? {})) {
      if (typeof value === 'string') set[name] = value;
      // A stopped build's steps set nothing after the stop.
      else if (value.at <= elapsed && (build.canceledAt === undefined || build.startedAt + value.at <= build.canceledAt))
        set[name] = value.value;
    }
    return {
      BK_CI_PROJECT_NAME: build.projectId,
      BK_CI_PIPELINE_ID: build.pipelineId,
      BK_CI_PIPELINE_NAME: pipeline?.name ?? '',
      BK_CI_BUILD_ID: build.id,
      BK_CI_BUILD_NUM: String(build.num),
      BK_CI_START_TYPE: 'SERVICE',
      BK_CI_START_CHANNEL: 'BS',
      BK_CI_START_USER_ID: build.userId,
      BK_CI_START_USER_NAME: build.userId,
      BK_CI_START_SERVICE_USER_ID: build.userId,
      ...startVariables(pipeline, build.params),
      ...set,
    };
  }

  /** POST v4/projects/{p}/build_variables?buildId&pipelineId, body ["NAME", …]: name → value, "" when unknown. */
  values(projectId: string, query: URLSearchParams, body: unknown): Reply {
    const found = buildOf(this.#wire, this.#builds, projectId, query);
    if ('reply' in found) return found.reply;
    const build = found.build;
    // Jackson into List<String>: scalars become their text; anything else does not bind.
    const names = z.array(z.union([z.string(), z.number(), z.boolean()]).transform(String)).safeParse(body);
    if (!names.success) return this.#wire.error(400, 400, 'JSON参数错误');
    // ParamBlankException("Invalid variableNames") and IllegalArgumentException("The maximum number of
    // variableNames is 50"): through the openapi only the mappers' texts remain.
    if (names.data.length === 0) return this.#wire.error(400, 400, '请求的参数内容为空');
    if (names.data.length > MAX_NAMES) return this.#wire.error(400, 400, '查询参数请求错误');
    const all = this.all(build);
    const unique = [...new Set(names.data)];
    return this.#wire.ok(Object.fromEntries(hashMapOrder(unique).map((n) => [n, all[n] ?? ''])));
  }
}
