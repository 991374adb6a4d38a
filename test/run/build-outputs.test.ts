// A build's variables and artifacts as outputs for later steps: read once the build ended,
// variables masked before anything prints them, artifacts paged until a short page (bk-repo says
// totalPages: 1 whatever the count) with a link each. run() in this process against the emulator.
import { afterAll, describe, expect, it } from 'vitest';
import { type StepResult, unescapeData } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { cleanupRuns, stepIn } from '../support/in-process.ts';
import { type PipelineSeed as Seed, useWorld } from '../support/world.ts';

afterAll(cleanupRuns);

const w = useWorld();

/** The step's `::warning::` lines, unescaped. */
const warningsOf = (r: StepResult): string[] => [...r.stdout.matchAll(/^::warning::(.*)$/gm)].map((m) => unescapeData(m[1] ?? ''));

const pipeline = (seed: Seed) => w.pipeline({ phases: [{ status: 'RUNNING', ms: 3000 }], ...seed });
const start = stepIn(w, { operation: 'start-build', 'pipeline-id': 'p-app', 'poll-interval': '1s', retries: '0', logs: 'none' });

describe('variables', () => {
  const SECRET = 'dep-s3cr3t-token-value';
  const seed: Seed = {
    variables: { DEPLOY_TOKEN: SECRET, 'jobs.build.steps.pack.outputs.VERSION': { value: '1.10', at: 2000 } },
    logs: {
      steps: [{ tag: 'e-pack', jobId: 'build', stepId: 'pack', containerHashId: 'c-1' }],
      lines: [{ at: 2500, step: 'e-pack', text: `uploading with ${SECRET}` }],
    },
  };

  it('names read once the build ended: a JSON object of the values as they are; a password parameter masked before anything shows it; the summary names them only', async () => {
    pipeline({ ...seed, passwords: ['DEPLOY_TOKEN'] });
    const r = await start({ variables: 'DEPLOY_TOKEN, jobs.build.steps.pack.outputs.VERSION\nNOT_SET\nDEPLOY_TOKEN' });
    expect(r.errors).toEqual([]);
    expect(JSON.parse(r.outputs.variables ?? '')).toEqual({
      DEPLOY_TOKEN: SECRET,
      'jobs.build.steps.pack.outputs.VERSION': '1.10',
      NOT_SET: '',
    });
    expect(JSON.parse(w.emu.requests({ path: '/build_variables' })[0]?.body ?? '')).toEqual([
      'DEPLOY_TOKEN',
      'jobs.build.steps.pack.outputs.VERSION',
      'NOT_SET',
    ]);
    // Masked with the runner, and nowhere else in what the step shows; 1.10 is no secret.
    expect(r.stdout).toContain(`::add-mask::${SECRET}`);
    expect(r.stdout).not.toMatch(/^::add-mask::1\.10$/m);
    expect(r.summary).toMatch(/\| Variables \| DEPLOY_TOKEN, jobs\.build\.steps\.pack\.outputs\.VERSION, NOT_SET \|/);
    expect(r.summary).not.toContain(SECRET);
    expect(r.outputs.data).not.toContain(SECRET);
  });

  it('read after a failed build too; a read that fails fails the step, the build named', async () => {
    pipeline({ ...seed, result: 'FAILED' });
    const failed = await start({ variables: 'DEPLOY_TOKEN' });
    failedWith(failed, /ended FAILED/);
    expect(JSON.parse(failed.outputs.variables ?? '{}')).toEqual({ DEPLOY_TOKEN: SECRET });
    pipeline(seed);
    w.emu.faults.add({ pattern: /build_variables$/, fault: { kind: 'status', status: 503 } });
    const r = await start({ variables: 'DEPLOY_TOKEN' });
    failedWith(
      r,
      /^bk-ci start-build failed: build #2 \(b-\w+\) ended SUCCEED, but reading the build's variables \(DEPLOY_TOKEN\) failed: .*503/,
    );
    expect(r.outputs['build-status']).toBe('SUCCEED');
  });

  it("the build's own ids asked as variables are not masked: build-id and build-num stay outputs", async () => {
    pipeline(seed);
    const r = await start({ variables: 'BK_CI_BUILD_ID, BK_CI_PIPELINE_ID' });
    expect(r.errors).toEqual([]);
    expect(r.outputs['build-id']).toMatch(/^b-\w+$/);
    expect(JSON.parse(r.outputs.variables ?? '')).toEqual({ BK_CI_BUILD_ID: r.outputs['build-id'], BK_CI_PIPELINE_ID: 'p-app' });
    expect(r.stdout).not.toContain(`::add-mask::${r.outputs['build-id']}`);
  });

  it("a value listed in mask-variables that is also a word of the action's own outputs (success) is masked, and conclusion still reads success", async () => {
    pipeline({ variables: { DEPLOY_RESULT: 'success', STAGE: 'SUCCEED' } });
    const r = await start({ variables: 'DEPLOY_RESULT, STAGE', 'mask-variables': 'DEPLOY_RESULT' });
    expect(r.errors).toEqual([]);
    expect(r.stdout).toMatch(/^::add-mask::success$/m);
    expect(r.stdout).not.toMatch(/^::add-mask::SUCCEED$/m);
    expect(r.outputs).toMatchObject({ conclusion: 'success', 'build-status': 'SUCCEED' });
    expect(JSON.parse(r.outputs.variables ?? '')).toEqual({ DEPLOY_RESULT: 'success', STAGE: 'SUCCEED' });
  });

  it('masking is not rewriting: with every value masked (*), each output keeps every value, data stays JSON; values too common to mask are not, with a warning', async () => {
    const variables = { SKIP_TESTS: 'false', DRY_RUN: 'false', APP_NAME: 'shop-web', TAG: 'shop-web-v2', RESULT: 'SUCCEED', RETRY: '1' };
    pipeline({ variables });
    const r = await start({ variables: Object.keys(variables).join(','), 'mask-variables': '*' });
    expect(r.errors).toEqual([]);
    expect(JSON.parse(r.outputs.variables ?? '')).toEqual(variables);
    // data is the build's status: the masked SUCCEED stays in it, and it stays JSON.
    expect(JSON.parse(r.outputs.data ?? '')).toMatchObject({ status: 'SUCCEED' });
    expect(r.outputs['build-status']).toBe('SUCCEED');
    const masks = [...r.stdout.matchAll(/^::add-mask::(.*)$/gm)].map((m) => m[1]);
    expect(masks).toEqual(expect.arrayContaining(['shop-web', 'shop-web-v2', 'SUCCEED']));
    expect(masks).not.toContain('false');
    expect(masks).not.toContain('1');
    expect(warningsOf(r).join('\n')).toMatch(
      /the value of SKIP_TESTS \(a common word\), DRY_RUN \(a common word\), RETRY \(shorter than 4 characters\) is not masked/,
    );
    expect(warningsOf(r).join('\n')).not.toMatch(/false/);
  });

  it("not asked for, only a credential-shaped value is masked; the step's own token echoed by the build is taken out of the output, which stays JSON", async () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    const key = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
    pipeline({ variables: { JWT: jwt, KEY: key, NOTES: 'https://h.example/notes/2.3.4', ECHO: `cookie=${w.bkToken}"x` } });
    const r = await start({ variables: 'JWT, KEY, NOTES, ECHO' });
    expect(r.errors).toEqual([]);
    const masks = [...r.stdout.matchAll(/^::add-mask::(.*)$/gm)].map((m) => m[1]);
    expect(masks).toEqual(expect.arrayContaining([jwt, key]));
    expect(masks).not.toContain('https://h.example/notes/2.3.4');
    expect(JSON.parse(r.outputs.variables ?? '')).toEqual({
      JWT: jwt,
      KEY: key,
      NOTES: 'https://h.example/notes/2.3.4',
      ECHO: 'cookie=***"x',
    });
    expect(warningsOf(r)).toEqual([]);
  });

  it('one large variable is left out by name; the small ones beside it are kept', async () => {
    const notes = 'n'.repeat(70 * 1024);
    pipeline({ variables: { VERSION: '2.3.4', RELEASE_NOTES: notes, TAG: 'v2.3.4' } });
    const r = await start({ variables: 'VERSION, RELEASE_NOTES, TAG' });
    expect(r.errors).toEqual([]);
    expect(JSON.parse(r.outputs.variables ?? '')).toEqual({ VERSION: '2.3.4', TAG: 'v2.3.4' });
    expect(warningsOf(r)).toContain(
      'the variables output leaves out 1 of its 3 entries, the largest, to stay within 64 KiB: RELEASE_NOTES (70 KiB); the other 2 are kept',
    );
  });

  it('no variables asked: none read', async () => {
    pipeline(seed);
    await start();
    expect(w.emu.requests({ path: '/build_variables' })).toHaveLength(0);
  });

  it.each([
    [Array.from({ length: 51 }, (_, i) => `V${i}`).join(','), /variables names 51 variables; bk-ci reads at most 50/],
    ['A B', /variables: "A B" is not a variable name/],
  ])('refuses %j before any request', async (variables, message) => {
    pipeline(seed);
    failedWith(await start({ variables }), message);
    expect(w.emu.requests({ method: 'POST' })).toHaveLength(0);
  });
});

describe('artifacts', () => {
  const files = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ path: `app/file-${String(i).padStart(3, '0')}.bin`, size: 1000 + i }));

  it('every file, page after page until a short one (bk-repo says totalPages: 1), each with its link; a table of links in the summary', async () => {
    pipeline({ artifacts: [...files(149), { path: 'reports/cov.html', type: 'CUSTOM_DIR', size: 2048 }] });
    const r = await start({ artifacts: 'true' });
    expect(r.errors).toEqual([]);
    const list = JSON.parse(r.outputs.artifacts ?? '[]') as { name: string; path: string; size: number; type: string; url: string }[];
    expect(list).toHaveLength(150);
    expect(list[0]).toEqual({
      name: 'file-000.bin',
      path: expect.stringMatching(/^\/p-app\/b-\w+\/app\/file-000\.bin$/),
      size: 1000,
      type: 'PIPELINE',
      url: expect.stringMatching(new RegExp(`^${w.emu.url}/bkrepo/api/user/generic/`)),
    });
    expect(list.find((f) => f.type === 'CUSTOM_DIR')).toMatchObject({ name: 'cov.html', path: '/reports/cov.html', size: 2048 });
    expect(new Set(list.map((f) => f.url)).size).toBe(150);
    const pages = w.emu.requests({ path: '/artifactories/file_info' }).map((q) => new URLSearchParams(q.query).get('page'));
    expect(pages).toEqual(['1', '2']);
    expect(r.summary).toContain('#### Artifacts (150)');
    // A link bk-ci gives that passes the one URL check is a link (GFM autolink) to its target.
    expect(r.summary).toContain(`| <${new URL(list[0]?.url ?? '').href}> |`);
  });

  it('a link bk-ci hands back that is not an absolute http(s) URL on one line is left out, with one warning; never a link in the summary', async () => {
    pipeline({ artifacts: files(5) });
    const hostile = ['javascript:alert(1)', 'file:///etc/passwd', '/bkrepo/api/relative', 'https://h.example/a\nb', 'http:evil.example'];
    for (const url of hostile)
      w.emu.faults.add({ times: 1, pattern: /user_download_url$/, fault: { kind: 'patch', data: { url, url2: url } } });
    const r = await start({ artifacts: 'true' });
    expect(r.errors).toEqual([]);
    const list = JSON.parse(r.outputs.artifacts ?? '') as { url: string }[];
    expect(list.map((f) => f.url)).toEqual(['', '', '', '', '']);
    const warned = warningsOf(r).filter((w) => w.includes('artifact links'));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/not absolute http\(s\) URLs; their url is empty/);
    expect(r.summary).not.toMatch(/javascript:|file:\/\/\//);
  });

  it('so many that the output would pass its bound: the first whole entries, valid JSON, with a warning', async () => {
    pipeline({ artifacts: files(400).map((f) => ({ ...f, path: `${'deep/'.repeat(20)}${f.path}` })) });
    const r = await start({ artifacts: 'true' });
    expect(r.errors).toEqual([]);
    const list = JSON.parse(r.outputs.artifacts ?? '') as unknown[];
    expect(list.length).toBeGreaterThan(50);
    expect(list.length).toBeLessThan(400);
    // Of entries the same size, the first are kept; every one left out is counted, the first named.
    expect(Buffer.byteLength(r.outputs.artifacts ?? '')).toBeLessThanOrEqual(64 * 1024);
    expect(warningsOf(r).join('\n')).toMatch(
      new RegExp(
        `^the artifacts output leaves out ${400 - list.length} of its 400 entries, the largest, to stay within 64 KiB: /p-app/b-0+…(ep/)?(deep/)+app/file-\\d{3}\\.bin \\(504 B\\), `,
        'm',
      ),
    );
  });

  it('one file with a path too long for the output is left out by its path; every other file is kept', async () => {
    const long = `deep/${'d'.repeat(70 * 1024)}.bin`;
    pipeline({ artifacts: [...files(3), { path: long, size: 1 }] });
    const r = await start({ artifacts: 'true' });
    expect(r.errors).toEqual([]);
    const list = JSON.parse(r.outputs.artifacts ?? '') as { name: string }[];
    expect(list.map((f) => f.name)).toEqual(['file-000.bin', 'file-001.bin', 'file-002.bin']);
    expect(warningsOf(r).join('\n')).toMatch(
      /^the artifacts output leaves out 1 of its 4 entries, the largest, to stay within 64 KiB: \/p-app\/b-0+…d+\.bin \(\d+ KiB\); the other 3 are kept$/m,
    );
    // The summary still lists it.
    expect(r.summary).toContain('#### Artifacts (4)');
  });

  it('a build with none: an empty list', async () => {
    pipeline({});
    const r = await start({ artifacts: 'true' });
    expect(r.outputs.artifacts).toBe('[]');
    expect(r.summary).toContain('The build has no artifacts.');
  });

  it('a failure to list them is a warning; the build decides', async () => {
    pipeline({ artifacts: files(2) });
    w.emu.faults.add({ pattern: /file_info$/, fault: { kind: 'status', status: 500 } });
    const r = await start({ artifacts: 'true' });
    expect(r.errors).toEqual([]);
    expect(r.stdout).toMatch(/^::warning::the build's artifacts could not be listed: .*500/m);
    expect(r.outputs.artifacts).toBeUndefined();
  });

  it('a link that cannot be had: its url empty, one warning', async () => {
    pipeline({ artifacts: files(3) });
    w.emu.faults.add({ pattern: /user_download_url$/, times: 2, fault: { kind: 'status', status: 500 } });
    const r = await start({ artifacts: 'true' });
    expect(r.errors).toEqual([]);
    const list = JSON.parse(r.outputs.artifacts ?? '[]') as { url: string }[];
    expect(list.filter((f) => f.url === '')).toHaveLength(2);
    expect(r.stdout.match(/^::warning::the link of some artifacts could not be read/gm)).toHaveLength(1);
  });
});
