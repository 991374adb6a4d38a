// The built action (dist/ without node_modules) shows a build as a runner would run it: its log
// live in groups, log-file, variables masked, artifacts with links. Behaviour is tested
// in-process (build-logs, build-outputs, review-build); this is the one run through dist/, for
// what only the process shows: the runner's files and the masks and groups on its real stdout.
// The build ends before the step's second poll (a second after the first): one wait, not two.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStep, useInstalledAction } from '../support/dist-runner.ts';
import { worldForTest } from '../support/world.ts';

const action = useInstalledAction({ beforeAll, afterAll });

describe('the built action shows the build', () => {
  it('start-build: live log, log-file, variables and artifacts', async (test) => {
    const w = await worldForTest({ realTime: true }, test);
    w.pipeline({
      phases: [{ status: 'RUNNING', ms: 800 }],
      logs: {
        steps: [{ tag: 'e-pack', jobId: 'build', stepId: 'pack', containerHashId: 'c-1' }],
        lines: [
          { at: 100, step: 'e-pack', text: 'packing' },
          { at: 100, step: 'e-pack', text: '::error::not a command' },
        ],
      },
      variables: {
        APP_VERSION: '1.10.0',
        SIGNING_PASSWORD: 'pa55-w0rd-value',
        RELEASE: 'shop-web',
        NOTE: 'shop-web built',
        DRY_RUN: 'false',
      },
      passwords: ['SIGNING_PASSWORD'],
      artifacts: [{ path: 'app/App.ipa', size: 1024 }],
    });
    const r = await runStep(action(), {
      inputs: {
        operation: 'start-build',
        ...w.connection(),
        'pipeline-id': 'p-app',
        'poll-interval': '1s',
        variables: 'APP_VERSION, SIGNING_PASSWORD, RELEASE, NOTE, DRY_RUN',
        'mask-variables': 'RELEASE\nDRY_RUN',
        artifacts: 'true',
      },
    });
    expect(r.errors).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^::group::build › pack\npacking\n:\u200b:error::not a command\n::endgroup::$/m);
    expect((await readFile(r.outputs['log-file'] ?? '', 'utf8')).split('\n')).toEqual([
      '[build › pack] packing',
      '[build › pack] ::error::not a command',
      '',
    ]);
    // Masked for the log (the password parameter, the listed name), never rewritten in the outputs.
    expect(JSON.parse(r.outputs.variables ?? '')).toEqual({
      APP_VERSION: '1.10.0',
      SIGNING_PASSWORD: 'pa55-w0rd-value',
      RELEASE: 'shop-web',
      NOTE: 'shop-web built',
      DRY_RUN: 'false',
    });
    const masks = [...r.stdout.matchAll(/^::add-mask::(.*)$/gm)].map((m) => m[1]);
    expect(masks).toEqual(expect.arrayContaining(['pa55-w0rd-value', 'shop-web']));
    expect(masks).not.toContain('1.10.0');
    expect(masks).not.toContain('false');
    expect(r.stdout).toMatch(/^::warning::the value of DRY_RUN \(a common word\) is not masked/m);
    expect(JSON.parse(r.outputs.data ?? '')).toMatchObject({ status: 'SUCCEED' });
    expect(r.summary).not.toContain('pa55-w0rd-value');
    // The artifact's link passed the one URL check: a link (GFM autolink) to bk-ci's target.
    expect(r.summary).toMatch(/\| <http:\/\/127\.0\.0\.1:\d+\/bkrepo\/api\/user\/generic\/[^>|\s]+> \|/);
    expect(JSON.parse(r.outputs.artifacts ?? '')).toEqual([
      expect.objectContaining({
        name: 'App.ipa',
        size: 1024,
        type: 'PIPELINE',
        url: expect.stringContaining('/bkrepo/api/user/generic/'),
      }),
    ]);
  }, 30_000);
});
