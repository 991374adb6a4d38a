// The steps of a build that failed, as bk-ci names them: from its model (each step FAILED, or a
// review REVIEW_ABORT, with its error), else from its status's errorInfoList. What explains a
// failure (src/pipeline/build-report.ts) and the words the step fails with (src/pipeline/build-decide.ts).
import { z } from '../base/schema.ts';
import type { BuildDetail, BuildStatus } from '../bkci/builds.ts';

/** A step that failed, as bk-ci names it: its elementId (the log's tag), its name, its error. */
export interface FailedStep {
  id: string;
  name: string;
  error: string;
}

/**
 * The steps that failed: from the build's model (each step FAILED, or a review REVIEW_ABORT, with
 * its error), else from the errorInfoList of its status.
 */
export function failedSteps(detail: BuildDetail | undefined, last: BuildStatus | undefined): FailedStep[] {
  const fromModel: FailedStep[] = [];
  for (const st of (detail?.model?.stages ?? []).slice(1))
    for (const job of st.containers ?? [])
      for (const el of job.elements ?? [])
        if (el.id && (el.status === 'FAILED' || el.status === 'REVIEW_ABORT'))
          fromModel.push({
            id: el.id,
            name: job.name && el.name ? `${job.name} › ${el.name}` : (el.name ?? el.id),
            error: `${el.errorCode ? `${el.errorCode}: ` : ''}${el.errorMsg ?? el.status}`,
          });
  return fromModel.length > 0 ? fromModel : failedStepsOf(last?.errorInfoList);
}

/** The failed steps bk-ci's status names (its errorInfoList), each with its elementId when it gives one. */
function failedStepsOf(errors: readonly unknown[] | null | undefined): FailedStep[] {
  const info = z.looseObject({
    taskId: z.string().nullish(),
    taskName: z.string().nullish(),
    errorCode: z.number().nullish(),
    errorMsg: z.string().nullish(),
  });
  return (errors ?? []).flatMap((entry) => {
    const parsed = info.safeParse(entry);
    if (!parsed.success) return [];
    const { taskId, taskName, errorCode, errorMsg } = parsed.data;
    return [{ id: taskId ?? '', name: taskName ?? taskId ?? 'a step', error: `${errorCode ? `${errorCode}: ` : ''}${errorMsg ?? ''}` }];
  });
}
