import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeTransport } from '../../src/http/node-transport.ts';
import type { Transport } from '../../src/http/transport.ts';
import { type StepResult, unescapeData } from '../support/dist-runner.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { worldForTest } from '../support/world.ts';

// run() in-process: the same code as dist/ (hostile-property.test.ts sweeps the built action).
afterAll(cleanupRuns);

const SECRET_TOKEN = 'cb-secret-Zq8+/x=';

/** Everything a step shows: its log (mask commands aside), summary, outputs and data file. */
async function shown(r: StepResult, operation: string): Promise<string> {
  const outputs = { ...r.outputs };
  if (operation === 'get-token') delete outputs['access-token'];
  const dataFile = r.outputs['data-file'] ? await readFile(r.outputs['data-file'], 'utf8') : '';
  // Workflow-command data is %-escaped on stdout (%2B shows as %252B): unescape before looking.
  const log = unescapeData(r.stdout.replace(/^::add-mask::.*$/gm, ''));
  return [log, r.stderr, r.summary, JSON.stringify(outputs), dataFile].join('\n');
}

const OPERATIONS: [string, Record<string, string>][] = [
  ['get-token', {}],
  // A failing poll does not end a wait: the timeout does.
  ['sign-detail', { 'resign-id': 's-ok', 'download-url': 'true', timeout: '2s', 'poll-interval': '1s' }],
  ['sign-detail', { 'resign-id': 's-fail', timeout: '2s', 'poll-interval': '1s' }],
  ['get-project', { 'project-id': 'demo' }],
  ['get-project', { 'project-id': 'ghost' }],
  ['list-projects', {}],
  ['create-project', { project: '{"englishName":"made","projectName":"Made"}' }],
  ['create-project', { project: '{"englishName":"demo","projectName":"Demo"}' }],
  ['update-project', { 'project-id': 'demo', project: 'description: x' }],
  ['create-callbacks', { 'project-id': 'demo', 'callback-url': 'https://h.example/cb', region: 'DEVNET', events: 'BUILD_END' }],
  [
    'create-callbacks',
    { 'project-id': 'demo', 'callback-url': `https://h.example/${'x'.repeat(260)}`, region: 'DEVNET', events: 'BUILD_END' },
  ],
  ['create-callbacks', { 'project-id': 'demo', 'callback-url': 'https://h.example/cb', region: 'DEVNET', events: 'NOT_AN_EVENT' }],
  ['request', { path: 'v3/projects/demo' }],
  [
    'request',
    { method: 'POST', path: 'v3/projects/demo/callbacks/batch', query: 'url: https://h.example/cb\nregion: OSS\nevent: BUILD_END' },
  ],
  ['start-build', { 'project-id': 'demo', 'pipeline-id': 'p-app', 'build-params': 'TOKEN_ECHO: x', timeout: '2s', 'poll-interval': '1s' }],
  ['build-status', { 'project-id': 'demo', 'build-id': 'b-nope' }],
  // The build's files: the login ticket travels as a cookie, with bk-token; without it one bare try.
  ['start-build', { 'project-id': 'demo', 'pipeline-id': 'p-app', download: '**', timeout: '10s', 'poll-interval': '1s' }],
  ['download-artifacts', { 'project-id': 'demo', 'build-id': 'b-nope' }],
];

describe.each(['bkci', 'spec'] as const)('no secret is shown, %s flavour', (flavour) => {
  it.each(OPERATIONS)('%s %j', async (operation, inputs) => {
    // The step and the emulator share a clock: the re-sign waits take no real time.
    const { emu, clock, bkToken, accessToken } = await worldForTest({ flavour });
    emu.seedSign({ resignId: 's-ok' });
    emu.seedSign({ resignId: 's-fail', result: 'FAIL', failMessage: 'nope' });
    emu.seedPipeline({ projectId: 'demo', pipelineId: 'p-app', artifacts: [{ path: 'app/App.ipa', size: 5000 }] });
    // Once with bk-token (issued tokens), once with access-token; then a server error on every call.
    const runs: Record<string, string>[] = [{ 'bk-token': bkToken }];
    if (operation !== 'get-token') runs.push({ 'access-token': accessToken, 'user-id': 'alice' });
    for (const [i, auth] of runs.entries()) {
      if (i === 1)
        emu.faults.add({
          times: Infinity,
          pattern: /\/ms\/openapi\//,
          fault: { kind: 'status', status: 500, contentType: 'text', body: `upstream said ${accessToken}` },
        });
      const r = await runInProcess({
        clock,
        inputs: { operation, 'base-url': emu.url, 'secret-token': SECRET_TOKEN, retries: '0', ...auth, ...inputs },
      });
      const issued = emu
        .requests()
        .map((q) => new URLSearchParams(q.query).get('access_token') ?? '')
        .filter((t) => t !== '');
      const secrets = new Set([bkToken, accessToken, SECRET_TOKEN, ...issued, ...issued.map((t) => encodeURIComponent(t))]);
      const text = await shown(r, operation);
      for (const secret of secrets) expect(text, `${operation} leaked ${secret}`).not.toContain(secret);
      // Every secret input is masked, before the first line that is not a mask.
      const lines = r.stdout.split('\n');
      const firstOther = lines.findIndex((l) => !l.startsWith('::add-mask::'));
      const earlyMasks = lines.slice(0, firstOther).map((l) => unescapeData(l.slice('::add-mask::'.length)));
      for (const secret of [
        SECRET_TOKEN,
        ...Object.entries(auth)
          .filter(([k]) => k !== 'user-id')
          .map(([, v]) => v),
      ])
        expect(earlyMasks).toContain(secret);
    }
  });
});

describe('what other code writes, in pieces', () => {
  it('a secret cut between two writes to a stream never reaches the runner whole, and the rest of the text does', async () => {
    const { emu, clock, accessToken } = await worldForTest();
    const cut = Math.floor(accessToken.length / 2);
    const http = nodeTransport({ keepAliveMs: 1000 });
    // A library that logs each request it sends, in two writes (as a stream piped in chunks would).
    const chatty: Transport = (req) => {
      process.stderr.write(`debug: sending ${accessToken.slice(0, cut)}`);
      process.stderr.write(`${accessToken.slice(cut)} now\n`);
      process.stdout.write(`progress: ${accessToken.slice(0, cut)}`);
      process.stdout.write(`${accessToken.slice(cut)}`);
      return http.transport(req);
    };
    try {
      const r = await runInProcess({
        clock,
        transport: chatty,
        inputs: { operation: 'get-project', 'base-url': emu.url, 'access-token': accessToken, 'user-id': 'alice', 'project-id': 'demo' },
      });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      // The runner reads each stream as one text, the writes joined.
      expect(r.stderr).toContain('debug: sending *** now\n');
      expect(r.stderr).not.toContain(accessToken);
      expect(r.stdout).toContain('progress: ***');
      expect(r.stdout.replace(/^::add-mask::.*$/gm, '')).not.toContain(accessToken);
    } finally {
      http.close();
    }
  });
});
