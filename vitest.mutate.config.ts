import { defineConfig } from 'vitest/config';

// The suites Stryker runs against each mutant: unit tests and the suites that call run() in this
// process. Suites that start the built dist/index.js run unmutated code and would only slow it.
export default defineConfig({
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/run/callbacks.test.ts',
      'test/run/secrets.test.ts',
      'test/run/build-outputs.test.ts',
      'test/run/run.test.ts',
      'test/run/list-stream.test.ts',
      'test/run/retry-faults.test.ts',
      'test/run/hostile-world.test.ts',
      'test/run/build-start-once.test.ts',
      'test/run/build-ends.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
