/** Runs `run` over the items, `width` at a time, in their order; resolves when every one has ended. */
export async function eachAtOnce<T>(items: readonly T[], width: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let item = items[next++]; item !== undefined; item = items[next++]) await run(item);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}
