// Prints "N passed, N failed[, N skipped]" from vitest's JSON report.
import { readFileSync } from 'node:fs';

let report;
try {
  report = JSON.parse(readFileSync(process.argv[2] ?? 'test-results.json', 'utf8'));
} catch {
  // No report: the build or bundle failed before any test ran.
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
// A test file that failed to load has no test results of its own: count it as one failure.
const brokenFiles = (report.testResults ?? []).filter((f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0).length;
const failed = (report.numFailedTests ?? 0) + brokenFiles;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (passed === 0) process.exit(1);
