import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { useRunTemp } from './test/support/run-temp.ts';

// Node's compile cache for every process of the suite that inherits this environment: the workers,
// and the local loop's scripts the tests start (scripts/demo.ts, emulator/cli.ts), which Node
// otherwise strips of their types and compiles again in every process (half of such a process's
// CPU). Entries are checked against the source's hash, so an edited file is compiled afresh. The
// built action runs without it, in the runner's clean environment (test/support/dist-runner.ts).
process.env.NODE_COMPILE_CACHE ??= resolve(import.meta.dirname, 'node_modules/.cache/bkci-node-compile');
// Everything the tests put in the temporary directory goes in one folder of the run's, on the RAM
// disk where there is one, removed at the end (test/support/run-temp.ts).
useRunTemp();

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/run-temp.ts'],
    // Two and a half workers a core, five on two (vitest caps a percentage at the cores): the suites
    // that run the built action wait on loopback sockets and its real timeouts for most of their
    // time, and the suite is bound by those waits more than by CPU (44-50 s of CPU in a 30 s run on
    // three workers, three files always running). On this machine, idle: 25.3-25.8 s with five or
    // six, 26.3-27.1 s with four, 28-31 s with three; with two `yes` processes keeping both cores
    // busy, 31.4 s with five against 38.4 s with three (BENCHMARKS.md, "The test suite's time").
    maxWorkers: Math.ceil(availableParallelism() * 2.5),
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
