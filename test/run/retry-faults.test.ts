import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Fault } from '../../emulator/faults.ts';
import { startEmulator } from '../../emulator/server.ts';
import { HttpError, NetworkError, RequestTimeoutError, WrapperStatusError } from '../../src/base/errors.ts';
import type { CallSpec } from '../../src/bkci/client.ts';
import { makeClient } from '../support/client.ts';
import { SkippingClock } from '../support/fake-clock.ts';
import { useWorld } from '../support/world.ts';

type Method = 'GET' | 'PUT' | 'POST';
const REQUESTS: Record<Method, CallSpec<unknown>> = {
  GET: {
    endpoint: { method: 'GET', path: { 'bk-ci': 'v3/projects/{id}', 'bk-apigateway': null } },
    params: { id: 'demo' },
    data: z.unknown(),
  },
  PUT: {
    endpoint: { method: 'PUT', path: { 'bk-ci': 'v3/projects/{id}', 'bk-apigateway': null } },
    params: { id: 'demo' },
    body: { englishName: 'demo', projectName: 'Demo', description: 'd' },
    data: z.unknown(),
  },
  POST: {
    endpoint: { method: 'POST', path: { 'bk-ci': 'v3/projects/demo/callbacks/batch', 'bk-apigateway': null } },
    query: { url: 'https://h.example/x', region: 'DEVNET', event: 'BUILD_END' },
    data: z.unknown(),
  },
};

describe('retries: each fault × GET, PUT, POST', () => {
  // Each attempt's own clock; a request the emulator holds lets that clock's request-timeout pass at once.
  let clock = new SkippingClock();
  const w = useWorld({ realTime: true, onHold: () => clock.lapse() });

  async function attempt(
    method: Method,
    fault: Fault,
    times: number,
    options: { retries?: number; deadlineInMs?: number; requestTimeoutMs?: number } = {},
  ) {
    w.emu.faults.add({ method, times, fault });
    clock = new SkippingClock();
    const c = makeClient({
      baseUrl: w.emu.url,
      accessToken: w.accessToken,
      userId: 'alice',
      clock,
      random: () => 1,
      retries: options.retries ?? 3,
      requestTimeoutMs: options.requestTimeoutMs ?? 2000,
      ...(options.deadlineInMs === undefined ? {} : { deadline: clock.now() + options.deadlineInMs }),
    });
    const req = REQUESTS[method];
    const result = await c.api.call(req).then(
      () => ({ ok: true as const }),
      (e: unknown) => ({ ok: false as const, error: e }),
    );
    await c.close();
    return { ...result, attempts: w.emu.requests({ method }).length, delays: c.delays, log: c.log.text() };
  }

  const html503: Fault = { kind: 'status', status: 503, contentType: 'html' };

  it.each<[string, Fault, number, Record<Method, { attempts: number; ok: boolean; delays: number[] }>]>([
    [
      'nginx 503 page twice',
      html503,
      2,
      {
        GET: { attempts: 3, ok: true, delays: [1000, 2000] },
        PUT: { attempts: 3, ok: true, delays: [1000, 2000] },
        POST: { attempts: 1, ok: false, delays: [] },
      },
    ],
    [
      '500 JSON once',
      { kind: 'status', status: 500 },
      1,
      {
        GET: { attempts: 2, ok: true, delays: [1000] },
        PUT: { attempts: 2, ok: true, delays: [1000] },
        POST: { attempts: 1, ok: false, delays: [] },
      },
    ],
    [
      '429 with Retry-After: 7',
      { kind: 'status', status: 429, contentType: 'html', headers: { 'retry-after': '7' } },
      1,
      {
        GET: { attempts: 2, ok: true, delays: [7000] },
        PUT: { attempts: 2, ok: true, delays: [7000] },
        POST: { attempts: 2, ok: true, delays: [7000] },
      },
    ],
    [
      '423 locked',
      { kind: 'status', status: 423 },
      2,
      {
        GET: { attempts: 3, ok: true, delays: [1000, 2000] },
        PUT: { attempts: 3, ok: true, delays: [1000, 2000] },
        POST: { attempts: 3, ok: true, delays: [1000, 2000] },
      },
    ],
    [
      'connection reset after the request was sent',
      { kind: 'reset' },
      1,
      {
        GET: { attempts: 2, ok: true, delays: [1000] },
        PUT: { attempts: 2, ok: true, delays: [1000] },
        POST: { attempts: 1, ok: false, delays: [] },
      },
    ],
    [
      '400 (never retried)',
      { kind: 'status', status: 400 },
      1,
      {
        GET: { attempts: 1, ok: false, delays: [] },
        PUT: { attempts: 1, ok: false, delays: [] },
        POST: { attempts: 1, ok: false, delays: [] },
      },
    ],
    [
      '404 (never retried)',
      { kind: 'status', status: 404 },
      1,
      {
        GET: { attempts: 1, ok: false, delays: [] },
        PUT: { attempts: 1, ok: false, delays: [] },
        POST: { attempts: 1, ok: false, delays: [] },
      },
    ],
    [
      'HTTP 200 with a failing wrapper status (never retried)',
      { kind: 'wrapper-status', status: 2100001 },
      1,
      {
        GET: { attempts: 1, ok: false, delays: [] },
        PUT: { attempts: 1, ok: false, delays: [] },
        POST: { attempts: 1, ok: false, delays: [] },
      },
    ],
    [
      '503 more times than retries',
      html503,
      10,
      {
        GET: { attempts: 4, ok: false, delays: [1000, 2000, 4000] },
        PUT: { attempts: 4, ok: false, delays: [1000, 2000, 4000] },
        POST: { attempts: 1, ok: false, delays: [] },
      },
    ],
  ])('%s', async (_, fault, times, expected) => {
    for (const method of ['GET', 'PUT', 'POST'] as const) {
      w.emu.faults.clear();
      w.emu.log.length = 0;
      const r = await attempt(method, fault, times);
      expect({ method, attempts: r.attempts, ok: r.ok, delays: r.delays }).toEqual({ method, ...expected[method] });
    }
  });

  it('a request that hangs is cut by request-timeout and retried unless it is a POST', async () => {
    const get = await attempt('GET', { kind: 'hang' }, 1, { requestTimeoutMs: 300 });
    expect(get).toMatchObject({ ok: true, attempts: 2, delays: [1000] });
    w.emu.log.length = 0;
    const post = await attempt('POST', { kind: 'hang' }, 1, { requestTimeoutMs: 300 });
    expect(post.ok).toBe(false);
    expect(post.attempts).toBe(1);
    if (!post.ok) expect(post.error).toBeInstanceOf(RequestTimeoutError);
  });

  it("request-timeout is kept by the step's clock: a request held for good times out when that clock says so", async () => {
    // A minute's request-timeout, on a clock that lets it pass once the emulator holds the request:
    // the call must end long before a minute of real time, and the clock must read a minute later.
    const realStart = Date.now();
    const r = await attempt('POST', { kind: 'hang' }, 1, { requestTimeoutMs: 60_000 });
    expect(Date.now() - realStart).toBeLessThan(20_000);
    // The attempt's clock (a SkippingClock: real time plus what it skipped) reads the minute passed.
    expect(clock.now() - realStart).toBeGreaterThanOrEqual(60_000);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toBeInstanceOf(RequestTimeoutError);
  });

  it('request-timeout covers the body too: a body that never ends is cut and retried', async () => {
    const r = await attempt('GET', { kind: 'stall' }, 5, { requestTimeoutMs: 300, retries: 1 });
    expect(r).toMatchObject({ ok: false, attempts: 2, delays: [1000] });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toBeInstanceOf(RequestTimeoutError);
  });

  it('each retry is a log line with its reason', async () => {
    const r = await attempt('GET', html503, 1);
    expect(r.log).toContain(`info: GET ${w.emu.url}/ms/openapi/api/apigw/v3/projects/demo: HTTP 503; retry 1 of 3 in 1s`);
    expect(r.log).not.toContain(w.accessToken);
  });

  it('retries: 0 means one attempt', async () => {
    const r = await attempt('GET', html503, 1, { retries: 0 });
    expect(r).toMatchObject({ ok: false, attempts: 1 });
  });

  it('no retry is scheduled past the deadline', async () => {
    const r = await attempt('GET', html503, 10, { deadlineInMs: 2500 });
    expect(r.delays).toEqual([1000]);
    expect(r.attempts).toBe(2);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toBeInstanceOf(HttpError);
  });

  it('a POST whose connection was refused is retried: it never reached the server', async () => {
    const closed = await startEmulator();
    const url = closed.url;
    await closed.close();
    const c = makeClient({ baseUrl: url, accessToken: w.accessToken, userId: 'alice', clock: new SkippingClock(), random: () => 1 });
    const error = await c.api.call(REQUESTS.POST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).beforeSend).toBe(true);
    expect((error as NetworkError).message).toMatch(/ECONNREFUSED/);
    expect(c.delays).toEqual([1000, 2000, 4000]);
    await c.close();
  });

  it('the wrapper status error keeps the server status', async () => {
    const r = await attempt('GET', { kind: 'wrapper-status', status: 2100001, message: 'nope' }, 1);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toBeInstanceOf(WrapperStatusError);
      expect((r.error as WrapperStatusError).serverStatus).toBe(2100001);
    }
  });

  it('a response body over the cap is refused with a clear error', async () => {
    for (let i = 0; i < 50; i++)
      w.emu.seedProject({ englishName: `p-${i}`, projectName: `P ${i}`, creator: 'alice', description: 'x'.repeat(1000) });
    const c = makeClient({ baseUrl: w.emu.url, accessToken: w.accessToken, userId: 'alice', maxBodyBytes: 10_000 });
    await expect(
      c.api.call({ endpoint: { method: 'GET', path: { 'bk-ci': 'v3/projects', 'bk-apigateway': null } }, data: z.unknown() }),
    ).rejects.toThrow(/exceeds the limit of 10000 bytes/);
    await c.close();
  });
});
