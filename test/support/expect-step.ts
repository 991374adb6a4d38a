import { type ExpectStatic, expect as globalExpect } from 'vitest';
import type { StepResult } from './dist-runner.ts';

/**
 * The step failed as a step should: exit code 1, one error annotation saying `message`, no stack
 * trace. Concurrent tests pass their own test context's `expect`.
 */
export function failedWith(r: StepResult, message: RegExp, expect: ExpectStatic = globalExpect): void {
  expect(r.code, r.stdout).toBe(1);
  expect(r.errors).toHaveLength(1);
  expect(r.errors[0]).toMatch(message);
  expect(r.stdout + r.stderr).not.toMatch(/\n\s+at .*\.js:\d+/);
}
