// A build's variables (v4 build_variables): the values of the names asked for. Facts:
// docs/bkci/artifacts-and-variables.md.
import { z } from '../base/schema.ts';
import { atBuild, type BuildRef, type Calls } from './builds.ts';
import { onBoth } from './routes.ts';

/** A read: the names go in the body, nothing changes (docs/bkci/artifacts-and-variables.md). */
export const BUILD_VARIABLES = onBoth('POST', 'v4/projects/{projectId}/build_variables', 'read');

/** build_variables: name → value, "" for a name the build does not have. */
const buildVariables = z.record(z.string(), z.string().nullable());

/** The values of the variables named, name → value as bk-ci holds them, raw (V1): "" for a name the build does not have (V3). */
export async function readVariables(api: Calls, build: BuildRef, names: readonly string[]): Promise<Record<string, string>> {
  const reply = await api.call({ endpoint: BUILD_VARIABLES, ...atBuild(build), body: names, data: buildVariables });
  const got = reply.data ?? {};
  return Object.fromEntries(names.map((name) => [name, got[name] ?? '']));
}
