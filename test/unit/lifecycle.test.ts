import { describe, expect, it } from 'vitest';
import { CANCEL_EXIT_MS, MAX_HOLD_MS, type ProcessSeam, startLifecycle } from '../../src/runner/lifecycle.ts';

/** A process of our own: signals sent by hand, time moved by hand, exits recorded. */
function fakeProcess() {
  let now = 1_000_000;
  type Timer = { at: number; f: () => void; live: boolean; unref(): Timer };
  const timers: Timer[] = [];
  const signalListeners = new Set<(s: NodeJS.Signals) => void>();
  const exitListeners = new Set<() => void>();
  const exits: { code: number; at: number }[] = [];
  const seam: ProcessSeam = {
    signals: (l, on) => void (on ? signalListeners.add(l) : signalListeners.delete(l)),
    beforeExit: (l, on) => void (on ? exitListeners.add(l) : exitListeners.delete(l)),
    exit: (code) => void exits.push({ code, at: now }),
    now: () => now,
    setTimeout: (f, ms) => {
      const t: Timer = { at: now + ms, f, live: true, unref: () => t };
      timers.push(t);
      return t;
    },
    clearTimeout: (t) => {
      for (const x of timers) if (x === t) x.live = false;
    },
  };
  return {
    seam,
    exits,
    signal: (s: NodeJS.Signals) => {
      for (const l of [...signalListeners]) l(s);
    },
    beforeExit: () => {
      for (const l of [...exitListeners]) l();
    },
    advance: (ms: number) => {
      now += ms;
      for (const t of timers)
        if (t.live && t.at <= now) {
          t.live = false;
          t.f();
        }
    },
    listening: () => signalListeners.size + exitListeners.size,
  };
}

function life(ownsProcess = true) {
  const p = fakeProcess();
  const said: string[] = [];
  const l = startLifecycle({
    ownsProcess,
    process: p.seam,
    onSignal: (s) => said.push(`signal ${s}`),
    onUnsettled: () => said.push('unsettled'),
  });
  return { p, said, l };
}

describe('the step’s lifecycle', () => {
  it('the first signal aborts and is said once; a second is not said again', () => {
    const { p, said, l } = life();
    expect(l.signal.aborted).toBe(false);
    p.signal('SIGINT');
    p.signal('SIGTERM');
    expect(l.signal.aborted).toBe(true);
    expect(said).toEqual(['signal SIGINT']);
  });

  // The exit backstop after a signal, by what the operation asked to hold (ms), and when the exit comes.
  it.each([
    { hold: undefined, exitAt: CANCEL_EXIT_MS },
    { hold: 500, exitAt: CANCEL_EXIT_MS },
    { hold: 4000, exitAt: 4000 },
    { hold: 60_000, exitAt: MAX_HOLD_MS },
  ])('hold $hold: the step exits $exitAt ms after the signal', ({ hold, exitAt }) => {
    const { p, l } = life();
    if (hold !== undefined) l.holdExit(hold);
    p.signal('SIGINT');
    p.advance(exitAt - 1);
    expect(p.exits).toEqual([]);
    p.advance(1);
    expect(p.exits).toEqual([{ code: 1, at: 1_000_000 + exitAt }]);
  });

  it('a hold asked for after the signal moves the armed backstop', () => {
    const { p, l } = life();
    p.signal('SIGTERM');
    p.advance(1000);
    l.holdExit(3000);
    p.advance(CANCEL_EXIT_MS);
    expect(p.exits).toEqual([]);
    p.advance(3000 - 1000 - CANCEL_EXIT_MS);
    expect(p.exits).toHaveLength(1);
  });

  it('a hold released before any signal gives a later cancel the short backstop; released after, it stays', () => {
    const before = life();
    before.l.holdExit(5000)();
    before.p.signal('SIGINT');
    before.p.advance(CANCEL_EXIT_MS);
    expect(before.p.exits).toHaveLength(1);

    const after = life();
    const release = after.l.holdExit(5000);
    after.p.signal('SIGINT');
    release();
    after.p.advance(CANCEL_EXIT_MS);
    expect(after.p.exits).toEqual([]);
    after.p.advance(5000 - CANCEL_EXIT_MS);
    expect(after.p.exits).toHaveLength(1);
  });

  it('no signal, no exit: the backstop is armed only by a cancel', () => {
    const { p, l } = life();
    l.holdExit(5000);
    p.advance(60_000);
    expect(p.exits).toEqual([]);
  });

  it('a run() that never settled fails the step when Node is about to exit; a settled one does not', () => {
    const open = life();
    open.p.beforeExit();
    expect(open.said).toEqual(['unsettled']);

    const closed = life();
    closed.l.close();
    closed.p.beforeExit();
    expect(closed.said).toEqual([]);
    expect(closed.p.listening()).toBe(0);
  });

  it('a run() in a test’s own process is not watched for settling', () => {
    const { p, said } = life(false);
    p.beforeExit();
    expect(said).toEqual([]);
  });
});
