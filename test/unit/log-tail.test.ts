// The log's cursor against bk-ci's traps, table by table: a scripted log service answers each
// read as after_line_logs would (lines from `start` on, inclusive, ordered by time, a page at a
// time, hasMore), and the lines released must be each line once, in line-number order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LogTail, type TailPage } from '../../src/pipeline/log-tail.ts';

interface Scripted {
  lineNo: number;
  /** The agent's clock: what the page is ordered by. */
  ts: number;
  /** The first poll at which the line can be found (bk-ci indexes in bulk). */
  visibleAt?: number;
  /** Never found (a debug line, left out of the query). */
  hidden?: boolean;
}

interface Script {
  lines: Scripted[];
  polls: number;
  pageSize?: number;
  /** The log query's status at a poll, instead of lines. */
  status?: Record<number, number>;
  /** Where the run's lines begin (a retried run: found by its first read). */
  from?: number | 'first-read';
}

/** Polls the scripted service; says what was released at each poll and where each read started. */
function follow(s: Script) {
  const tail = new LogTail({ holdPolls: 2, holdMs: 2000, ...(s.from === undefined ? {} : { from: s.from }) });
  const released: number[][] = [];
  const starts: number[][] = [];
  for (let poll = 0; poll < s.polls; poll++) {
    const at: number[] = [];
    for (let page = 0; page < 50; page++) {
      const start = tail.start(page === 0);
      at.push(start);
      const status = s.status?.[poll];
      let answer: TailPage;
      if (status !== undefined) answer = { status, hasMore: false, lines: [] };
      else {
        const found = s.lines
          .filter((l) => !l.hidden && (l.visibleAt ?? 0) <= poll && l.lineNo >= start)
          .sort((a, b) => a.ts - b.ts || a.lineNo - b.lineNo);
        const size = s.pageSize ?? 10_000;
        answer = {
          status: 0,
          hasMore: found.length > size,
          lines: found.slice(0, size).map((l) => ({ lineNo: l.lineNo, message: `line ${l.lineNo}`, tag: '', jobId: '', stepId: '' })),
        };
      }
      const v = tail.take(answer);
      if (v.kind !== 'read' || !v.more) break;
    }
    starts.push(at);
    released.push(tail.ready({ atPoll: true, now: poll * 1000 }).map((l) => l.lineNo));
  }
  const last = tail.ready({ atPoll: false, now: s.polls * 1000, final: true }).map((l) => l.lineNo);
  return { released, starts, last, all: [...released.flat(), ...last] };
}

const seq = (from: number, to: number, o: Partial<Scripted> = {}): Scripted[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ({ lineNo: from + i, ts: from + i, ...o }));

describe('the log tail', () => {
  it.each([
    ['one page, in order', { lines: seq(1, 5), polls: 2 }, [[1, 2, 3, 4, 5], []], [[1], [6]]],
    [
      'a page ordered by time, not line number (parallel jobs, agents with their own clocks)',
      {
        lines: [
          { lineNo: 1, ts: 50 },
          { lineNo: 2, ts: 10 },
          { lineNo: 3, ts: 40 },
          { lineNo: 4, ts: 20 },
          { lineNo: 5, ts: 30 },
        ],
        polls: 1,
      },
      [[1, 2, 3, 4, 5]],
      [[1]],
    ],
    [
      '`start` is inclusive: the next read starts past the highest line, so none comes twice',
      { lines: [...seq(1, 3), ...seq(4, 6, { visibleAt: 1 })], polls: 3 },
      [[1, 2, 3], [4, 5, 6], []],
      [[1], [4], [7]],
    ],
    [
      'a line readable after higher-numbered ones is waited for, and printed in its place',
      { lines: [...seq(1, 2), { lineNo: 3, ts: 3, visibleAt: 1 }, ...seq(4, 5)], polls: 3 },
      [[1, 2], [3, 4, 5], []],
      [[1], [3], [6]],
    ],
    [
      'a gap that never fills (a debug line) is given up after two polls',
      { lines: [...seq(1, 2), { lineNo: 3, ts: 3, hidden: true }, ...seq(4, 5)], polls: 4 },
      [[1, 2], [], [4, 5], []],
      [[1], [3], [3], [6]],
    ],
    [
      'hasMore: the next page is read at once, from past the highest line of the last',
      { lines: seq(1, 10), polls: 1, pageSize: 4 },
      [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
      [[1, 5, 9]],
    ],
    [
      'status 2 (no log yet) before the first line: nothing, then the lines',
      { lines: seq(1, 2), polls: 2, status: { 0: 2 } },
      [[], [1, 2]],
      [[1], [1]],
    ],
    [
      'status 999 (a failed search): tried again at the next poll from the same line',
      { lines: [...seq(1, 2), ...seq(3, 4, { visibleAt: 1 })], polls: 3, status: { 1: 999 } },
      [[1, 2], [], [3, 4]],
      [[1], [3], [3]],
    ],
    [
      "a retried build's run starts where the first left off (one counter per build): printed as it comes, nothing waited on below it",
      { lines: [...seq(501, 503), ...seq(504, 505, { visibleAt: 1 })], polls: 3, from: 'first-read' },
      [[501, 502, 503], [504, 505], []],
      [[1], [504], [506]],
    ],
    [
      'a retried run with no log yet (status 2), then its lines: the first read that brings any says where it begins',
      {
        lines: [...seq(501, 502, { visibleAt: 1 }), { lineNo: 503, ts: 503, visibleAt: 2 }, ...seq(504, 505, { visibleAt: 1 })],
        polls: 3,
        status: { 0: 2 },
        from: 'first-read',
      },
      [[], [501, 502], [503, 504, 505]],
      [[1], [1], [503]],
    ],
    [
      "a retried run's line found after its first read, below it, is left out as a gap given up; the rest once, in order",
      { lines: [{ lineNo: 501, ts: 501, visibleAt: 1 }, ...seq(502, 504)], polls: 2, from: 'first-read' },
      [[502, 503, 504], []],
      [[1], [505]],
    ],
    [
      'a first run read from where it is known to begin: a gap below it is waited on as any other',
      { lines: seq(3, 4), polls: 3, from: 1 },
      [[], [], [3, 4]],
      [[1], [1], [1]],
    ],
  ] as const)('%s', (_, script, released, starts) => {
    const r = follow(script as Script);
    expect(r.released).toEqual(released);
    expect(r.starts).toEqual(starts);
    expect(r.last).toEqual([]);
  });

  it('the end gives up every gap: what waits above one is printed, in order', () => {
    const r = follow({ lines: [...seq(1, 2), { lineNo: 3, ts: 3, hidden: true }, ...seq(4, 5)], polls: 1 });
    expect(r.released).toEqual([[1, 2]]);
    expect(r.last).toEqual([4, 5]);
  });

  it('a gap is waited on for the time bk-ci needs to make lines searchable, however fast the polls', () => {
    const tail = new LogTail({ holdPolls: 2, holdMs: 2000 });
    const line = (n: number) => ({ lineNo: n, message: '', tag: '', jobId: '', stepId: '' });
    tail.take({ status: 0, hasMore: false, lines: [line(2)] });
    const at = [0, 100, 200, 300, 1900, 2000].map((now) => tail.ready({ atPoll: true, now }).map((l) => l.lineNo));
    expect(at).toEqual([[], [], [], [], [], [2]]);
  });

  it('status 3 (the index closed) stops the reading', () => {
    const tail = new LogTail({ holdPolls: 2, holdMs: 2000 });
    expect(tail.take({ status: 3, hasMore: false, lines: [] }).kind).toBe('gone');
  });

  it('a page that brings a line again (an old scroll answer) does not print it twice', () => {
    const tail = new LogTail({ holdPolls: 2, holdMs: 2000 });
    const line = (n: number) => ({ lineNo: n, message: '', tag: '', jobId: '', stepId: '' });
    tail.take({ status: 0, hasMore: false, lines: [line(1), line(2), line(2), line(4)] });
    tail.take({ status: 0, hasMore: false, lines: [line(2), line(4), line(3)] });
    expect(tail.ready({ atPoll: true, now: 0 }).map((l) => l.lineNo)).toEqual([1, 2, 3, 4]);
    expect(tail.read).toBe(4);
  });

  it('gaps are given up together: every line that waited long enough is printed at once, not a gap per wait', () => {
    // Every third line is a debug line the query leaves out: a gap every two lines.
    const lines = seq(1, 60).map((l) => ({ ...l, hidden: l.lineNo % 3 === 0, visibleAt: Math.floor(l.lineNo / 20) }));
    const r = follow({ lines, polls: 6 });
    // Seen at polls 0 (1-19), 1 (20-39) and 2 (40-59): each poll's lines released together two
    // polls (and 2 s) later, whatever the number of gaps below them (six gaps at poll 2).
    expect(r.released.map((p) => p.length)).toEqual([2, 0, 12, 12, 14, 0]);
    expect(r.all).toEqual(lines.filter((l) => !l.hidden).map((l) => l.lineNo));
  });

  it('the final release of 100,000 lines above 50,000 gaps is one sort, not a scan per gap', () => {
    const tail = new LogTail({ holdPolls: 2, holdMs: 2000 });
    const lines = Array.from({ length: 100_000 }, (_, i) => ({
      lineNo: 2 + Math.floor(i / 2) * 3 + (i % 2),
      message: '',
      tag: '',
      jobId: '',
      stepId: '',
    }));
    tail.take({ status: 0, hasMore: false, lines: lines.reverse() });
    const out = tail.ready({ atPoll: false, now: 0, final: true });
    expect(out).toHaveLength(100_000);
    expect(out.every((l, i) => i === 0 || (out[i - 1]?.lineNo ?? 0) < l.lineNo)).toBe(true);
  });

  it('whatever comes when, with lines that never come: each line once, in order', () => {
    const script = fc.array(
      fc.record({ visibleAt: fc.integer({ min: 0, max: 6 }), hidden: fc.boolean(), ts: fc.integer({ min: 0, max: 100 }) }),
      {
        maxLength: 60,
      },
    );
    fc.assert(
      fc.property(script, fc.integer({ min: 1, max: 8 }), fc.constantFrom(1, 2, 5, 10_000), (raw, polls, pageSize) => {
        const lines = raw.map((l, i) => ({ lineNo: i + 1, ...l }));
        const r = follow({ lines, polls, pageSize });
        const found = lines.filter((l) => !l.hidden && l.visibleAt < polls).map((l) => l.lineNo);
        expect(r.all).toEqual([...new Set(r.all)].sort((a, b) => a - b));
        expect(r.all.every((n) => found.includes(n))).toBe(true);
        // With pages that hold the whole log and no line late past the hold, every line found is printed.
        if (pageSize === 10_000 && lines.every((l) => l.visibleAt <= 1)) expect(r.all).toEqual(found);
      }),
      { numRuns: 300 },
    );
  });
});
