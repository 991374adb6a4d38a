// The re-run's pure pieces: the step's identity in the build message (and its length as bk-ci
// counts it), the sorting of the history's rows, and the decision table.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headUnits } from '../../src/base/text.ts';
import type { HistoryRow } from '../../src/bkci/build-history.ts';
import type { BuildEnd } from '../../src/pipeline/build-decide.ts';
import { classify, decideRerun, type Earlier, type EarlierVerdict } from '../../src/pipeline/rerun.ts';
import { attemptOf, nearMiss, paramsDigest, runPrefix, stepIdentity, stepMessage } from '../../src/pipeline/rerun-message.ts';
import { buildMessage } from '../../src/pipeline/start.ts';

const w = {
  sha: 'abc1234',
  repository: 'octo/app',
  ref: 'main',
  serverUrl: 'https://github.com',
  runId: '42',
  runAttempt: '2',
  job: 'build',
};
const step: { pipelineId: string; params: Record<string, string> } = { pipelineId: 'p-app', params: { TARGET: 'linux', ARCH: 'x64' } };
/** How bk-ci stores a message: StartBuildContext cuts it to 255 of a Kotlin String's (UTF-16) units. */
const stored = (message: string): string => message.slice(0, 255);

describe("the step's identity", () => {
  it('is the same for every attempt, and tells apart pipelines, parameters, keys, jobs and runs', () => {
    const id = stepIdentity(w, step) ?? '';
    expect(id).toBe(`GitHub octo/app run 42 job build (p-app, params ${paramsDigest(step.params)})`);
    expect(id.startsWith(runPrefix(w, 'p-app'))).toBe(true);
    expect(stepIdentity({ ...w, runAttempt: '3' }, step)).toBe(id);
    expect(stepIdentity(w, { ...step, params: { ARCH: 'x64', TARGET: 'linux' } })).toBe(id);
    const others = [
      stepIdentity(w, { ...step, pipelineId: 'p-other' }),
      stepIdentity(w, { ...step, params: { TARGET: 'mac', ARCH: 'x64' } }),
      stepIdentity(w, { ...step, key: '1' }),
      stepIdentity({ ...w, job: 'test' }, step),
      stepIdentity({ ...w, runId: '43' }, step),
    ];
    expect(new Set([id, ...others]).size).toBe(6);
    expect(stepIdentity(undefined, step)).toBeUndefined();
    expect(stepIdentity({ ...w, runId: '' }, step)).toBeUndefined();
  });

  it('digests the parameters sorted by name, as every earlier version did (a change would lose every earlier build)', () => {
    const sorted = JSON.stringify([
      ['ARCH', 'x64'],
      ['TARGET', 'linux'],
    ]);
    expect(paramsDigest(step.params)).toBe(createHash('sha256').update(sorted).digest('hex').slice(0, 8));
    expect(paramsDigest({ b: '1', a: '2', c: '3' })).toBe(paramsDigest({ c: '3', a: '2', b: '1' }));
  });

  it('names the job only when there is one; an empty key is none; white space in a key is one space', () => {
    expect(runPrefix({ ...w, job: '' }, 'p-app')).toBe('GitHub octo/app run 42 (p-app, params ');
    expect(stepIdentity(w, { ...step, key: '' })).toBe(stepIdentity(w, step));
    expect(stepIdentity(w, { ...step, key: 'leg  1\n\tx' })).toMatch(/, key leg 1 x\)$/);
  });

  it('cuts only an identity longer than its room (221 units), ending it with a digest of the whole', () => {
    const bare = stepIdentity(w, { ...step, key: 'k' }) ?? '';
    const exactly = 'k'.repeat(221 - bare.length + 1);
    expect(stepIdentity(w, { ...step, key: exactly })).toHaveLength(221);
    expect(stepIdentity(w, { ...step, key: exactly })).toMatch(/k\)$/);
    const over = stepIdentity(w, { ...step, key: `${exactly}k` }) ?? '';
    expect(over).toMatch(/… #[0-9a-f]{12}$/);
    expect(over.length).toBeLessThanOrEqual(221);
  });

  it("reads back the attempt of this step's messages only", () => {
    const id = stepIdentity(w, step) ?? '';
    expect(attemptOf(stepMessage(id, '1', 'a1b2c3d4-e5f6'), id)).toBe(1);
    expect(attemptOf(stepMessage(id, '12'), id)).toBe(12);
    expect(attemptOf(stepMessage(id, ''), id)).toBe(0);
    expect(attemptOf(stepMessage(`${id.slice(0, -1)}, key 1)`, '1'), id)).toBeUndefined();
    expect(attemptOf(`${id} attempt 1 [a1b2] and more`, id)).toBeUndefined();
    expect(attemptOf(`${id} and more attempt 1 [a1b2]`, id)).toBeUndefined();
    expect(attemptOf('OpenAPI 触发', id)).toBeUndefined();
  });

  it('tells a message of the same job and pipeline with other build-params or another rerun-key, and nothing else', () => {
    const prefix = runPrefix(w, 'p-app');
    const id = stepIdentity(w, step) ?? '';
    const msg = (s: typeof step & { key?: string }, attempt = '1') => stepMessage(stepIdentity(w, s) ?? '', attempt, 'a1b2c3d4-e5f6');
    expect(nearMiss(msg({ ...step, params: { TARGET: 'mac' } }), prefix, id)).toEqual({ differs: 'build-params', attempt: 1 });
    expect(nearMiss(msg({ ...step, key: 'leg 2' }, '3'), prefix, id)).toEqual({ differs: 'rerun-key', attempt: 3 });
    const keyed = stepIdentity(w, { ...step, key: 'leg 1' }) ?? '';
    expect(nearMiss(msg(step), prefix, keyed)).toEqual({ differs: 'rerun-key', attempt: 1 });
    expect(nearMiss(msg(step), prefix, id)).toBeUndefined();
    expect(nearMiss(msg({ ...step, pipelineId: 'p-other' }), prefix, id)).toBeUndefined();
    expect(nearMiss(`${prefix}12345678) by hand`, prefix, id)).toBeUndefined();
    expect(nearMiss(`${prefix}12345678) attempt 2 [a1b2] by hand`, prefix, id)).toBeUndefined();
    expect(nearMiss(`${prefix}12345678) [a1b2]`, prefix, id)).toEqual({ differs: 'build-params', attempt: 0 });
    expect(nearMiss(`${prefix}12345678) attempt 12 [a1b2]`, prefix, id)).toEqual({ differs: 'build-params', attempt: 12 });
    expect(nearMiss(msg({ ...step, key: 'x' }), prefix, `cut… #${'0'.repeat(12)}`)).toBeUndefined();
  });

  /** Any Unicode: code points of every plane (lone surrogates too), and runs of wide characters. */
  const anyText = (maxLength: number) =>
    fc.oneof(
      fc.string({ unit: 'binary', maxLength }),
      fc.string({ unit: fc.constantFrom('😀', '👩‍👩‍👧', '好', 'a', ' ', '\u{10FFFF}', '…', '\ud800'), maxLength }),
    );

  it("always fits bk-ci's 255 UTF-16 units, and the message bk-ci stores names the attempt, whatever the key, job and repository", () => {
    fc.assert(
      fc.property(anyText(300), anyText(60), anyText(60), fc.integer({ min: 1, max: 999_999_999 }), (key, job, repository, attempt) => {
        const run = { ...w, job, repository };
        const id = stepIdentity(run, { ...step, key }) ?? '';
        const msg = stepMessage(id, String(attempt));
        expect(msg.length).toBeLessThanOrEqual(255);
        expect(attemptOf(stored(msg), id)).toBe(attempt);
        expect(stepIdentity({ ...run, runAttempt: '7' }, { ...step, key })).toBe(id);
      }),
    );
  });

  it('a key of emoji keeps the attempt and the mark (255 code points would be 510 units)', () => {
    const id = stepIdentity(w, { ...step, key: '😀'.repeat(200) }) ?? '';
    const msg = stepMessage(id, '2');
    expect(msg.length).toBeLessThanOrEqual(255);
    expect(attemptOf(stored(msg), id)).toBe(2);
    expect(id).toMatch(/… #[0-9a-f]{12}$/);
  });

  it("a message outside a step's identity (no run id) fits too", () => {
    fc.assert(
      fc.property(anyText(300), anyText(100), (job, repository) => {
        const msg = buildMessage({ ...w, runId: '', job, repository });
        expect(msg.length).toBeLessThanOrEqual(255);
        expect(msg).toMatch(/ \[[0-9a-f-]{13}\]$/);
      }),
    );
  });

  it('headUnits: at most that many UTF-16 units, never half a pair', () => {
    expect(headUnits('ab😀', 3)).toBe('ab');
    expect(headUnits('ab😀', 4)).toBe('ab😀');
    expect(headUnits('abc', 0)).toBe('');
    expect(headUnits('abc', -1)).toBe('');
    // A cut with no pair at its edge keeps every unit it may; the first and last high surrogates are halves.
    expect(headUnits('abcdef', 4)).toBe('abcd');
    expect(headUnits('a\u{10000}', 2)).toBe('a');
    expect(headUnits('a\u{10FFFF}', 2)).toBe('a');
    expect(headUnits('a\u{10000}b', 3)).toBe('a\u{10000}');
    fc.assert(
      fc.property(anyText(40), fc.integer({ min: 0, max: 50 }), (text, max) => {
        const head = headUnits(text, max);
        expect(head.length).toBeLessThanOrEqual(max);
        expect(text.startsWith(head)).toBe(true);
        if (text.length <= max) expect(head).toBe(text);
        else expect(head.length).toBe(/[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max);
        const last = head.charCodeAt(head.length - 1);
        if (head.length < text.length && last >= 0xd800 && last <= 0xdbff) expect(text.charCodeAt(head.length)).not.toBeGreaterThan(0xdbff);
      }),
    );
  });
});

const USER = 'alice';
const VALUES = { TARGET: 'linux', BK_CI_MATERIAL_ID: 'abc1234' };
const identity = stepIdentity(w, step) ?? '';
const prefix = runPrefix(w, 'p-app');
const params = [
  { key: 'TARGET', value: 'linux', readOnly: false, defaultValue: '' },
  { key: 'BK_CI_MATERIAL_ID', value: 'abc1234', readOnly: true },
];
let ids = 0;
const row = (message: string, more: Partial<HistoryRow> = {}): HistoryRow => ({
  id: `b-${++ids}`,
  buildNum: ids,
  status: 'SUCCEED',
  buildMsg: message,
  userId: USER,
  buildParameters: params,
  ...more,
});
const sorted = (rows: HistoryRow[], attempt = 3) => classify(rows, { identity, prefix, attempt, values: VALUES, user: USER });

describe("the history's rows, sorted", () => {
  it.each<[string, () => HistoryRow[], Earlier['kind'], Record<string, unknown>?]>([
    [
      'the latest own build of an earlier attempt',
      () => [row(stepMessage(identity, '2')), row(stepMessage(identity, '1'))],
      'found',
      { attempt: 2 },
    ],
    [
      'a copy by another user is left alone',
      () => [row(stepMessage(identity, '2'), { userId: 'mallory' }), row(stepMessage(identity, '1'))],
      'found',
      { attempt: 1 },
    ],
    ['only a copy by another user: none', () => [row(stepMessage(identity, '1'), { userId: 'mallory' })], 'none'],
    [
      'the same user, another value of a parameter it sends: none',
      () => [row(stepMessage(identity, '1'), { buildParameters: [{ ...params[0], value: 'mac' } as never, params[1] as never] })],
      'none',
    ],
    [
      'two of the latest attempt: ambiguous',
      () => [row(stepMessage(identity, '2'), { id: 'b-x' }), row(stepMessage(identity, '2'), { id: 'b-y' })],
      'ambiguous',
      { ids: ['b-x', 'b-y'] },
    ],
    ['this attempt and later ones are not earlier', () => [row(stepMessage(identity, '3')), row(stepMessage(identity, '4'))], 'none'],
    ['no attempt named', () => [row(stepMessage(identity, ''))], 'none'],
  ])('%s → %s', (_, rows, kind, more = {}) => {
    expect(sorted(rows())).toMatchObject({ kind, ...more });
  });

  it('keeps, to say why none was found, what is not this step own and what this job started with other inputs', () => {
    const other = stepMessage(stepIdentity(w, { ...step, params: { TARGET: 'mac' } }) ?? '', '1');
    const e = sorted([
      row(stepMessage(identity, '1'), { userId: 'mallory' }),
      row(other, { userId: 'mallory' }),
      row(other),
      row(stepMessage(stepIdentity(w, { ...step, key: 'k' }) ?? '', '4')),
      row('OpenAPI 触发', { buildMsg: null }),
    ]);
    expect(e.kind).toBe('none');
    if (e.kind !== 'none') return;
    expect(e.searched).toBe(5);
    expect(e.foreign.map((f) => f.why)).toEqual(['mallory started it, not alice']);
    expect(e.others.map((o) => [o.differs, o.row.userId])).toEqual([['build-params', USER]]);
    // A step that does not know its user names no build of the job as its own, even one bk-ci shows no starter of.
    const unknown = classify([row(other, { userId: '' })], { identity, prefix, attempt: 3, values: VALUES, user: '' });
    expect(unknown).toMatchObject({ kind: 'none', others: [] });
    expect(classify([row(other)], { identity, prefix: undefined, attempt: 3, values: VALUES, user: USER })).toMatchObject({ others: [] });
  });
});

const found = (end: BuildEnd, status = 'SUCCEED', rejected?: EarlierVerdict['rejected']): EarlierVerdict => ({
  kind: 'found',
  attempt: 1,
  row: { id: 'b-1', buildNum: 1, status },
  end,
  rejected,
});
const none = (more: Partial<Extract<Earlier, { kind: 'none' }>> = {}): Extract<Earlier, { kind: 'none' }> => ({
  kind: 'none',
  searched: 3,
  foreign: [],
  others: [],
  ...more,
});

describe('the re-run decision', () => {
  it.each<[string, Parameters<typeof decideRerun>[0], 'resume' | 'retry-all', string, unknown?]>([
    ['succeeded', found('success'), 'resume', 'adopt'],
    ['succeeded, retry-all', found('success'), 'retry-all', 'adopt'],
    ['under way', found('running', 'RUNNING'), 'resume', 'follow'],
    ['paused at a review', found('running', 'STAGE_SUCCESS'), 'retry-all', 'follow'],
    ['failed', found('failure', 'FAILED'), 'resume', 'retry', { kind: 'failed-jobs' }],
    ['failed, retry-all', found('failure', 'FAILED'), 'retry-all', 'retry', { kind: 'all' }],
    ['cancelled', found('cancelled', 'CANCELED'), 'resume', 'retry', { kind: 'failed-jobs' }],
    [
      'a stage review rejected: from that stage, its review asked again',
      found('rejected', 'STAGE_SUCCESS', { words: "stage 'Release' was rejected by bob", stageId: 'stage-3' }),
      'resume',
      'retry',
      { kind: 'task', taskId: 'stage-3', skip: false },
    ],
    [
      'a stage review rejected, retry-all',
      found('rejected', 'STAGE_SUCCESS', { words: 'x', stageId: 'stage-3' }),
      'retry-all',
      'retry',
      { kind: 'all' },
    ],
    [
      'a review step rejected',
      found('rejected', 'FAILED', { words: "step 'Approve' was rejected", stageId: undefined }),
      'resume',
      'retry',
      { kind: 'failed-jobs' },
    ],
    ['none found', none(), 'resume', 'new'],
    ['two fit', { kind: 'ambiguous', attempt: 1, ids: ['b-1', 'b-2'] }, 'resume', 'new'],
  ])('%s → %s', (_, earlier, onRerun, act, what) => {
    const d = decideRerun(earlier, onRerun);
    expect(d.act).toBe(act);
    if (d.act === 'retry') expect(d.what).toEqual(what);
    if (d.act === 'new') expect(d.why).toMatch(earlier.kind === 'none' ? /no build of an earlier attempt/ : /rerun-key/);
  });

  it('says how the build stands, in words', () => {
    expect(decideRerun(found('running', 'RUNNING'), 'resume')).toMatchObject({ how: 'is still RUNNING' });
    expect(decideRerun(found('failure', 'FAILED'), 'resume')).toMatchObject({ how: 'ended FAILED' });
    expect(decideRerun({ ...found('failure'), row: { id: 'b-1' } }, 'resume')).toMatchObject({ how: 'ended an unknown status' });
    expect(decideRerun(found('rejected', 'STAGE_SUCCESS'), 'resume')).toMatchObject({
      what: { kind: 'failed-jobs' },
      how: 'was rejected (bk-ci shows it STAGE_SUCCESS)',
    });
    expect(decideRerun({ kind: 'ambiguous', attempt: 2, ids: ['b-1', 'b-2'] }, 'resume')).toMatchObject({
      why: expect.stringMatching(/^2 builds of attempt 2 fit this step \(b-1, b-2\): matrix legs/),
    });
    expect(decideRerun(none(), 'resume')).toEqual({
      act: 'new',
      why: "no build of an earlier attempt of this step was found (3 builds of this run's job looked at)",
    });
  });

  it('a rejected build is never adopted: its words say it was rejected, and why', () => {
    const d = decideRerun(
      found('rejected', 'STAGE_SUCCESS', { words: "stage 'Release' was rejected by bob: no", stageId: 'stage-3' }),
      'resume',
    );
    expect(d).toMatchObject({ act: 'retry', how: "was rejected (stage 'Release' was rejected by bob: no)" });
    expect(decideRerun(found('success', 'STAGE_SUCCESS'), 'resume')).toMatchObject({ act: 'adopt', how: 'ended STAGE_SUCCESS' });
  });

  it('none found says why: copies that are not the step own, and this job own builds of other build-params or another rerun-key', () => {
    const r = { id: 'b-7', buildNum: 7 };
    const foreign = [{ row: r, attempt: 1, why: 'mallory started it, not alice' }];
    expect(decideRerun(none({ foreign }), 'resume')).toMatchObject({
      why: expect.stringMatching(
        /^no build .* \(3 builds of this run's job looked at\); build #7 \(b-7\) of attempt 1 \(mallory started it, not alice\) carries this step's message but is not its own, so none is taken$/,
      ),
    });
    const two = [...foreign, { ...foreign[0], row: { id: 'b-8' }, why: 'it was started with another TARGET than this step sends' }];
    expect(decideRerun(none({ foreign: two as never }), 'resume')).toMatchObject({
      why: expect.stringContaining(
        "2 builds carry this step's message but are not its own: build #7 (b-7) of attempt 1 (mallory started it, not alice); build #? (b-8) of attempt 1 (it was started with another TARGET than this step sends), so none is taken",
      ),
    });
    const params = decideRerun(none({ others: [{ row: r, attempt: 1, differs: 'build-params' }] }), 'resume');
    expect(params).toMatchObject({
      why: expect.stringMatching(
        /build #7 \(b-7\), started by attempt 1 of this job, had other build-params .*retry-build, build-id: b-7$/,
      ),
    });
    const key = decideRerun(none({ others: [{ row: r, attempt: 2, differs: 'rerun-key' }] }), 'resume');
    expect(key).toMatchObject({ why: expect.stringMatching(/started by attempt 2 of this job, had another rerun-key/) });
  });
});
