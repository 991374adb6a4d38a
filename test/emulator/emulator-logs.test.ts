// The emulator's build log (after_line_logs) with each of bk-ci's traps, as docs/bkci/logs.md
// describes them: status 2 before the first line, pages sorted by time, `start` inclusive, late
// lines, 999, lines after the end, executeCount, hasMore and bk-ci's page size, in both flavours and
// behind the BlueKing API Gateway.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { demoBuild } from '../../emulator/demo-build.ts';
import type { pipelineSchema } from '../../emulator/pipeline-seed.ts';
import { type Emulator, startEmulator } from '../../emulator/server.ts';
import { type Route, seededBuild, v4 } from '../support/emu-v4.ts';

interface Line {
  lineNo: number;
  timestamp: number;
  message: string;
  priority: number;
  tag: string;
  subTag: string;
  jobId: string;
  containerHashId: string;
  stepId: string;
  executeCount: number;
}
interface QueryLogs {
  buildId: string;
  finished: boolean;
  hasMore: boolean;
  logs: Line[];
  timeUsed: number;
  status: number;
  subTags?: string[];
  message?: string;
}

const T0 = Date.UTC(2026, 5, 1);
const STEPS = [
  { tag: 'e-compile', jobId: 'build', stepId: 'compile', containerHashId: 'c-build' },
  { tag: 'e-test', jobId: 'test', stepId: 'unit', containerHashId: 'c-test' },
];

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

/** The seeded build, and `read` for its log from line 1 (or as `query` says). */
async function setUp(seed: Partial<z.input<typeof pipelineSchema>>, options: { route?: Route; flavour?: 'bkci' | 'spec' } = {}) {
  const built = await seededBuild(seed, { ...options, t0: T0 });
  emu = built.emu;
  const { api, buildId } = built;
  const read = async (query: Record<string, string | number | boolean>) => {
    const res = await api.get('logs/after_line_logs', { buildId, pipelineId: 'p-app', start: 1, ...query });
    expect(res.status).toBe(200);
    const body = res.json() as { status: number; data: QueryLogs };
    expect(body.status).toBe(0);
    return body.data;
  };
  return { ...built, read };
}

const lineNos = (q: QueryLogs) => q.logs.map((l) => l.lineNo);

describe('after_line_logs', () => {
  it.each([
    ['bkci', 'bkci'],
    ['spec', 'bkci'],
    ['bkci', 'apigw'],
  ] as const)(
    '%s flavour on the %s route: status 2 before the first line, then QueryLogs with every LogLine field',
    async (flavour, route) => {
      const { at, read, buildId } = await setUp(
        {
          phases: [
            { status: 'QUEUE', ms: 1000 },
            { status: 'RUNNING', ms: 4000 },
          ],
          logs: { steps: STEPS, lines: [{ at: 1500, step: 'e-compile', text: 'compiling' }] },
        },
        { flavour, route },
      );
      expect(await read({})).toEqual({
        buildId,
        finished: false,
        hasMore: false,
        logs: [],
        timeUsed: 0,
        status: 2,
        message: '构建日志过期，已被清理',
      });
      at(1499);
      expect((await read({})).status).toBe(2);
      at(1500);
      expect(await read({})).toEqual({
        buildId,
        finished: false,
        hasMore: false,
        timeUsed: 0,
        status: 0,
        logs: [
          {
            lineNo: 1,
            timestamp: T0 + 1500,
            message: 'compiling',
            priority: 40,
            tag: 'e-compile',
            subTag: '',
            jobId: 'build',
            containerHashId: 'c-build',
            stepId: 'compile',
            executeCount: 1,
          },
        ],
      });
      at(5000);
      expect((await read({})).finished).toBe(true);
    },
  );

  it('orders a page by time, not line number: a slow uploader gets higher numbers for earlier lines', async () => {
    const { at, read } = await setUp({
      logs: {
        steps: STEPS,
        lines: [
          { at: 100, step: 'e-test', text: 'test 1', delayMs: 300 },
          { at: 200, step: 'e-compile', text: 'compile 1' },
          { at: 300, step: 'e-compile', text: 'compile 2' },
        ],
      },
    });
    at(1000);
    const page = await read({});
    expect(page.logs.map((l) => [l.lineNo, l.message])).toEqual([
      [3, 'test 1'],
      [1, 'compile 1'],
      [2, 'compile 2'],
    ]);
    // The last line of the page is not the highest number: a cursor from it reads line 3 again.
    expect(lineNos(await read({ start: (page.logs.at(-1)?.lineNo ?? 0) + 1 }))).toEqual([3]);
  });

  it('with hasMore, a max-lineNo + 1 cursor skips lines that are earlier in number but later in time', async () => {
    const { at, read } = await setUp({
      logs: {
        steps: STEPS,
        pageSize: 2,
        lines: [
          { at: 500, step: 'e-test', text: 'late in time, number 1' },
          { at: 100, step: 'e-compile', text: 'number 2', delayMs: 450 },
          { at: 200, step: 'e-compile', text: 'number 3', delayMs: 450 },
        ],
      },
    });
    at(1000);
    const first = await read({});
    expect([lineNos(first), first.hasMore]).toEqual([[2, 3], true]);
    expect(lineNos(await read({ start: 4 }))).toEqual([]);
    // Reading one job at a time keeps time and number order together.
    expect(lineNos(await read({ jobId: 'test' }))).toEqual([1]);
  });

  it('`start` is inclusive', async () => {
    const { at, read } = await setUp({
      logs: { steps: STEPS, lines: [1, 2, 3, 4].map((i) => ({ at: i * 10, step: 'e-compile', text: `l${i}` })) },
    });
    at(1000);
    expect(lineNos(await read({ start: 3 }))).toEqual([3, 4]);
    expect(lineNos(await read({ start: 5 }))).toEqual([]);
  });

  it('a line can become readable after higher-numbered ones (lagMs)', async () => {
    const { at, read } = await setUp({
      logs: {
        steps: STEPS,
        lines: [
          { at: 100, step: 'e-compile', text: 'one' },
          { at: 200, step: 'e-compile', text: 'two', lagMs: 3000 },
          { at: 300, step: 'e-compile', text: 'three' },
        ],
      },
    });
    at(1000);
    expect(lineNos(await read({}))).toEqual([1, 3]);
    // A client whose cursor is now 4 never sees line 2 without an overlap sweep.
    at(3200);
    expect(lineNos(await read({ start: 4 }))).toEqual([]);
    expect(lineNos(await read({ start: 1 }))).toEqual([1, 2, 3]);
  });

  it('999 (a failed search) by seed on the n-th request, and through the control API, with `finished` as bk-ci says it', async () => {
    const { api, buildId, at, read } = await setUp({
      phases: [{ status: 'RUNNING', ms: 10_000 }],
      logs: { steps: STEPS, lines: [{ at: 10, step: 'e-compile', text: 'x' }], failQueries: [2] },
    });
    at(100);
    expect(await read({})).toMatchObject({ status: 0, logs: [{ lineNo: 1 }] });
    // The catch-all in doQueryLogsAfterLine: no lines, hasMore false and finished true, mid-build.
    expect(await read({})).toMatchObject({ status: 999, logs: [], hasMore: false, finished: true });
    expect(await read({})).toMatchObject({ status: 0, finished: false });
    expect((await api.control('logs/fail', { buildId, times: 2, finished: false })).status).toBe(200);
    expect(await read({})).toMatchObject({ status: 999, logs: [], finished: false });
    expect(await read({})).toMatchObject({ status: 999 });
    expect(await read({})).toMatchObject({ status: 0, logs: [{ lineNo: 1 }] });
    expect((await api.control('logs/fail', {})).status).toBe(200);
    expect(await read({})).toMatchObject({ status: 999, finished: true });
    // A closed (cold) index: status 3, finished as it is.
    expect((await api.control('logs/fail', { buildId, status: 3 })).status).toBe(200);
    expect(await read({})).toMatchObject({ status: 3, logs: [], finished: false });
    expect((await api.control('logs/fail', { times: 0 })).status).toBe(400);
    expect((await api.control('logs/fail', { status: 2 })).status).toBe(400);
    expect((await api.control('logs/fail', { buildId: 'x' })).status).toBe(400);
  });

  it('lines written after the build ended still arrive; `finished` is already true', async () => {
    const { at, read, api, buildId } = await setUp({
      phases: [{ status: 'RUNNING', ms: 1000 }],
      logs: {
        steps: STEPS,
        lines: [
          { at: 500, step: 'e-compile', text: 'before' },
          { at: 1200, step: 'e-compile', text: 'after the end' },
        ],
      },
    });
    at(1100);
    expect((await api.get('build_status', { buildId })).json()).toMatchObject({ data: { status: 'SUCCEED' } });
    expect(await read({})).toMatchObject({ finished: true, logs: [{ lineNo: 1 }] });
    at(1200);
    expect(await read({ start: 2 })).toMatchObject({ finished: true, logs: [{ lineNo: 2, message: 'after the end' }] });
  });

  it('`finishedAtMs`: finished can turn true while the build still runs', async () => {
    const { at, read } = await setUp({
      phases: [{ status: 'RUNNING', ms: 10_000 }],
      logs: { steps: STEPS, lines: [{ at: 10, step: 'e-compile', text: 'x' }], finishedAtMs: 2000 },
    });
    at(1999);
    expect((await read({})).finished).toBe(false);
    at(2000);
    expect((await read({})).finished).toBe(true);
  });

  it('executeCount: a retried run has its own lines, numbered on from the first run; the default is run 1', async () => {
    const { at, read } = await setUp({
      phases: [{ status: 'RUNNING', ms: 10_000 }],
      logs: {
        steps: STEPS,
        lines: [
          { at: 10, step: 'e-compile', text: 'run 1 a' },
          { at: 20, step: 'e-compile', text: 'run 1 b' },
          { at: 5000, step: 'e-compile', text: 'run 2 a', executeCount: 2 },
        ],
      },
    });
    at(4999);
    // Run 1 is not over before run 2 writes.
    expect((await read({})).finished).toBe(false);
    at(6000);
    const first = await read({});
    expect(first.logs.map((l) => [l.lineNo, l.executeCount])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    expect(first.finished).toBe(true);
    const second = await read({ executeCount: 2 });
    expect(second.logs.map((l) => [l.lineNo, l.executeCount, l.message])).toEqual([[3, 2, 'run 2 a']]);
    expect(second.finished).toBe(false);
  });

  it("hasMore while more lines than a page follow; bk-ci's page is 10,000 lines", async () => {
    const { at, read } = await setUp({
      phases: [{ status: 'RUNNING', ms: 60_000 }],
      logs: { steps: STEPS, generate: [{ count: 12_345, toMs: 30_000, step: 'e-compile', text: 'line {i} of many' }] },
    });
    at(40_000);
    const first = await read({});
    expect(first.logs).toHaveLength(10_000);
    expect(first.hasMore).toBe(true);
    expect(first.logs[9_999]?.message).toBe('line 10000 of many');
    const rest = await read({ start: 10_001 });
    expect(rest.logs).toHaveLength(2_345);
    expect(rest.hasMore).toBe(false);
    expect(rest.logs.at(-1)).toMatchObject({ lineNo: 12_345, message: 'line 12345 of many' });
  });

  it('a generator spreads lines over the build; a smaller page size is seedable', async () => {
    const { at, read } = await setUp({
      phases: [{ status: 'RUNNING', ms: 60_000 }],
      logs: { steps: STEPS, pageSize: 3, generate: [{ count: 10, fromMs: 1000, toMs: 2000, step: 'e-test' }] },
    });
    at(1450);
    const page = await read({});
    expect(lineNos(page)).toEqual([1, 2, 3]);
    expect(page.hasMore).toBe(true);
    expect(lineNos(await read({ start: 4 }))).toEqual([4, 5]);
    expect((await read({ start: 4 })).hasMore).toBe(false);
  });

  it('filters by step, job and debug as bk-ci does; subTags only with a tag', async () => {
    const { at, read } = await setUp({
      logs: {
        steps: STEPS,
        lines: [
          { at: 10, step: 'e-compile', text: 'c', subTag: 'gcc' },
          { at: 20, step: 'e-test', text: 't' },
          { at: 30, step: 'e-test', text: 'debug', debug: true },
        ],
      },
    });
    at(100);
    expect(lineNos(await read({}))).toEqual([1, 2]);
    expect(lineNos(await read({ debug: true }))).toEqual([1, 2, 3]);
    expect(await read({ tag: 'e-compile' })).toMatchObject({ subTags: ['gcc'], logs: [{ lineNo: 1 }] });
    expect(lineNos(await read({ jobId: 'test' }))).toEqual([2]);
    // The openapi drops jobId when a tag is given.
    expect(lineNos(await read({ jobId: 'test', tag: 'e-compile' }))).toEqual([1]);
    expect(lineNos(await read({ containerHashId: 'c-test', stepId: 'unit' }))).toEqual([2]);
    expect((await read({})).subTags).toBeUndefined();
  });

  it('a stopped build writes nothing more', async () => {
    const { at, read, api, buildId } = await setUp({
      phases: [{ status: 'RUNNING', ms: 10_000 }],
      logs: {
        steps: STEPS,
        lines: [
          { at: 100, step: 'e-compile', text: 'a' },
          { at: 3000, step: 'e-compile', text: 'b' },
        ],
      },
    });
    at(1000);
    expect((await api.post('build_stop', { buildId }, '{}')).status).toBe(200);
    at(5000);
    expect(await read({})).toMatchObject({ finished: true, logs: [{ lineNo: 1 }] });
  });

  it("refuses as bk-ci's openapi does: unknown build, another pipeline's id, no start, a start that is not a number", async () => {
    const { api, buildId } = await setUp({ logs: { steps: STEPS } });
    const refusal = async (query: Record<string, string>) => {
      const res = await api.get('logs/after_line_logs', query);
      return [res.status, res.json()];
    };
    expect(await refusal({ buildId: 'b-nope', start: '1' })).toEqual([
      400,
      { status: 400, message: '参数校验失败:{0} Invalid buildId, please check if projectId & buildId are related' },
    ]);
    expect(await refusal({ buildId, pipelineId: 'p-other', start: '1' })).toEqual([
      400,
      { status: 400, message: '参数校验失败:{0} PipelineId is invalid ' },
    ]);
    expect(await refusal({ buildId })).toEqual([400, { status: 400, message: '参数校验失败:request param start cannot be empty' }]);
    expect(await refusal({ buildId, start: 'one' })).toEqual([400, { status: 400, message: '查询参数类型错误' }]);
  });

  it('a pipeline without a log script answers status 2 for ever', async () => {
    const { at, read } = await setUp({});
    at(60_000);
    expect(await read({})).toMatchObject({ status: 2, logs: [], finished: true });
  });

  it('refuses a script whose line names an unknown step, over the control API', async () => {
    emu = await startEmulator();
    const res = await v4(emu, 'demo', 'alice').control('pipelines', {
      projectId: 'demo',
      pipelineId: 'p-x',
      logs: { steps: STEPS, lines: [{ at: 0, step: 'e-nope', text: 'x' }], generate: [{ count: 1, toMs: 1, step: 'e-gone' }] },
    });
    expect(res.status).toBe(400);
    expect((res.json() as { message: string }).message).toBe(
      'logs.lines.0: step "e-nope" is not one of steps[].tag; logs.generate.0: step "e-gone" is not one of steps[].tag',
    );
  });
});

describe('more_logs', () => {
  it('lines start..end inclusive, the first `num` by time, or the last `num` with fromStart=false; never hasMore', async () => {
    const { at, api, buildId } = await setUp({
      logs: {
        steps: STEPS,
        lines: [1, 2, 3, 4, 5, 6].map((i) => ({ at: i * 10, step: i % 2 ? 'e-compile' : 'e-test', text: `l${i}` })),
      },
    });
    at(1000);
    const more = async (query: Record<string, string | number | boolean>) => {
      const res = await api.get('logs/more_logs', { buildId, ...query });
      return (res.json() as { data: QueryLogs }).data;
    };
    expect(lineNos(await more({ start: 2, end: 5 }))).toEqual([2, 3, 4, 5]);
    expect(lineNos(await more({ start: 1, end: 6, num: 2 }))).toEqual([1, 2]);
    const tail = await more({ start: 1, end: 999, num: 2, fromStart: false });
    expect([lineNos(tail), tail.hasMore]).toEqual([[5, 6], false]);
    expect(lineNos(await more({ start: 1, end: 999, num: 2, fromStart: false, tag: 'e-test' }))).toEqual([4, 6]);
    const missing = await api.get('logs/more_logs', { buildId, start: 1 });
    expect([missing.status, missing.json()]).toEqual([400, { status: 400, message: '参数校验失败:request param end cannot be empty' }]);
    // after_line_logs has neither end nor num: both are ignored there.
    const after = await api.get('logs/after_line_logs', { buildId, start: 1, end: 'x', num: 1 });
    expect(lineNos((after.json() as { data: QueryLogs }).data)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('the demo pipeline (npm start, npm run emulator)', () => {
  it('writes its log over the build, one line after the end, with bk-ci markers and a command-like line kept raw', async () => {
    const { read, at } = await setUp({
      phases: [
        { status: 'QUEUE', ms: 1000 },
        { status: 'RUNNING', ms: 3000 },
      ],
      ...demoBuild(1000, 3000),
    });
    at(2000);
    const early = await read({});
    expect(early.finished).toBe(false);
    at(6000);
    const all = await read({});
    expect(all.finished).toBe(true);
    expect(all.logs).toHaveLength(11);
    expect(all.logs.map((l) => l.message)).toContain('::warning::a bk-ci line, not a command for the runner');
    expect(all.logs.at(-1)?.message).toBe('cache uploaded (after the build ended)');
    expect(new Set(all.logs.map((l) => l.jobId))).toEqual(new Set(['build', 'test']));
  });
});

describe('after_line_logs, a property', () => {
  it('a page is the earliest lines by (timestamp, lineNo) at or after `start`, numbered by arrival; hasMore says if any were left', async () => {
    const line = fc.record({
      at: fc.integer({ min: 0, max: 5000 }),
      step: fc.constantFrom('e-compile', 'e-test'),
      // Any text, lone surrogates, runner commands and bk-ci markers included, comes back as written.
      text: fc.oneof(
        // Every code point, lone surrogates too: fast-check's own 'binary' unit builds a map of all
        // 1.1 million of them first (a second of CPU), this one draws them as numbers.
        fc.string({ unit: fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)), maxLength: 300 }),
        fc.constantFrom('::add-mask::x', '##[error]boom', '\u001b[31mred\u001b[0m', 'half \ud83d of an emoji'),
      ),
      delayMs: fc.integer({ min: 0, max: 2000 }),
      lagMs: fc.integer({ min: 0, max: 2000 }),
      executeCount: fc.constantFrom(1, 2),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 0, max: 8000 }),
        fc.integer({ min: 1, max: 30 }),
        async (lines, pageSize, now, start) => {
          const { at, read } = await setUp({ phases: [{ status: 'RUNNING', ms: 1000 }], logs: { steps: STEPS, lines, pageSize } });
          at(now);
          const numbered = lines
            .map((l, i) => ({ ...l, i }))
            .sort((a, b) => a.at + a.delayMs - (b.at + b.delayMs) || a.i - b.i)
            .map((l, n) => ({ ...l, lineNo: n + 1 }));
          const arrived = numbered.some((l) => l.at + l.delayMs <= now);
          for (const executeCount of [1, 2]) {
            const page = await read({ start, executeCount });
            expect(page.status).toBe(arrived ? 0 : 2);
            const expected = numbered
              .filter((l) => l.executeCount === executeCount && l.lineNo >= start && l.at + l.delayMs + l.lagMs <= now)
              .sort((a, b) => a.at - b.at || a.lineNo - b.lineNo);
            if (!arrived) continue;
            expect(page.logs.map((l) => [l.lineNo, l.message])).toEqual(expected.slice(0, pageSize).map((l) => [l.lineNo, l.text]));
            expect(page.hasMore).toBe(expected.length > pageSize);
          }
          await emu?.close();
          emu = undefined;
        },
      ),
      { numRuns: 30 },
    );
  });
});
