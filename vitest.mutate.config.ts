import { defineConfig } from 'vitest/config';

// The suites Stryker runs against each mutant: unit tests and the suites that call run() in this
// process. Suites that start the built dist/index.js run unmutated code and would only slow it.
export default defineConfig({
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/callbacks.test.ts',
      'test/secrets.test.ts',
      'test/build-outputs.test.ts',
      'test/run.test.ts',
      'test/list-stream.test.ts',
      'test/retry-faults.test.ts',
      'test/hostile-world.test.ts',
      'test/build-start-once.test.ts',
      'test/build-ends.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
