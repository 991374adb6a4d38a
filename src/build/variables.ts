// The build's variables a later step asks for: read with build_variables once the build ended,
// each value masked before anything can print it. Facts: bkci-logs-artifacts-review.md §4
// (values come back raw, secrets included; an unknown name reads as "").
import { BUILD_VARIABLES, buildVariables } from '../bkci/reviews.ts';
import type { Secrets } from '../runner/secrets.ts';
import type { Calls } from './side-reads.ts';

/** bk-ci reads at most 50 names a call. */

export interface VariablesOf {
  projectId: string;
  pipelineId?: string | undefined;
  id: string;
  /** The build's number, once known. */
  num?: number | undefined;
}

/**
 * The values of the named variables, name → value, each masked at once. What is handed back has
 * the step's own secrets (tokens) taken out: the values themselves are masked by the runner.
 */
export async function readVariables(
  api: Calls,
  secrets: Secrets,
  b: VariablesOf,
  names: readonly string[],
): Promise<Record<string, string>> {
  const reply = await api.call({
    endpoint: BUILD_VARIABLES,
    params: { projectId: b.projectId },
    query: { buildId: b.id, pipelineId: b.pipelineId },
    body: names,
    data: buildVariables,
  });
  const got = reply.data ?? {};
  const out: Record<string, string> = {};
  // The build's own ids are in the outputs already (build-id, build-num): BK_CI_BUILD_ID is no secret.
  // The values are masked and scrubbed from what the step shows, but not from its own outputs.
  const known = new Set([b.projectId, b.pipelineId, b.id, b.num === undefined ? undefined : String(b.num)]);
  for (const name of names) {
    const value = got[name] ?? '';
    out[name] = secrets.redact(value);
    if (!known.has(value)) secrets.add(value, { own: false });
  }
  return out;
}
