import { defineConfig } from 'vitest/config';

// The suites Stryker runs against each mutant: unit tests and every suite that calls run() in this
// process (test/run/). Suites that start the built dist/index.js run unmutated code and would only
// slow it.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/run/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
