// The emulator's GitHub side answers as GitHub does, and checks bodies by GitHub's own description.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitHubEmulator, startGitHub } from '../../emulator/github.ts';
import { ROOT } from '../support/dist-runner.ts';

let gh: GitHubEmulator;
const SHA = 'a'.repeat(40);
beforeAll(async () => {
  gh = await startGitHub();
  gh.addToken('ghs_write');
  gh.addToken('ghs_read', 'read');
});
afterAll(() => gh.close());

async function call(method: string, path: string, body?: unknown, token: string | null = 'ghs_write') {
  const res = await fetch(`${gh.url}${path}`, {
    method,
    headers: { ...(token === null ? {} : { authorization: `token ${token}` }), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : text };
}

describe("the emulator's GitHub side", () => {
  it('creates, updates, reads and lists check runs on a commit', async () => {
    const created = await call('POST', '/repos/o/r/check-runs', {
      name: 'bk-ci p-1',
      head_sha: SHA,
      status: 'in_progress',
      external_id: 'b-1',
      details_url: 'https://devops.example.com/x',
      output: { title: 'running', summary: 'stage 1' },
    });
    expect(created.status).toBe(201);
    const run = created.body as { id: number; html_url: string; status: string };
    expect(run.status).toBe('in_progress');
    expect(run.html_url).toBe(`${gh.url}/o/r/runs/${run.id}`);
    const done = await call('PATCH', `/repos/o/r/check-runs/${run.id}`, {
      conclusion: 'success',
      output: { title: 'ok', summary: 'done' },
    });
    expect(done.body).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect((await call('GET', `/repos/o/r/check-runs/${run.id}`)).body).toMatchObject({ id: run.id, external_id: 'b-1' });
    const listed = await call('GET', `/repos/o/r/commits/${SHA}/check-runs?check_name=${encodeURIComponent('bk-ci p-1')}`);
    expect(listed.body).toMatchObject({ total_count: 1, check_runs: [{ id: run.id }] });
    expect((await call('GET', `/repos/o/r/commits/${SHA}/check-runs?check_name=other`)).body).toMatchObject({ total_count: 0 });
    expect(created.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  });

  it("refuses with 422 what GitHub's OpenAPI description refuses", async () => {
    const cases: unknown[] = [
      { head_sha: SHA },
      { name: 'x', head_sha: SHA, status: 'done' },
      { name: 'x', head_sha: SHA, conclusion: 'passed' },
      { name: 'x', head_sha: SHA, output: { title: 't', summary: 'x'.repeat(65536) } },
      {
        name: 'x',
        head_sha: SHA,
        output: {
          title: 't',
          summary: 's',
          annotations: Array(51).fill({ path: 'a', start_line: 1, end_line: 1, annotation_level: 'failure', message: 'm' }),
        },
      },
      {
        name: 'x',
        head_sha: SHA,
        output: {
          title: 't',
          summary: 's',
          annotations: [{ path: 'a', start_line: 1, end_line: 1, annotation_level: 'error', message: 'm' }],
        },
      },
      { name: 'x', head_sha: SHA, status: 'completed' },
    ];
    for (const body of cases) {
      const r = await call('POST', '/repos/o/r/check-runs', body);
      expect(r.status, JSON.stringify(body).slice(0, 200)).toBe(422);
      expect(r.body).toMatchObject({ message: expect.stringMatching(/^Invalid request/), documentation_url: expect.any(String) });
    }
    expect((await call('PATCH', '/repos/o/r/check-runs/1', { status: 'finished' })).status).toBe(404);
  });

  it('answers 401 without a token it knows and 403 to a read-only token that writes', async () => {
    expect((await call('GET', `/repos/o/r/commits/${SHA}/check-runs`, undefined, null)).body).toMatchObject({
      message: 'Requires authentication',
    });
    expect((await call('GET', `/repos/o/r/commits/${SHA}/check-runs`, undefined, 'nope')).status).toBe(401);
    const r = await call('POST', '/repos/o/r/check-runs', { name: 'x', head_sha: SHA }, 'ghs_read');
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ message: 'Resource not accessible by integration' });
    expect((await call('GET', `/repos/o/r/commits/${SHA}/check-runs`, undefined, 'ghs_read')).status).toBe(200);
  });

  it('answers rate limits as GitHub does', async () => {
    gh.fault({ kind: 'secondary', retryAfter: 30 });
    const s = await call('POST', '/repos/o/r/check-runs', { name: 'x', head_sha: SHA });
    expect([s.status, s.headers.get('retry-after')]).toEqual([403, '30']);
    gh.fault({ kind: 'secondary', status: 429 });
    expect((await call('POST', '/repos/o/r/check-runs', { name: 'x', head_sha: SHA })).status).toBe(429);
    gh.fault({ kind: 'primary', retryAfter: 120 });
    const p = await call('GET', `/repos/o/r/commits/${SHA}/check-runs`);
    expect(p.status).toBe(403);
    expect(p.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(p.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    const ctl = await fetch(`${gh.url}/__emulator/github/rate-limit`, { method: 'POST', body: JSON.stringify({ limit: 1 }) });
    expect(ctl.status).toBe(200);
    expect((await call('GET', `/repos/o/r/commits/${SHA}/check-runs`)).status).toBe(200);
    const over = await call('GET', `/repos/o/r/commits/${SHA}/check-runs`);
    expect([over.status, over.headers.get('x-ratelimit-remaining')]).toEqual([403, '0']);
    await fetch(`${gh.url}/__emulator/github/rate-limit`, { method: 'POST', body: JSON.stringify({ limit: 1000 }) });
  });

  it('fails as GitHub does: its HTML page for a 5xx, 422 for a body with a given field, a lost answer, a held request', async () => {
    gh.fault({ kind: 'error', status: 503, method: 'GET' });
    const page = await call('GET', `/repos/o/r/commits/${SHA}/check-runs`);
    expect([page.status, page.headers.get('content-type')]).toEqual([503, 'text/html']);
    expect(page.body).toMatch(/<title>Unicorn! &middot; GitHub<\/title>/);
    gh.fault({ kind: 'invalid', method: 'POST', bodyHas: 'output.annotations' });
    const plain = await call('POST', '/repos/o/r/check-runs', { name: 'p', head_sha: SHA });
    expect(plain.status).toBe(201);
    const annotated = { name: 'a', head_sha: SHA, output: { title: 't', summary: 's', annotations: [] } };
    expect(await call('POST', '/repos/o/r/check-runs', annotated)).toMatchObject({ status: 422, body: { message: 'Validation Failed' } });
    const before = gh.runs.length;
    gh.fault({ kind: 'drop', method: 'POST' });
    await expect(call('POST', '/repos/o/r/check-runs', { name: 'dropped', head_sha: SHA })).rejects.toThrow();
    expect(gh.runs.length).toBe(before + 1);
    expect(gh.runs.at(-1)?.name).toBe('dropped');
  });

  it('a held request is told to onHold and never answered', async () => {
    const held: string[] = [];
    const g = await startGitHub({ onHold: (r) => held.push(`${r.method} ${r.path}`) });
    try {
      g.addToken('t');
      g.fault({ kind: 'hang', method: 'PATCH' });
      const answer = fetch(`${g.url}/repos/o/r/check-runs/1`, { method: 'PATCH', headers: { authorization: 'token t' }, body: '{}' });
      await expect.poll(() => held).toEqual(['PATCH /repos/o/r/check-runs/1']);
      await g.close();
      await expect(answer).rejects.toThrow();
    } finally {
      await g.close();
    }
  });

  it('takes tokens and faults through its control API, and shows what it received', async () => {
    const bad = await fetch(`${gh.url}/__emulator/github/faults`, { method: 'POST', body: JSON.stringify({ kind: 'nope' }) });
    expect(bad.status).toBe(400);
    await fetch(`${gh.url}/__emulator/github/tokens`, { method: 'POST', body: JSON.stringify({ token: 'ghs_ctl' }) });
    expect((await call('GET', `/repos/o/r/commits/${SHA}/check-runs`, undefined, 'ghs_ctl')).status).toBe(200);
    const received = (await (await fetch(`${gh.url}/__emulator/github/received`)).json()) as { headers: { authorization?: string } }[];
    expect(received.at(-1)?.headers.authorization).toBe('token ghs_ctl');
  });

  it('lists its control endpoints in a 404, each a row of emulator/README.md', async () => {
    const unknown = await fetch(`${gh.url}/__emulator/github/nothing`);
    expect(unknown.status).toBe(404);
    const listed = String(((await unknown.json()) as { message: string }).message)
      .replace(/^.*nothing: /, '')
      .split(', ');
    const readme = await readFile(join(ROOT, 'emulator/README.md'), 'utf8');
    const rows = [...readme.matchAll(/^\| `((?:GET|POST) [a-z-]+)` \|/gm)].map((m) => m[1]);
    expect(rows.sort()).toEqual(listed.sort());
  });
});
