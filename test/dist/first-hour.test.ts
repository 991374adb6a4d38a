// A newcomer's first hour, where only processes show it: `npm start`, as the README says to run
// it, is npm starting the emulator and the action, and what it leaves in the temporary directory
// is theirs. The mistakes of the first hour and the outputs each operation sets run in process in
// test/run/first-hour.test.ts.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('npm start, as the README says to run it', () => {
  it('shows a clean run and leaves nothing in the temporary directory', async () => {
    const temp = await mkdtemp(join(tmpdir(), 'bkci-npm-start-'));
    try {
      const child = spawn('npm', ['start', '--silent'], { env: { ...process.env, TMPDIR: temp }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
      });
      child.stderr.on('data', (c: Buffer) => {
        out += c.toString();
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code, out).toBe(0);
      expect(out).toMatch(/re-sign task s-5f1c9e7a: SUCCESS after/);
      expect(out).toMatch(/exit code 0 after \d/);
      // The seeded world gives the operation only the inputs it reads: nothing to warn about.
      expect(out).not.toMatch(/Warning:/);
      // npm itself may keep its module compile cache there (`npm --version` alone does): npm's, made once, not the run's.
      expect((await readdir(temp)).filter((name) => name !== 'node-compile-cache')).toEqual([]);
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  }, 30_000);
});
