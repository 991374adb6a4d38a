import { existsSync, statfsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// Node's compile cache for every process of the suite that inherits this environment: the workers,
// and the local loop's scripts the tests start (scripts/demo.ts, emulator/cli.ts), which Node
// otherwise strips of their types and compiles again in every process (half of such a process's
// CPU). Entries are checked against the source's hash, so an edited file is compiled afresh. The
// built action runs without it, in the runner's clean environment (test/support/dist-runner.ts).
process.env.NODE_COMPILE_CACHE ??= resolve(import.meta.dirname, 'node_modules/.cache/bkci-node-compile');
// The tests' temporary folders and files (a folder per step, its output and summary files) on the
// machine's RAM disk when it has one with room (a container's is often 64 MiB): on this machine's
// disk, creating and removing them cost two to three times the CPU. A TMPDIR of the caller's own
// is kept.
const ramDisk = '/dev/shm';
if (process.env.TMPDIR === undefined && existsSync(ramDisk)) {
  const { bavail, bsize } = statfsSync(ramDisk);
  if (bavail * bsize >= 1024 ** 3) process.env.TMPDIR = ramDisk;
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Half as many workers again as cores, three on two (vitest caps a percentage at the cores): a
    // file waits on loopback sockets and the built action's processes for about a fifth of its
    // time (the timeouts and deadlines the built action keeps are real), and the third worker runs
    // another file meanwhile. On this machine: 33-36 s against 36-42 s idle, and 55 s against 65 s
    // with both cores kept busy by other processes (BENCHMARKS.md, "The test suite's time"). A
    // fourth gave nothing clear for more CPU.
    maxWorkers: Math.ceil(availableParallelism() * 1.5),
    // Workers are reused across files instead of one process per file: a fresh worker costs a
    // process, vitest's environment and every module of src/ and emulator/ transformed and loaded
    // again (a third of the suite's CPU time). Nothing a file leaves behind reaches the next: tests
    // stub the environment with vi.stubEnv and restore it, close their emulators, and run() in
    // this process restores what it changes (test/support/in-process.ts).
    isolate: false,
    // A guard against a test that hangs, not a timing: on this machine at load 18-20 (six test runs
    // at once) the one test that runs the built action twelve times in a row took over 30 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The JSON report is what .ci/run counts; the default reporter is for people.
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
