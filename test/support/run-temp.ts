// One folder for everything a test run puts in the temporary directory, removed when the run ends
// (vitest.config.ts): whatever a test forgets to remove, and whatever a worker that is stopped
// before its last file's cleanup leaves, goes with it. It is made on the machine's RAM disk when
// that has room (a container's is often 64 MiB): on this machine's disk, creating and removing the
// tests' folders and files cost two to three times the CPU. A TMPDIR of the caller's own is kept:
// the folder is made inside it. The built action's steps run in the runner's clean environment
// (test/support/dist-runner.ts); their folders are made by the tests, inside this one.
import { existsSync, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RAM_DISK = '/dev/shm';
/** Set once the run's folder exists, so that a process that reads the configuration again reuses it. */
const MARK = 'BKCI_TESTS_TMPDIR';

function base(): string {
  if (process.env.TMPDIR !== undefined) return process.env.TMPDIR;
  if (existsSync(RAM_DISK)) {
    const { bavail, bsize } = statfsSync(RAM_DISK);
    if (bavail * bsize >= 1024 ** 3) return RAM_DISK;
  }
  return tmpdir();
}

/** Makes the run's folder the temporary directory of this process and of every process it starts. */
export function useRunTemp(): void {
  if (process.env[MARK] !== undefined) return;
  const dir = mkdtempSync(join(base(), 'bkci-tests-'));
  process.env[MARK] = dir;
  process.env.TMPDIR = dir;
}

/** vitest's globalSetup: the run's folder is removed once every file has run. */
export default function removeRunTempAtTheEnd(): () => void {
  return () => {
    const dir = process.env[MARK];
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  };
}
