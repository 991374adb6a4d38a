// Inputs the workflow gave under a name the action does not know: `build-param`, `pipeline_id`,
// `pipelineId`. The runner passes every `with:` entry as an INPUT_ variable whatever its name,
// so a typo would otherwise be silent, and a build would start without what was meant for it.
import { distance, looseName, suggest } from './suggest.ts';

const PREFIX = 'INPUT_';

/** The variable the runner sets for an input: upper case, spaces as `_`, hyphens kept (as @actions/core's getInput reads it). */
const inputVariable = (name: string): string => `${PREFIX}${name.replace(/ /g, '_').toUpperCase()}`;

export interface UnknownInputs {
  /** Each unknown name, with the nearest known one when one is near. */
  warnings: string[];
  /** Unknown names one slip from an input the operation reads and was not given: refused before any request. */
  problems: string[];
}

/**
 * What the step says of the INPUT_ variables in `variables` that name no input: a warning each,
 * or a refusal when the name is one edit (or only `-`, `_` or case) away from an input that
 * `operation` reads and that was left empty: the value was surely meant for it, and running
 * without it would do something else than asked (start a build without its parameters).
 */
export function unknownInputs(
  variables: readonly string[],
  step: { known: readonly string[]; operation: string; reads: readonly string[]; given: ReadonlySet<string> },
): UnknownInputs {
  const byVariable = new Map(step.known.map((name) => [inputVariable(name), name]));
  const out: UnknownInputs = { warnings: [], problems: [] };
  for (const variable of variables) {
    if (!variable.startsWith(PREFIX) || byVariable.has(variable)) continue;
    // GitHub upper-cases the name: lower case is as near as it can be told back.
    const written = variable.slice(PREFIX.length).toLowerCase();
    const missed = step.reads.find((name) => !step.given.has(name) && distance(looseName(written), looseName(name)) <= 1);
    if (missed !== undefined) {
      out.problems.push(
        `${written} is not an input of this action: did you mean ${missed}? ${step.operation} reads ${missed}, which is not set, so the step would run without the value meant for it`,
      );
      continue;
    }
    const near = suggest(written, step.reads) ?? suggest(written, step.known);
    out.warnings.push(
      `${written} is not an input of this action, so it was ignored: ${near === undefined ? 'action.yml lists the inputs there are' : `did you mean ${near}?`} (the runner passed it as ${variable})`,
    );
  }
  return out;
}
