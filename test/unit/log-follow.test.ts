// The log follower against a scripted after_line_logs: the run it reads (executeCount, a retry
// starts a new cursor), the cursor kept on a failed search, reading on after the end until quiet.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BkciApi } from '../../src/bkci/client.ts';
import type { DiagnosticsCollector } from '../../src/pipeline/diagnostics.ts';
import { LogFollower } from '../../src/pipeline/log-follow.ts';
import { LogPrinter } from '../../src/pipeline/log-print.ts';
import { SideReads } from '../../src/pipeline/side-reads.ts';
import { memoryLog } from '../support/client.ts';
import { FakeClock } from '../support/fake-clock.ts';

interface Asked {
  start: string;
  executeCount: string;
}
type Answer = { status: number; hasMore?: boolean; logs: { lineNo: number; message: string; executeCount: number }[] };

/** A follower whose every read is answered by `answer` (given what was asked), and what it printed. */
function follower(answer: (q: Asked, n: number) => Answer, executeCount: () => number) {
  const asked: Asked[] = [];
  const api = {
    call: (spec: { query: Record<string, string> }) => {
      const q = { start: spec.query.start ?? '', executeCount: spec.query.executeCount ?? '' };
      asked.push(q);
      return Promise.resolve({ data: answer(q, asked.length - 1), status: 200, user: 'alice' });
    },
  } as unknown as BkciApi;
  const log = memoryLog();
  const clock = new FakeClock();
  const f = new LogFollower<unknown>({
    reads: new SideReads(api, clock),
    log,
    build: { projectId: 'demo', id: 'b-1' },
    executeCount,
    mode: 'live',
    file: undefined,
    label: () => 'step',
    signal: new AbortController().signal,
    clock,
  });
  const printed = () => log.lines.filter((l) => l.message.startsWith('step | ')).map((l) => l.message.slice(7));
  return { f, asked, printed, clock, log };
}

const line = (lineNo: number, executeCount = 1) => ({ lineNo, message: `line ${lineNo}`, executeCount });

describe('the log follower', () => {
  it("a retry (a new executeCount) reads the new run from line 1 again, its lines numbered on from the first run's", async () => {
    let run = 1;
    const { f, asked, printed, clock } = follower(
      (q) => {
        const lines = q.executeCount === '1' ? [line(1), line(2)] : [line(3, 2), line(4, 2)];
        return { status: 0, logs: lines.filter((l) => l.lineNo >= Number(q.start)) };
      },
      () => run,
    );
    await f.afterRead();
    run = 2;
    clock.t += 1000;
    await f.afterRead();
    // The new run's first read prints its lines at once: the numbers below them are the first run's.
    expect(printed()).toEqual(['line 1', 'line 2', 'line 3', 'line 4']);
    for (let i = 0; i < 3; i++) {
      clock.t += 5000;
      await f.afterRead();
    }
    f.finish();
    expect(printed()).toEqual(['line 1', 'line 2', 'line 3', 'line 4']);
    expect(asked[0]).toEqual({ start: '1', executeCount: '1' });
    expect(asked[1]).toEqual({ start: '1', executeCount: '2' });
  });

  it('a failed search (999) leaves the cursor where it was; a line of another run in an answer is not printed', async () => {
    const { f, asked, printed } = follower(
      (q, n) =>
        n === 1
          ? { status: 999, logs: [] }
          : { status: 0, logs: [line(1), line(2), line(9, 2)].filter((l) => l.lineNo >= Number(q.start)) },
      () => 1,
    );
    await f.afterRead();
    await f.afterRead();
    await f.afterRead();
    expect(asked.map((q) => q.start)).toEqual(['1', '3', '3']);
    expect(printed()).toEqual(['line 1', 'line 2']);
  });

  it('after the end it reads on until two reads bring nothing new, bounded', async () => {
    let n = 0;
    const { f, asked } = follower(
      () => ({ status: 0, logs: n++ < 3 ? [line(n)] : [] }),
      () => 1,
    );
    let reads = 0;
    while (f.pending('done') && reads < 20) {
      await f.settle();
      reads++;
    }
    expect(reads).toBe(5);
    expect(asked).toHaveLength(5);
    const { f: endless } = follower(
      (q) => ({ status: 0, logs: [line(Number(q.start))] }),
      () => 1,
    );
    let more = 0;
    while (endless.pending('done') && more < 100) {
      await endless.settle();
      more++;
    }
    expect(more).toBe(10);
  });

  it('status 2 once the build ended: no log to wait for', async () => {
    const { f } = follower(
      () => ({ status: 2, logs: [] }),
      () => 1,
    );
    await f.afterRead();
    expect(f.pending('done')).toBe(false);
  });

  it('hasMore pages that repeat: every read asks again only while a page brings a new line; each line printed once, in order', async () => {
    // Each answer: a random pick of the lines from `start` on (lines repeat across pages), always "there is more".
    const picks = fc.array(fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 8 }), { minLength: 1, maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(picks, async (pages) => {
        const { f, asked, printed } = follower(
          (q, n) => {
            const pick = pages[n % pages.length] ?? [];
            const lines = [...new Set(pick.map((i) => i + 1))].filter((l) => l >= Number(q.start)).map((l) => line(l));
            return { status: 0, hasMore: true, logs: lines };
          },
          () => 1,
        );
        let fresh = 0;
        for (let read = 0; read < 3; read++) {
          const before = asked.length;
          const seen = new Set(printed());
          await f.afterRead();
          // A request that brings nothing new is the last of its read.
          const requests = asked.length - before;
          fresh = printed().filter((l) => !seen.has(l)).length;
          expect(requests).toBeLessThanOrEqual(31);
          expect(requests).toBeGreaterThanOrEqual(1);
        }
        f.finish();
        const out = printed().map((l) => Number(l.slice(5)));
        expect(out).toEqual([...out].sort((a, b) => a - b));
        expect(new Set(out).size).toBe(out.length);
        return fresh >= 0;
      }),
      { numRuns: 200 },
    );
  });

  it('a server that answers every page with the same lines and hasMore: one request more per read, not twenty', async () => {
    const { f, asked } = follower(
      () => ({ status: 0, hasMore: true, logs: [line(1), line(2)] }),
      () => 1,
    );
    await f.afterRead();
    expect(asked).toHaveLength(2);
    await f.afterRead();
    expect(asked).toHaveLength(3);
  });
});

describe('the printer across the runs of a retried build', () => {
  const lines = (from: number, n: number, tag: string) =>
    Array.from({ length: n }, (_, i) => ({ lineNo: from + i, message: `${tag} ${from + i}`, tag, jobId: 'j', stepId: 's' }));

  it("keeps each step's last lines of the run followed now, and says a step's bound once in each run", () => {
    const log = memoryLog();
    const kept: string[] = [];
    const p = new LogPrinter({
      log,
      file: undefined,
      live: true,
      label: (l) => l.tag,
      linesPerStep: 2,
      diagnostics: { add: (step: string) => kept.push(step), restart: () => kept.push('restart') } as unknown as DiagnosticsCollector,
    });
    p.print([...lines(1, 3, 'e-test'), ...lines(4, 1, 'e-build')]);
    expect(p.tails().map((t) => [t.key, t.count])).toEqual([
      ['e-test', 3],
      ['e-build', 1],
    ]);
    p.newRun();
    expect(p.tails()).toEqual([]);
    p.print(lines(10, 4, 'e-test'));
    expect(p.tails()).toEqual([{ key: 'e-test', label: 'e-test', lines: ['e-test 10', 'e-test 11', 'e-test 12', 'e-test 13'], count: 4 }]);
    // The lines left out of the step's log stay counted over both runs; the note is said in each.
    expect(p.cut()).toEqual(new Map([['e-test', 3]]));
    expect(log.lines.filter((l) => /has more than 2 lines/.test(l.message))).toHaveLength(2);
    // The compiler messages' collector starts again with the run, by the same call.
    expect(kept).toEqual(['e-test', 'e-test', 'e-test', 'e-build', 'restart', 'e-test', 'e-test', 'e-test', 'e-test']);
  });
});
