import { describe, expect, it } from 'vitest';
import { OperationError } from '../../src/base/errors.ts';
import type { CallSpec, Reply } from '../../src/bkci/client.ts';
import { IssuedTokens } from '../../src/bkci/tokens.ts';
import { type SignParams, signDetail } from '../../src/operations/sign-detail.ts';
import { Secrets } from '../../src/runner/secrets.ts';
import { memoryLog } from '../support/client.ts';
import { FakeClock } from '../support/fake-clock.ts';

interface Scenario {
  intervalMs: number;
  timeoutMs: number;
  requestMs: number;
  /** Status the server gives at a time, by the time the answer leaves it. */
  statusAt: (t: number) => string;
}

function fakeApi(clock: FakeClock, s: Scenario, onPoll?: (n: number) => void) {
  const polls: number[] = [];
  return {
    polls,
    call: <T>(req: CallSpec<T>): Promise<Reply<T>> => {
      polls.push(clock.t);
      onPoll?.(polls.length);
      clock.t += s.requestMs;
      const status = s.statusAt(clock.t);
      const data = req.data.parse({ resignId: 's-1', status, message: status === 'FAIL' ? 'IPA包签名失败' : `it is ${status}` });
      return Promise.resolve({ data, status: 200, user: 'alice' });
    },
  };
}

const params = (s: Scenario, extra: Partial<SignParams> = {}): SignParams => ({
  resignId: 's-1',
  wait: true,
  downloadUrl: false,
  timeoutMs: s.timeoutMs,
  intervalMs: s.intervalMs,
  start: 0,
  ...extra,
});
const doneAt = (ms: number) => (t: number) => (t >= ms ? 'SUCCESS' : 'RUNNING');
const never = () => 'RUNNING';

async function outcomeOf(s: Scenario, extra: Partial<SignParams> = {}) {
  const clock = new FakeClock();
  const api = fakeApi(clock, s);
  const log = memoryLog();
  const result = await signDetail(api, params(s, extra), { clock, log, signal: new AbortController().signal }).then(
    (o) => ({ ok: true as const, outcome: o }),
    (e: unknown) => ({ ok: false as const, error: e as OperationError }),
  );
  return { ...result, polls: api.polls, clock, log };
}

describe('the re-sign wait schedule (injected clock, no real sleeping)', () => {
  it.each<[string, Scenario, number[], 'SUCCESS' | 'timeout']>([
    [
      'finishes between polls',
      { intervalMs: 5000, timeoutMs: 30_000, requestMs: 0, statusAt: doneAt(12_000) },
      [0, 5000, 10_000, 15_000],
      'SUCCESS',
    ],
    ['finishes before the first poll', { intervalMs: 5000, timeoutMs: 30_000, requestMs: 0, statusAt: doneAt(0) }, [0], 'SUCCESS'],
    [
      '3 s task, 1 s interval: ⌈3/1⌉+1 polls',
      { intervalMs: 1000, timeoutMs: 30_000, requestMs: 0, statusAt: doneAt(3000) },
      [0, 1000, 2000, 3000],
      'SUCCESS',
    ],
    [
      'last poll at the deadline, not before',
      { intervalMs: 5000, timeoutMs: 12_000, requestMs: 0, statusAt: never },
      [0, 5000, 10_000, 12_000],
      'timeout',
    ],
    [
      'request time counts: fixed rate from the start',
      { intervalMs: 5000, timeoutMs: 20_000, requestMs: 2000, statusAt: never },
      [0, 5000, 10_000, 15_000, 20_000],
      'timeout',
    ],
    [
      'requests slower than the interval: next poll at once',
      { intervalMs: 5000, timeoutMs: 20_000, requestMs: 7000, statusAt: never },
      [0, 7000, 14_000, 21_000],
      'timeout',
    ],
    ['timeout shorter than the interval', { intervalMs: 60_000, timeoutMs: 10_000, requestMs: 0, statusAt: never }, [0, 10_000], 'timeout'],
  ])('%s', async (_, scenario, expectedPolls, end) => {
    const r = await outcomeOf(scenario);
    expect(r.polls).toEqual(expectedPolls);
    if (end === 'SUCCESS') {
      expect(r.ok).toBe(true);
    } else {
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.message).toMatch(/still RUNNING on the server after .* polls, timeout/);
        expect(r.error.message).toMatch(/check that resign-id is right/);
        expect(r.error.outcome.outputs).toMatchObject({ 'sign-status': 'RUNNING', polls: String(expectedPolls.length) });
      }
    }
    // Never a sleep past the deadline: all the sleeping fits in the timeout.
    expect(r.clock.sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(scenario.timeoutMs);
    expect(Math.max(...r.polls)).toBeLessThanOrEqual(scenario.timeoutMs + scenario.requestMs);
  });

  it('reads once with wait: false, RUNNING or not', async () => {
    const r = await outcomeOf({ intervalMs: 5000, timeoutMs: 30_000, requestMs: 10, statusAt: never }, { wait: false });
    expect(r.ok).toBe(true);
    expect(r.polls).toEqual([0]);
    if (r.ok) expect(r.outcome.outputs).toMatchObject({ 'sign-status': 'RUNNING', polls: '1' });
  });

  it('fails on FAIL with the server message and keeps the outputs', async () => {
    const r = await outcomeOf({ intervalMs: 1000, timeoutMs: 30_000, requestMs: 0, statusAt: (t) => (t >= 2000 ? 'FAIL' : 'RUNNING') });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toBe('re-sign task s-1 failed: IPA包签名失败');
      expect(r.error.outcome.outputs).toMatchObject({ 'sign-status': 'FAIL', 'sign-message': 'IPA包签名失败', polls: '3', elapsed: '2' });
    }
  });

  it('warns once about an unknown status and keeps waiting', async () => {
    const r = await outcomeOf({ intervalMs: 1000, timeoutMs: 30_000, requestMs: 0, statusAt: (t) => (t >= 4000 ? 'SUCCESS' : 'QUEUED') });
    expect(r.ok).toBe(true);
    expect(r.log.lines.filter((l) => l.level === 'warning')).toHaveLength(1);
    expect(r.log.text()).toMatch(/status "QUEUED", which this action does not know/);
  });

  it('logs the start, each change, and a heartbeat at most every 30 s; each poll only at debug', async () => {
    const r = await outcomeOf({ intervalMs: 5000, timeoutMs: 30 * 60_000, requestMs: 0, statusAt: doneAt(150_000) });
    const info = r.log.lines.filter((l) => l.level === 'info').map((l) => l.message);
    expect(info[0]).toBe('waiting for re-sign task s-1: timeout 30m, a poll every 5s');
    expect(info.filter((m) => m.startsWith('still RUNNING'))).toEqual([
      'still RUNNING after 30s, 7 polls',
      'still RUNNING after 1m, 13 polls',
      'still RUNNING after 1m30s, 19 polls',
      'still RUNNING after 2m, 25 polls',
    ]);
    expect(info.filter((m) => /RUNNING \(|SUCCESS \(/.test(m))).toEqual(['0ms: RUNNING (it is RUNNING)', '2m30s: SUCCESS (it is SUCCESS)']);
    expect(r.log.lines.filter((l) => l.level === 'debug')).toHaveLength(31);
  });

  it('stops when cancelled, saying after how long and the last status', async () => {
    const clock = new FakeClock();
    const cancel = new AbortController();
    const api = fakeApi(clock, { intervalMs: 5000, timeoutMs: 600_000, requestMs: 0, statusAt: never }, (n) => {
      if (n === 3) cancel.abort();
    });
    const error = await signDetail(api, params({ intervalMs: 5000, timeoutMs: 600_000, requestMs: 0, statusAt: never }), {
      clock,
      log: memoryLog(),
      signal: cancel.signal,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperationError);
    expect((error as OperationError).message).toBe('cancelled after 10s, last status RUNNING; the task goes on on the server');
    expect(api.polls).toHaveLength(3);
  });
});

describe('token renewal timing', () => {
  it.each([
    // lifetime, margin, times of calls, expected issues
    ['fresh token reused', 300_000, 60_000, [0, 100_000, 239_000], 1],
    ['renewed once less than the margin is left', 300_000, 60_000, [0, 239_000, 241_000, 250_000], 2],
    ['renewed again when the new one runs low', 300_000, 60_000, [0, 241_000, 481_000, 482_000], 3],
    [
      'a short-lived token is renewed when a fifth of its life is left, not on every use',
      30_000,
      60_000,
      [0, 1, 23_999, 24_001, 25_000],
      2,
    ],
  ] as const)('%s', async (_, lifetime, margin, times, issues) => {
    const clock = new FakeClock();
    let issued = 0;
    const tokens = new IssuedTokens({
      issue: () => {
        issued++;
        return Promise.resolve({
          userId: 'alice',
          expirationText: '',
          expirationTime: clock.t + lifetime,
          accessToken: `token-${issued}%3D`,
        });
      },
      clock,
      secrets: new Secrets(() => undefined),
      log: memoryLog(),
      renewMarginMs: margin,
    });
    for (const t of times) {
      clock.t = t;
      await tokens.current();
    }
    expect(issued).toBe(issues);
  });

  it('a request a cancelled step still owes takes the token in hand until it expires, not renewed early', async () => {
    const clock = new FakeClock();
    let issued = 0;
    const tokens = new IssuedTokens({
      issue: () => {
        issued++;
        return Promise.resolve({ userId: 'alice', expirationText: '', expirationTime: clock.t + 600_000, accessToken: `token-${issued}` });
      },
      clock,
      secrets: new Secrets(() => undefined),
      log: memoryLog(),
    });
    await tokens.current();
    clock.t += 590_000; // inside the renewal margin, not yet expired
    expect((await tokens.current({ unexpired: true })).token).toBe('token-1');
    expect(issued).toBe(1);
    expect((await tokens.current()).token).toBe('token-2');
    clock.t += 700_000; // expired: renewed even so
    expect((await tokens.current({ unexpired: true })).token).toBe('token-3');
  });

  it('says its user without asking the token endpoint', async () => {
    const clock = new FakeClock();
    let issued = 0;
    const tokens = new IssuedTokens({
      issue: () => {
        issued++;
        return Promise.resolve({ userId: 'alice', expirationText: '', expirationTime: clock.t + 1000, accessToken: 'tok%3D' });
      },
      clock,
      secrets: new Secrets(() => undefined),
      log: memoryLog(),
    });
    expect(tokens.user).toBeUndefined();
    await tokens.current();
    clock.t = 5000; // expired: current() would renew, reading the user must not
    expect(tokens.user).toBe('alice');
    expect(issued).toBe(1);
  });

  it('masks every new token before handing it out', async () => {
    const masked: string[] = [];
    const clock = new FakeClock();
    const tokens = new IssuedTokens({
      issue: () => Promise.resolve({ userId: 'alice', expirationText: '', expirationTime: clock.t + 1000, accessToken: `tok-${clock.t}` }),
      clock,
      secrets: new Secrets((v) => masked.push(v)),
      log: memoryLog(),
    });
    const first = await tokens.current();
    expect(masked).toContain(first.token);
    clock.t = 5000;
    const second = await tokens.current();
    expect(masked).toContain(second.token);
  });
});
