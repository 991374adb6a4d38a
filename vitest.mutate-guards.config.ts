import { defineConfig } from 'vitest/config';

// A quick Stryker run over the output guards (stryker.guards.config.json): their unit tests and
// the in-process sweep that no secret is shown by any operation (test/run/secrets.test.ts), and
// the values a step outputs, bounded and as they were (test/run/step-values.test.ts). The text
// sent to GitHub and the check run's state are killed by their unit tests (test/unit/github-*).
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/run/secrets.test.ts', 'test/run/step-values.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
