import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// Node's compile cache for every process of the suite that inherits this environment: the workers,
// and the local loop's scripts the tests start (scripts/demo.ts, emulator/cli.ts), which Node
// otherwise strips of their types and compiles again in every process (half of such a process's
// CPU). Entries are checked against the source's hash, so an edited file is compiled afresh. The
// built action runs without it, in the runner's clean environment (test/support/dist-runner.ts).
process.env.NODE_COMPILE_CACHE ??= resolve(import.meta.dirname, 'node_modules/.cache/bkci-node-compile');

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One worker per core: most suites wait on loopback sockets and child processes, and vitest's
    // default (cores - 1) runs them one after another on a 2-core runner. A third worker made the
    // whole run shorter but each test slower, and on a loaded machine tests that run the built
    // action a dozen times passed their timeouts (BENCHMARKS.md, "The test suite's time").
    maxWorkers: 2,
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
