// What the download tests share: a pipeline p-app that archives a package, its debug symbols and a
// test report (custom repository); a download folder of the test's own; what landed in it.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { FileBytes } from '../../emulator/file-bytes.ts';
import type { LoggedRequest } from '../../emulator/installation.ts';
import type { PipelineSeed, World } from './world.ts';

export const REPORT = '<testsuite tests="3" failures="1"/>';

/** The files p-app archives: 300 kB, 40 kB and a short text. */
export const APP_FILES: NonNullable<PipelineSeed['artifacts']> = [
  { path: 'app/App.ipa', size: 300_000 },
  { path: 'app/App.dSYM.zip', size: 40_000 },
  { path: 'reports/junit.xml', content: REPORT, type: 'CUSTOM_DIR' },
];

/** A folder for the step's files, inside a folder of its own: what lands beside it shows too. */
export async function downloadDir(): Promise<{ outer: string; dir: string }> {
  const outer = await mkdtemp(join(tmpdir(), 'bkci-dl-'));
  return { outer, dir: join(outer, 'files') };
}

/** Every file and folder below `dir`, relative, sorted; temporary files included (they start with a dot). */
export async function listed(dir: string): Promise<string[]> {
  const all = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return all.map((f) => relative(dir, join(dir, f))).sort();
}

export const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

export async function sha256Of(file: string): Promise<string> {
  return sha256(await readFile(file));
}

/** The SHA-256 the emulator's made-up bytes of a pipeline file have. */
export const madeUp = (buildId: string, path: string, size: number): string =>
  new FileBytes(`demo/pipeline/p-app/${buildId}/${path}`, size).sha256();

/** The downloads the gateway saw (realm bkrepo), in order. */
export const fileRequests = (w: World): LoggedRequest[] => w.emu.requests({ path: '/bkrepo/api/user/generic/' });

/** The `downloaded` output, read. */
export interface Entry {
  name: string;
  path: string;
  file: string;
  size: number;
  sha256: string;
  verified: string;
}
export const entries = (outputs: Record<string, string>): Entry[] => JSON.parse(outputs.downloaded ?? '[]') as Entry[];
