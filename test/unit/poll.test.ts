import { describe, expect, it } from 'vitest';
import { DeadlineError, HttpError, NetworkError, RequestTimeoutError, WrapperStatusError } from '../../src/base/errors.ts';
import { type Progress, poll, troubleNote } from '../../src/wait/poll.ts';
import { memoryLog } from '../support/client.ts';
import { FakeClock } from '../support/fake-clock.ts';

const http = (status: number) => new HttpError({ method: 'GET', url: 'https://h/x', status, serverMessage: 'gateway says no' });
const reset = () =>
  new NetworkError({ method: 'GET', url: 'https://h/x', code: 'ECONNRESET', beforeSend: false, detail: 'socket hang up', cause: null });
const slow = () => new RequestTimeoutError({ method: 'GET', url: 'https://h/x', timeoutMs: 1000 });

/** One entry per poll: a status, or an error to throw. Past the end, the last entry repeats. */
async function run(script: (string | Error)[], o: { timeoutMs?: number; intervalMs?: number; wait?: boolean; heartbeatMs?: number } = {}) {
  const clock = new FakeClock();
  const log = memoryLog();
  const progress: Progress<string> = { polls: 0, last: undefined, status: undefined, changes: [] };
  let n = 0;
  const end = await poll(
    {
      read: () => {
        const step = script[Math.min(n++, script.length - 1)] ?? 'RUNNING';
        clock.t += 100;
        return step instanceof Error ? Promise.reject(step) : Promise.resolve(step);
      },
      status: (v) => v,
      describe: (v) => v,
      verdict: (v) => (v === 'SUCCESS' ? 'done' : v === 'FAIL' ? 'failed' : 'waiting'),
    },
    {
      start: 0,
      timeoutMs: o.timeoutMs ?? 60_000,
      intervalMs: o.intervalMs ?? 5000,
      wait: o.wait ?? true,
      clock,
      log,
      signal: new AbortController().signal,
      ...(o.heartbeatMs === undefined ? {} : { heartbeatMs: o.heartbeatMs }),
    },
    progress,
  ).catch((e: unknown) => e);
  return { end, progress, log, clock, reads: n };
}

describe('the poll loop meets passing failures', () => {
  it.each([
    ['a 503 costs one poll', ['RUNNING', http(503), 'SUCCESS'], 'done', 3],
    ['a 502, a 429 and a 500 in a row', [http(502), http(429), http(500), 'SUCCESS'], 'done', 4],
    ['a reset and a timeout', ['RUNNING', reset(), slow(), 'RUNNING', 'SUCCESS'], 'done', 5],
    ['FAIL after a failure ends badly', [http(503), 'FAIL'], 'failed', 2],
  ] as const)('%s', async (_, script, end, reads) => {
    const r = await run([...script]);
    expect(r.end).toBe(end);
    // polls counts the reads made, failed ones included (action.yml's description of the output).
    expect(r.progress.polls).toBe(reads);
    expect(r.reads).toBe(reads);
    expect(r.progress.trouble).toBeUndefined();
  });

  it.each([
    ['a 4xx', http(403)],
    ['a wrapper error', new WrapperStatusError({ method: 'GET', url: 'u', status: 200, serverStatus: 2101, serverMessage: 'no' })],
    ['anything else', new Error('bug')],
  ])('%s is not passing: thrown at once', async (_, error) => {
    const r = await run(['RUNNING', error]);
    expect(r.end).toBe(error);
    expect(r.reads).toBe(2);
  });

  it('without wait, a passing failure is not waited out', async () => {
    const r = await run([http(503), 'SUCCESS'], { wait: false });
    expect(r.end).toBeInstanceOf(HttpError);
    expect(r.reads).toBe(1);
  });

  it('a deadline passed inside the HTTP layer is a timeout', async () => {
    const r = await run(['RUNNING', new DeadlineError({ method: 'GET', url: 'u' })]);
    expect(r.end).toBe('timeout');
  });

  it('failures until the deadline end in a timeout that says what failed, for how long', async () => {
    const r = await run(['RUNNING', http(503)], { timeoutMs: 60_000, intervalMs: 5000 });
    expect(r.end).toBe('timeout');
    expect(r.progress.trouble).toMatchObject({ since: 5000, reason: 'bk-ci answered HTTP 503' });
    expect(troubleNote(r.progress, r.clock.now())).toBe(
      ' The polls of the last 55s failed; the last one: GET https://h/x answered HTTP 503: gateway says no.',
    );
    // Every poll on the schedule still happened, the last at the deadline.
    expect(r.reads).toBe(13);
  });

  it('the heartbeat says what has been failing, and for how long; recovery is logged', async () => {
    const r = await run(
      [
        'RUNNING',
        'RUNNING',
        http(503),
        http(503),
        http(503),
        http(503),
        http(503),
        http(503),
        http(503),
        http(503),
        http(503),
        http(503),
        'SUCCESS',
      ],
      {
        heartbeatMs: 30_000,
      },
    );
    expect(r.end).toBe('done');
    const info = r.log.lines.filter((l) => l.level === 'info').map((l) => l.message);
    expect(info).toContain('still RUNNING after 30s, 7 polls; bk-ci answered HTTP 503 for 20s');
    expect(info.filter((m) => m.includes('a poll failed'))).toHaveLength(1);
    expect(info).toContain('1m: bk-ci answers again, after 50s of failed polls');
  });
});
