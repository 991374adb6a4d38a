// "Did you mean": the known name closest to what was written, when it is close enough.

/** How many characters must be added, removed or changed to make one text the other (Levenshtein). */
export function distance(from: string, to: string): number {
  const row = Array.from({ length: to.length + 1 }, (_, i) => i);
  for (let i = 1; i <= from.length; i++) {
    let prev = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= to.length; j++) {
      const here = row[j] ?? 0;
      row[j] = Math.min(here + 1, (row[j - 1] ?? 0) + 1, prev + (from[i - 1] === to[j - 1] ? 0 : 1));
      prev = here;
    }
  }
  return row[to.length] ?? 0;
}

/** A name as people mistype it: case, and `-`, `_` or a space between words, do not count. */
export const looseName = (name: string): string => name.toUpperCase().replace(/[\s_-]/g, '');

/**
 * The closest known name, if it is close enough to be what was meant: `build-end` → `BUILD_END`,
 * `descripton` → `description`. For every "did you mean" the action says.
 */
export function suggest(value: string, known: readonly string[]): string | undefined {
  const loose = looseName(value);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const name = looseName(candidate);
    const apart = distance(loose, name);
    // Up to a third of the longer name may differ: `logoAddr` is `logoAddress`, cut short.
    if (apart < bestDistance && apart <= Math.max(2, Math.floor(Math.max(loose.length, name.length) / 3)))
      [best, bestDistance] = [candidate, apart];
  }
  return best;
}
