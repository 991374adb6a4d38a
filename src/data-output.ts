import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const DATA_OUTPUT_LIMIT = 1024 * 1024;

/** `data` as JSON in a file under RUNNER_TEMP, and inline too when it fits in 1 MiB. */
export async function writeData(
  data: unknown,
  operation: string,
  runnerTemp: string | undefined,
): Promise<{ file: string; inline: string | undefined }> {
  const json = JSON.stringify(data ?? null);
  const file = join(runnerTemp || tmpdir(), `bkci-${operation}-${randomUUID()}.json`);
  await writeFile(file, json, { mode: 0o600 });
  return { file, inline: Buffer.byteLength(json) <= DATA_OUTPUT_LIMIT ? json : undefined };
}
