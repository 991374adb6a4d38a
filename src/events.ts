/** bk-ci's CallBackEvent (common-pipeline CallBackData.kt), all versions up to 2026. */
export const CALLBACK_EVENTS = [
  'DELETE_PIPELINE',
  'CREATE_PIPELINE',
  'UPDATE_PIPELINE',
  'STREAM_ENABLED',
  'RESTORE_PIPELINE',
  'BUILD_START',
  'BUILD_END',
  'BUILD_STAGE_START',
  'BUILD_STAGE_END',
  'BUILD_JOB_START',
  'BUILD_JOB_END',
  'BUILD_TASK_START',
  'BUILD_TASK_END',
  'BUILD_TASK_PAUSE',
  'PROJECT_CREATE',
  'PROJECT_UPDATE',
  'PROJECT_ENABLE',
  'PROJECT_DISABLE',
] as const;

export const REGIONS = ['DEVNET', 'OSS', 'IDC'] as const;

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const here = row[j] ?? 0;
      row[j] = Math.min(here + 1, (row[j - 1] ?? 0) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = here;
    }
  }
  return row[b.length] ?? 0;
}

/** The closest known name, if it is close enough to be what was meant. */
export function suggest(value: string, known: readonly string[]): string | undefined {
  const upper = value.toUpperCase().replace(/[\s-]/g, '_');
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = distance(upper, k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return bestDistance <= Math.max(2, Math.floor(upper.length / 3)) ? best : undefined;
}

/** Names separated by commas and/or new lines, trimmed, empty ones and repeats dropped. */
export function splitEvents(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,\n]/)
        .map((e) => e.trim())
        .filter((e) => e !== ''),
    ),
  ];
}
