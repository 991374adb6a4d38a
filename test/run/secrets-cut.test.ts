// A secret cut by a bound before it is scrubbed: a text the step shows only in part (a URL it
// refuses, quoted up to 200 characters; GitHub's words, one line of 200) can end inside one of the
// step's secrets. The part left must not reach any channel: the scrubber takes out a secret's
// start that a cut (its `…`) ends. run() in this process against the emulator.
import { afterAll, describe, expect, it } from 'vitest';
import { downloadDir } from '../support/download-world.ts';
import { cleanupRuns, runInProcess, stepIn } from '../support/in-process.ts';
import { channels } from '../support/secrets-census.ts';
import { useWorld } from '../support/world.ts';

afterAll(cleanupRuns);

const w = useWorld({ users: ['alice'] });

/** Every run of 6 characters of the secret: no part of it that says anything may show. */
const pieces = (secret: string): string[] => Array.from({ length: secret.length - 5 }, (_, i) => secret.slice(i, i + 6));

/** A text of `length` characters whose bound at `at` falls in the middle of the secret. */
const straddling = (prefix: string, secret: string, at: number): string =>
  `${prefix}${'p'.repeat(at - prefix.length - Math.floor(secret.length / 2))}${secret} tail`;

const START = { operation: 'start-build', 'pipeline-id': 'p-app', 'poll-interval': '1s', logs: 'none' };

describe("the step's access token where a bound cuts the text", () => {
  it('an artifact link bk-ci gave that is no URL, quoted cut to 200 characters: no part of the token shows', async () => {
    const secret = w.accessToken;
    w.pipeline({ phases: [{ status: 'RUNNING', ms: 500 }], artifacts: [{ path: 'app/App.ipa', size: 1 }] });
    const url = straddling('https://h.example/d?t=', secret, 200);
    w.emu.faults.add({ pattern: /user_download_url$/, fault: { kind: 'patch', data: { url, url2: null } } });
    const r = await runInProcess({
      clock: w.clock,
      inputs: { 'base-url': w.emu.url, 'access-token': secret, 'user-id': 'alice', 'project-id': 'demo', ...START, artifacts: 'true' },
    });
    const shown = await channels(r);
    expect(shown.log).toContain('is left out');
    for (const [channel, text] of Object.entries(shown))
      for (const piece of pieces(secret)) expect(text, `${piece} reached ${channel}`).not.toContain(piece);
  });

  it("a re-sign task's download URL that is no URL, quoted cut to 200 characters in the failure: no part of the token shows", async () => {
    const secret = w.accessToken;
    w.emu.seedSign({ resignId: 's-cut', result: 'SUCCESS' });
    const url = straddling('https://h.example/ipa?t=', secret, 200);
    const body = JSON.stringify({ status: 0, data: url });
    w.emu.faults.add({ pattern: /downloadUrl\/?$/, fault: { kind: 'status', status: 200, contentType: 'json', body } });
    const r = await runInProcess({
      clock: w.clock,
      inputs: {
        'base-url': w.emu.url,
        'access-token': secret,
        'user-id': 'alice',
        operation: 'sign-detail',
        'resign-id': 's-cut',
        'download-url': 'true',
      },
    });
    const shown = await channels(r);
    expect(shown.log).toContain('not an absolute http(s) URL');
    for (const [channel, text] of Object.entries(shown))
      for (const piece of pieces(secret)) expect(text, `${piece} reached ${channel}`).not.toContain(piece);
  });
});

describe('the login ticket where a bound cuts the text', () => {
  it("the artifact store's answer to a download, its body cut to 300 characters: no part of bk-token shows", async () => {
    const secret = w.bkToken;
    w.pipeline({ artifacts: [{ path: 'app/App.ipa', size: 10 }] });
    const id = w.emu.seedBuild({ pipelineId: 'p-app', status: 'SUCCEED' }).id;
    // A store that echoes the cookie it was sent, where its words are cut.
    const body = straddling('refused: ', `bk_token=${secret}`, 300);
    w.emu.faults.add({ pattern: /^\/bkrepo\//, times: Infinity, fault: { kind: 'status', status: 404, contentType: 'text', body } });
    const { dir } = await downloadDir();
    const r = await stepIn(w, { operation: 'download-artifacts' })({ 'build-id': id, 'download-path': dir });
    const shown = await channels(r);
    expect(Object.values(shown).join('\n')).toContain('HTTP 404 (refused: ppp');
    for (const [channel, text] of Object.entries(shown))
      for (const piece of pieces(secret)) expect(text, `${piece} reached ${channel}`).not.toContain(piece);
  });
});

describe('the access token the token endpoint issues, in an answer that is not JSON', () => {
  // The token is masked once it is read; an answer cut on its way (a proxy, a gateway) cannot be
  // read, and the token in it is known to no scrub: the body is not quoted.
  it.each([
    ['cut after the token', (t: string) => `{"status":0,"data":{"userId":"alice","accessToken":"${t}","expirationTime":17`],
    ['cut inside the token', (t: string) => `{"status":0,"data":{"userId":"alice","accessToken":"${t}`],
    ['broken after the token', (t: string) => `{"status":0,"data":{"accessToken":"${t}" "userId":"alice"}}`],
  ])('%s: no part of the token shows', async (_, body) => {
    const secret = w.accessToken;
    w.emu.faults.add({
      pattern: /token\/get$/,
      times: Infinity,
      fault: { kind: 'status', status: 200, contentType: 'json', body: body(secret) },
    });
    const r = await runInProcess({
      clock: w.clock,
      inputs: { 'base-url': w.emu.url, 'bk-token': w.bkToken, 'project-id': 'demo', operation: 'get-project', retries: '0' },
    });
    const shown = await channels(r);
    expect(shown.log).toContain('not valid JSON');
    for (const [channel, text] of Object.entries(shown))
      for (const piece of pieces(secret)) expect(text, `${piece} reached ${channel}`).not.toContain(piece);
  });
});
