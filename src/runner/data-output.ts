import { randomUUID } from 'node:crypto';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const DATA_OUTPUT_LIMIT = 1024 * 1024;
const BATCH = 500;

/**
 * `data` as JSON in a file under RUNNER_TEMP, and inline too when it fits in 1 MiB. A list is
 * written a batch of items at a time, so a large one never becomes a single string. `scrub`
 * takes out secrets; each piece holds whole items, so a secret is never split between two.
 */
export async function writeData(
  data: unknown,
  operation: string,
  runnerTemp: string | undefined,
  scrub: (text: string) => string = (text) => text,
): Promise<{ file: string; inline: string | undefined }> {
  const file = join(runnerTemp || tmpdir(), `bkci-${operation}-${randomUUID()}.json`);
  const handle = await open(file, 'w', 0o600);
  let bytes = 0;
  let inline: string[] | undefined = [];
  const write = async (raw: string): Promise<void> => {
    const text = scrub(raw);
    bytes += Buffer.byteLength(text);
    inline = inline && bytes <= DATA_OUTPUT_LIMIT ? [...inline, text] : undefined;
    await handle.write(text);
  };
  try {
    if (Array.isArray(data)) {
      await write('[');
      for (let i = 0; i < data.length; i += BATCH) {
        const part = data
          .slice(i, i + BATCH)
          .map((item: unknown) => JSON.stringify(item) ?? 'null')
          .join(',');
        await write(i === 0 ? part : `,${part}`);
      }
      await write(']');
    } else {
      await write(JSON.stringify(data ?? null));
    }
  } finally {
    await handle.close();
  }
  return { file, inline: inline?.join('') };
}
