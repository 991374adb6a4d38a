// What a failure says of its request, through every wrapper: whether it may have been applied
// (sent, answer lost), whether the job's cancel is in it, and which write was on its way.
import { describe, expect, it } from 'vitest';
import {
  ActionError,
  AuthError,
  BudgetSpentError,
  CancelledError,
  DeadlineError,
  factsOf,
  HttpError,
  MisdirectedError,
  NetworkError,
  notSent,
  RequestTimeoutError,
  ResponseFormatError,
  WrapperStatusError,
} from '../../src/base/errors.ts';

const at = { method: 'POST', url: 'https://ci.example/build_start' };
const http = (status: number) => new HttpError({ ...at, status, serverMessage: '' });
const wrap = (e: unknown, times = 1): unknown => {
  let x = e;
  for (let i = 0; i < times; i++) x = new ActionError(`wrapped ${i}`, { cause: x });
  return x;
};

describe('factsOf', () => {
  it.each<[string, unknown, boolean]>([
    ['a 502: sent, its answer lost', http(502), true],
    ['a timeout', new RequestTimeoutError({ ...at, timeoutMs: 1000 }), true],
    ['a reset after sending', new NetworkError({ ...at, beforeSend: false, detail: 'reset', cause: undefined }), true],
    ['a cut 2xx body', new ResponseFormatError({ ...at, status: 200, detail: 'cut' }), true],
    ['a cancel with the write in flight', new CancelledError('POST /build_start'), true],
    ['a 404: an answer', http(404), false],
    ["bk-ci's wrapper refusal", new WrapperStatusError({ ...at, status: 200, serverStatus: 2101001, serverMessage: 'no' }), false],
    ['a 404 from another front door', new MisdirectedError({ ...at, status: 404, serverMessage: 'API not found' }), false],
    ['refused before sending', new NetworkError({ ...at, beforeSend: true, detail: 'ECONNREFUSED', cause: undefined }), false],
    ['the deadline before sending', new DeadlineError(at), false],
    ["a side read's spent budget", new BudgetSpentError(at), false],
    ['a cancel before sending', new CancelledError(), false],
    ['the token refused', new AuthError('expired', { kind: 'refused' }, {}), false],
    // The token endpoint timed out: a lost answer, but of the token's request, before this one was sent.
    [
      'a token fetch that timed out',
      notSent(new RequestTimeoutError({ method: 'GET', url: 'https://ci.example/token', timeoutMs: 1 })),
      false,
    ],
  ])('%s: may have been applied %s, however wrapped', (_, e, may) => {
    for (const times of [0, 1, 3]) expect(factsOf(wrap(e, times)).mayHaveApplied).toBe(may);
  });

  it('the cancel and the write on its way survive every wrapper', () => {
    const e = wrap(new CancelledError('POST https://ci.example/manual_review'), 4);
    expect(factsOf(e)).toEqual({ cancelled: true, inFlight: 'POST https://ci.example/manual_review', mayHaveApplied: true });
    expect(factsOf(wrap(http(500), 2)).cancelled).toBe(false);
  });

  it('a cycle of causes cannot hold the walk', () => {
    const a = new ActionError('a');
    const b = new ActionError('b', { cause: a });
    Object.defineProperty(a, 'cause', { value: b });
    expect(factsOf(a).mayHaveApplied).toBe(true);
  });
});
