import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One worker per core: most suites wait on loopback sockets and child processes, and vitest's
    // default (cores - 1) runs them one after another on a 2-core runner.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The JSON report is what .ci/run counts; the default reporter is for people.
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
