// A step whose operation never settles, with nothing left for Node to wait on: Node ends such a
// process with exit code 0 whatever run() was doing, so the step must fail on its way out.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/dist-runner.ts';

describe('run() in a process of its own', () => {
  it('fails the step when the process would end before the operation finished', async () => {
    // A transport whose answer never comes and which holds nothing open: the loop empties.
    const script = `
      import { run } from ${JSON.stringify(join(ROOT, 'src', 'main.ts'))};
      const inputs = { operation: 'get-project', 'project-id': 'demo', 'base-url': 'http://127.0.0.1:9', 'access-token': 't', 'user-id': 'u' };
      void run({ transport: () => new Promise(() => {}), getInput: (name) => inputs[name] ?? '', env: {} });
    `;
    const result = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (e: { code?: number; stdout?: string }) => ({ code: e.code, stdout: e.stdout ?? '' }),
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^::error::bk-ci get-project failed: the action stopped before its operation finished, with nothing left to wait for\. This is a bug in the action; a request it sent may have been applied\.$/m,
    );
  });
});
