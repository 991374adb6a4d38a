// What a step outputs and says when values are odd: run() in this process on the emulator, on the
// clock the step and the emulator share. A job summary that cannot be written never fails work
// that was done, JSON too deep is said so, a build value is output as it is and bounded, and a
// link bk-ci hands back that is not http(s) is never a link.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, unescapeData } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { useWorld } from '../support/world.ts';

afterAll(cleanupRuns);

const w = useWorld();

const warningsOf = (stdout: string): string[] => [...stdout.matchAll(/^::warning::(.*)$/gm)].map((m) => unescapeData(m[1] ?? ''));

describe('odd values, the step', () => {
  it('a job summary that cannot be written is a warning when the work was done: the project is created, the step passes', async () => {
    const r = await runInProcess({
      inputs: {
        operation: 'create-project',
        'base-url': w.emu.url,
        'bk-token': w.bkToken,
        project: '{"englishName":"made","projectName":"Made"}',
      },
      clock: w.clock,
      // A path under a file: no summary can be appended there.
      processEnv: { GITHUB_STEP_SUMMARY: join(ROOT, 'action.yml', 'summary') },
    });
    expect(r.errors).toEqual([]);
    expect(r.code).toBe(0);
    expect(warningsOf(r.stdout).join('\n')).toMatch(/^the job summary could not be written: /m);
    expect(JSON.parse(r.outputs.data ?? '')).toMatchObject({ englishName: 'made' });
  });

  it('an answer nested deeper than the action reads is "too deep", with the limit, not "invalid JSON"', async () => {
    const deep = `{"status":0,"data":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    w.emu.faults.add({ pattern: /\/projects\/demo$/, fault: { kind: 'status', status: 200, contentType: 'json', body: deep } });
    const r = await runInProcess({ inputs: { operation: 'get-project', ...w.connection(), retries: '0' }, clock: w.clock });
    failedWith(r, /JSON too deep: its arrays and objects nest more than 512 levels, the most the action reads/);
    expect(r.errors.join('\n')).not.toMatch(/not valid JSON|invalid JSON/i);
  });

  it('a build value is output as it is and bounded; a link bk-ci hands back that is not http(s) is left out, never a link', async () => {
    const big = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`V${i}`, `value-${i}-${'x'.repeat(2000)}`]));
    w.pipeline({
      phases: [{ status: 'RUNNING', ms: 500 }],
      variables: { ...big, TAG: 'v2.3.4', APP_VERSION: '2.3.4' },
      artifacts: [{ path: 'app/App.ipa', size: 1024 }],
    });
    w.emu.faults.add({
      pattern: /user_download_url$/,
      fault: { kind: 'patch', data: { url: 'data:text/html,<script>x</script>', url2: 'data:x' } },
    });
    const r = await runInProcess({
      inputs: {
        operation: 'start-build',
        ...w.connection(),
        'pipeline-id': 'p-app',
        'poll-interval': '1s',
        logs: 'none',
        variables: ['TAG', 'APP_VERSION', ...Object.keys(big)].join(','),
        'mask-variables': '*',
        artifacts: 'true',
      },
      clock: w.clock,
    });
    expect(r.errors).toEqual([]);
    const variables = JSON.parse(r.outputs.variables ?? '') as Record<string, string>;
    expect(Buffer.byteLength(r.outputs.variables ?? '')).toBeLessThanOrEqual(64 * 1024);
    expect(variables).toMatchObject({ TAG: 'v2.3.4', APP_VERSION: '2.3.4', V0: big.V0 });
    const n = Object.keys(variables).length;
    expect(n).toBeLessThan(42);
    const warnings = warningsOf(r.stdout).join('\n');
    // The largest go: V10 to V39 are a digit longer than V0 to V9; the small ones all stay.
    expect(warnings).toMatch(
      new RegExp(`the variables output leaves out ${42 - n} of its 42 entries, the largest, to stay within 64 KiB: V\\d\\d \\(2 KiB\\)`),
    );
    expect(warnings).toMatch(/APP_VERSION \(a short number\) is not masked/);
    expect(JSON.parse(r.outputs.artifacts ?? '')).toEqual([expect.objectContaining({ name: 'App.ipa', url: '' })]);
    expect(warnings).toMatch(/some artifact links bk-ci gave are not absolute http\(s\) URLs; their url is empty/);
    expect(r.summary).not.toContain('data:text/html');
  });
});
