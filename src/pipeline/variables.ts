// The build's variables a later step asks for: read with build_variables once the build ended,
// each secret value masked before anything can print it. Facts: docs/bkci/artifacts-and-variables.md
// (values come back raw, secrets included; an unknown name reads as "").

import type { Log } from '../base/log.ts';
import type { BuildRef, Calls } from '../bkci/builds.ts';
import { readVariables } from '../bkci/variables.ts';
import type { Secrets } from '../runner/secrets.ts';
import { type MaskAsk, maskPlan, refusedWarning } from './variable-masks.ts';

/**
 * The values of the named variables, name → value, as bk-ci holds them. Those that are secret
 * (see variable-masks.ts) are masked at once, before anything can print them; the values handed
 * back are the values themselves: the outputs take out the step's own credentials only.
 */
export async function readMasked(
  api: Calls,
  b: BuildRef,
  names: readonly string[],
  masks: { ask: MaskAsk; secrets: Secrets; log: Log },
): Promise<Record<string, string>> {
  const values = await readVariables(api, b, names);
  maskSecret(values, masks.ask, masks.secrets, masks.log);
  return values;
}

/**
 * Masks the values that are secret (see variable-masks.ts) at once, before anything can print
 * them; with `log`, says which asked-for ones are not masked. The values are the step's to output
 * as they are: masking protects the log only.
 */
export function maskSecret(values: Readonly<Record<string, string>>, ask: MaskAsk, secrets: Secrets, log?: Log): void {
  const plan = maskPlan(values, ask);
  for (const name of plan.masked) secrets.add(values[name], { own: false });
  if (log !== undefined && plan.refused.length > 0) log.warning(refusedWarning(plan.refused));
}
