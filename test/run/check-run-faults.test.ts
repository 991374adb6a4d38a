// The check run against a failing or hostile GitHub: run() in this process against the bk-ci
// emulator and the emulator's GitHub side, on the clock they share (a request GitHub holds lets
// the step's timeout for it pass at once). GitHub is bounded by the step's clock, its failures
// cost a cadence, a look-up that failed is not "none", and a refused update is sent again smaller.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { END_GRACE_MS } from '../../src/github/check-state.ts';
import { seen } from '../support/github-markdown.ts';
import { useGitHub } from '../support/github-world.ts';
import { cleanupRuns } from '../support/in-process.ts';
import { T0, useWorld } from '../support/world.ts';

const w = useWorld();
const github = useGitHub(w);
afterAll(cleanupRuns);

const step = github.step({ operation: 'start-build', 'pipeline-id': 'p-app', 'poll-interval': '1s' });
const pipeline = (ms: number) => w.pipeline({ name: 'App', phases: [{ status: 'RUNNING', ms, stage: 'Build' }] });
const warnings = (stdout: string): string[] => stdout.match(/^::warning::.*$/gm) ?? [];
/** How long the step took by the clock it shared with the emulators. */
const took = (): number => w.clock.now() - T0;

describe("the step's clock bounds GitHub", () => {
  it('a GitHub that hangs: a 2 s build with timeout 8s ends within the timeout and its grace, one warning and one line', async () => {
    pipeline(2000);
    github.gh.fault({ kind: 'hang', times: 1000 });
    const r = await step({ timeout: '8s' });
    expect(r.outputs).toMatchObject({ conclusion: 'success', 'check-run-id': '' });
    expect(took()).toBeLessThanOrEqual(8000 + END_GRACE_MS);
    expect(warnings(r.stdout)).toEqual([
      expect.stringMatching(/^::warning::check: GitHub did not answer \(no answer within 10s\); the check run may lag behind/),
      expect.stringMatching(/^::warning::check: a check run "bk-ci App" for build b-\w+ may exist on GitHub .*: GitHub did not answer/),
    ]);
    // The create, then one look-up at the end: nothing created blindly after a write with no answer.
    expect(github.gh.received.map((q) => q.method)).toEqual(['POST', 'GET']);
  });

  it('a secondary rate limit of 50 s on the final update: given up at once, with one warning naming the check left in progress', async () => {
    pipeline(2000);
    github.gh.fault({ kind: 'secondary', method: 'PATCH', retryAfter: 50 });
    const r = await step({});
    expect(r.outputs.conclusion).toBe('success');
    expect(took()).toBeLessThan(5000);
    const id = r.outputs['check-run-id'];
    expect(warnings(r.stdout)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^::warning::check: the check run "bk-ci App" \\(${id}\\) was left in progress, .*: GitHub asked to wait 50s \\(403: You have exceeded a secondary rate limit.*\\), longer than the step may still take`,
        ),
      ),
    ]);
    expect(github.gh.runs[0]?.status).toBe('in_progress');
  });

  it('a primary rate limit reset an hour away on the final update (a door not listed): the same, one warning', async () => {
    pipeline(2000);
    github.gh.fault({ kind: 'primary', method: 'PATCH', retryAfter: 3600 });
    const r = await step({});
    expect(took()).toBeLessThan(5000);
    expect(warnings(r.stdout)).toEqual([expect.stringMatching(/left in progress.*GitHub asked to wait 1h \(403: API rate limit exceeded/)]);
  });

  it('a short rate limit on the final update is waited out: the conclusion lands', async () => {
    pipeline(2000);
    github.gh.fault({ kind: 'secondary', method: 'PATCH', retryAfter: 3 });
    const r = await step({});
    expect(warnings(r.stdout)).toEqual([]);
    expect(github.gh.runs[0]).toMatchObject({ status: 'completed', conclusion: 'success' });
  });
});

describe('failures cost a cadence, not a poll', () => {
  it('GitHub answering 503 to everything during an 8 s build: two requests, one warning and one line, no HTML page', async () => {
    pipeline(8000);
    github.gh.fault({ kind: 'error', status: 503, times: 1000 });
    const r = await step({});
    expect(r.outputs.conclusion).toBe('success');
    expect(github.gh.received.map((q) => `${q.method} ${q.status}`)).toEqual(['POST 503', 'GET 503']);
    expect(warnings(r.stdout)).toHaveLength(2);
    expect(warnings(r.stdout)[0]).toBe(
      '::warning::check: GitHub failed or could not be reached (503: Unicorn! · GitHub); the check run may lag behind the build (its next update in 10s at the earliest)',
    );
    expect(r.stdout).not.toMatch(/DOCTYPE|<style|<html|Sorry about that/);
    expect(r.stdout.match(/^(?!::debug::).*check:/gm)).toHaveLength(2);
  });

  it('a ten-minute build against a failing GitHub (a door not listed): the writes back off to one every 80 s', async () => {
    pipeline(600_000);
    github.gh.fault({ kind: 'error', status: 502, times: 1000 });
    const r = await step({ 'poll-interval': '5s' });
    expect(Number(r.outputs.polls)).toBeGreaterThan(100);
    // At most at 0, 10, 30, 70, 150, 230, 310, 390, 470, 550 s and at the end (later when a write's
    // answer comes after the next poll's time): a create, then look-ups. Later failures are debug.
    expect(github.gh.received.length).toBeLessThanOrEqual(11);
    expect(github.gh.received.map((q) => q.method)).toEqual(['POST', ...Array(github.gh.received.length - 1).fill('GET')]);
    expect(r.stdout).toMatch(/^::debug::check: .*its next update in 1m20s at the earliest/m);
    expect(warnings(r.stdout)).toHaveLength(2);
  });

  it('GitHub back after a failure: the look-up finds nothing, one check is created and completed', async () => {
    pipeline(30_000);
    github.gh.fault({ kind: 'error', status: 503, method: 'POST' });
    const r = await step({});
    expect(r.outputs.conclusion).toBe('success');
    expect(github.gh.runs).toHaveLength(1);
    expect(github.gh.runs[0]).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(github.gh.received.map((q) => `${q.method} ${q.status}`).slice(0, 3)).toEqual(['POST 503', 'GET 200', 'POST 201']);
  });
});

describe('unknown is not "none"', () => {
  it('the create applied, its answer lost, the look-up answered 503: no second check; the step says one may exist', async () => {
    pipeline(2000);
    github.gh.fault({ kind: 'drop', method: 'POST' });
    github.gh.fault({ kind: 'error', status: 503, method: 'GET', times: 1000 });
    const r = await step({});
    expect(r.outputs).toMatchObject({ conclusion: 'success', 'check-run-id': '' });
    expect(github.gh.runs).toHaveLength(1);
    expect(github.gh.received.filter((q) => q.method === 'POST')).toHaveLength(1);
    expect(warnings(r.stdout).at(-1)).toMatch(/a check run "bk-ci App" for build b-\w+ may exist on GitHub/);
  });

  it('a create that got no answer (a door not listed): looked up before anything is created again, then taken over', async () => {
    pipeline(30_000);
    github.gh.fault({ kind: 'hang', method: 'POST' });
    github.gh.fault({ kind: 'error', status: 503, method: 'GET' });
    const r = await step({});
    expect(r.outputs.conclusion).toBe('success');
    expect(github.gh.received.map((q) => q.method).slice(0, 4)).toEqual(['POST', 'GET', 'GET', 'POST']);
    expect(github.gh.runs).toHaveLength(1);
    expect(github.gh.runs[0]).toMatchObject({ status: 'completed', conclusion: 'success' });
  });
});

describe('a refused update is sent again without what GitHub refused', () => {
  it('a 422 on a progress update (a door not listed): the next update is smaller, the conclusion lands', async () => {
    w.pipeline({
      name: 'App',
      phases: [
        { status: 'RUNNING', ms: 15_000, stage: 'Build' },
        { status: 'RUNNING', ms: 15_000, stage: 'Release' },
      ],
    });
    github.gh.fault({ kind: 'invalid', method: 'PATCH' });
    const r = await step({});
    expect(r.outputs.conclusion).toBe('success');
    expect(github.gh.runs[0]).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(warnings(r.stdout)).toEqual([
      expect.stringMatching(
        /GitHub refused an update of the check run as invalid \(422: Validation Failed\); the next update carries less/,
      ),
    ]);
    const writes = github.writes();
    expect(writes.map((q) => `${q.method} ${q.status}`)).toEqual(['POST 201', 'PATCH 422', 'PATCH 200', 'PATCH 200']);
    const summaries = writes.map((q) => seen((q.body.output as { summary: string }).summary).trim());
    // The update sent again carries its first line only; the last one starts whole again.
    expect(summaries[2]).toMatch(/^Build #1 b-\w+ is running: stage 'Release'$/);
    expect(summaries[3]).toMatch(/^Build #1 b-\w+ succeeded\nStages\n/);
  });
});

describe('a check GitHub stops taking mid-build is said to be left in progress', () => {
  it.each([
    ['github-token expiring mid-build (401)', 401, /GitHub refused github-token \(401: Fault\)/],
    ['another refusal of an update (a door not listed: 409)', 409, /GitHub refused the check run \(409: Fault\)/],
  ])('%s: one line names the check left in progress, and why', async (_, status, why) => {
    w.pipeline({
      name: 'App',
      phases: [
        { status: 'RUNNING', ms: 15_000, stage: 'Build' },
        { status: 'RUNNING', ms: 15_000, stage: 'Release' },
      ],
    });
    github.gh.fault({ kind: 'error', status, method: 'PATCH', times: 1000 });
    const r = await step({});
    expect(r.outputs.conclusion).toBe('success');
    const id = r.outputs['check-run-id'];
    expect(id).not.toBe('');
    expect(github.gh.runs[0]?.status).toBe('in_progress');
    expect(warnings(r.stdout)).toEqual([
      expect.stringMatching(new RegExp(`^::warning::check: the check run "bk-ci App" \\(${id}\\) was left in progress, .*: ${why.source}`)),
    ]);
  });
});

describe("GitHub's API redirecting elsewhere (a door not listed)", () => {
  /** Another origin on loopback, answering as GitHub would: what it received is kept. */
  async function elsewhere(): Promise<{ url: string; received: { method: string; headers: IncomingHttpHeaders; body: string }[] }> {
    const received: { method: string; headers: IncomingHttpHeaders; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += String(c);
      });
      req.on('end', () => {
        received.push({ method: req.method ?? '', headers: req.headers, body });
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 7, name: 'bk-ci App', status: 'queued', html_url: 'http://elsewhere.invalid/run/7' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const address = server.address();
    return { url: `http://localhost:${typeof address === 'object' && address !== null ? address.port : 0}`, received };
  }

  it("the create is not sent on to the other origin, nor its answer taken as GitHub's: one line says why", async () => {
    pipeline(2000);
    const other = await elsewhere();
    github.gh.fault({ kind: 'redirect', method: 'POST', location: `${other.url}/repos/octo/app/check-runs` });
    const r = await step({});
    expect(r.outputs.conclusion).toBe('success');
    expect(other.received).toEqual([]);
    expect(r.outputs['check-url']).not.toMatch(/elsewhere/);
    expect(r.outputs['check-run-id']).toBe('');
    expect(warnings(r.stdout)).toEqual([expect.stringMatching(/^::warning::check: .*redirect.*localhost:\d+.*not followed/)]);
  });
});
