// An earlier attempt's build is this step's only when more than its message says so: the message
// is free text anyone who may start the pipeline can write, and it is predictable. The build is
// this step's when bk-ci started it as the user this step calls bk-ci as, with the start
// parameters this step sends (its build-params, and the material the action adds); a parameter it
// does not send is at its default. A pure table over one build_histories row (docs: the
// contract's "Re-runs continue the build"; the row's fields, docs/bkci/builds.md).
import type { BuildParameter, HistoryRow } from '../bkci/build-history.ts';
import { BUILD_MSG } from '../bkci/builds.ts';

/** What this step starts a build as: the user of its calls ('' when unknown), and its start values. */
export interface StepOwner {
  user: string;
  values: Readonly<Record<string, string>>;
}

/** Start values bk-ci keeps whether the pipeline declares them or not: the custom trigger material. */
const KEPT = new Set(['BK_CI_MATERIAL_ID', 'BK_CI_MATERIAL_NAME', 'BK_CI_MATERIAL_URL']);

/** A parameter's value as text: bk-ci takes every start value as text, and may give one back typed. */
const asText = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** A value bk-ci hides (a password), or a default it does not show, proves nothing either way. */
const unreadable = (p: BuildParameter): boolean => p.sensitive === true;

/** Why the row is not this step's build, in words naming no value (a value may be a secret); undefined when it is. */
export function notOwn(row: Pick<HistoryRow, 'userId' | 'buildParameters'>, own: StepOwner): string | undefined {
  if (own.user === '') return 'the user this step calls bk-ci as is not known (set user-id), so who started it cannot be checked';
  if (!row.userId) return 'bk-ci does not say who started it';
  if (row.userId !== own.user) return `${row.userId} started it, not ${own.user}`;
  const params = row.buildParameters;
  if (params === null || params === undefined) return 'bk-ci does not show the parameters it was started with';
  const shown = new Map(params.map((p) => [p.key, p]));
  for (const [key, value] of Object.entries(own.values)) {
    const param = shown.get(key);
    if (key === BUILD_MSG || (param === undefined && !KEPT.has(key))) continue;
    // Not declared by the pipeline, bk-ci drops it; the material it always keeps.
    if (param === undefined) return `it was started without ${key}, which this step sends`;
    if (!unreadable(param) && asText(param.value) !== value) return `it was started with another ${key} than this step sends`;
  }
  for (const param of params) {
    if (Object.hasOwn(own.values, param.key) || param.key === BUILD_MSG || param.readOnly === true || unreadable(param)) continue;
    if (param.defaultValue !== undefined && param.defaultValue !== null && asText(param.value) !== asText(param.defaultValue))
      return `it was started with ${param.key} set, which this step does not send`;
  }
  return undefined;
}
