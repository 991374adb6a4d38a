// Whose an earlier attempt's build is (src/pipeline/rerun-own.ts), and whether a retry's task id is
// one of the build's (src/pipeline/rerun-task.ts): tables over a history row and a model.
import { describe, expect, it } from 'vitest';
import type { BuildParameter, HistoryPage } from '../../src/bkci/build-history.ts';
import { type BuildDetail, buildDetail } from '../../src/bkci/builds.ts';
import { notOwn, type StepOwner } from '../../src/pipeline/rerun-own.ts';
import { taskIds, unknownTask } from '../../src/pipeline/rerun-task.ts';

type Row = NonNullable<HistoryPage['records']>[number];

const own: StepOwner = {
  user: 'alice',
  values: { TARGET: 'linux', EMPTY: '', BK_CI_MATERIAL_ID: 'abc1234', BK_CI_BUILD_MSG: 'not compared here' },
};
const declared = (key: string, value: unknown, defaultValue: unknown = '', more: Record<string, unknown> = {}): BuildParameter => ({
  key,
  value,
  readOnly: false,
  defaultValue,
  ...more,
});
const material: BuildParameter = { key: 'BK_CI_MATERIAL_ID', value: 'abc1234', readOnly: true };
const params: BuildParameter[] = [declared('TARGET', 'linux'), declared('EMPTY', ''), material];
const row = (more: Partial<Row> = {}): Pick<Row, 'userId' | 'buildParameters'> => ({ userId: 'alice', buildParameters: params, ...more });
const swap = (key: string, p: BuildParameter): BuildParameter[] => params.map((x) => (x.key === key ? p : x));

describe('whose an earlier build is: its starter and its start parameters', () => {
  it.each<[string, Pick<Row, 'userId' | 'buildParameters'>, typeof own, string | undefined]>([
    ['started as this step, with what it sends', row(), own, undefined],
    [
      'a parameter the pipeline does not declare is dropped by bk-ci: not missing',
      row(),
      { ...own, values: { ...own.values, UNDECLARED: 'x' } },
      undefined,
    ],
    [
      'a declared parameter it does not send, at its default',
      row({ buildParameters: [...params, declared('CHANNEL', 'beta', 'beta')] }),
      own,
      undefined,
    ],
    [
      'a value typed by bk-ci, the same text',
      row({ buildParameters: swap('TARGET', declared('TARGET', 7)) }),
      { ...own, values: { ...own.values, TARGET: '7' } },
      undefined,
    ],
    ['a read-only parameter of bk-ci own', row({ buildParameters: [...params, { key: 'BK_CI_RETRY_COUNT', value: '2' }] }), own, undefined],
    [
      'a parameter bk-ci shows no default of',
      row({ buildParameters: [...params, { key: 'X', value: '2', readOnly: false }] }),
      own,
      undefined,
    ],
    [
      'a password bk-ci hides',
      row({ buildParameters: swap('TARGET', declared('TARGET', '******', '', { sensitive: true })) }),
      own,
      undefined,
    ],
    ['the message is not compared here', row({ buildParameters: [...params, declared('BK_CI_BUILD_MSG', 'other', '')] }), own, undefined],
    ['another user started it', row({ userId: 'mallory' }), own, 'mallory started it, not alice'],
    ['bk-ci names no starter', row({ userId: null }), own, 'bk-ci does not say who started it'],
    [
      'the step does not know its user',
      row(),
      { ...own, user: '' },
      'the user this step calls bk-ci as is not known (set user-id), so who started it cannot be checked',
    ],
    ['no parameters shown', row({ buildParameters: null }), own, 'bk-ci does not show the parameters it was started with'],
    [
      'another value of one it sends',
      row({ buildParameters: swap('TARGET', declared('TARGET', 'mac')) }),
      own,
      'it was started with another TARGET than this step sends',
    ],
    [
      'an empty value it sends, set',
      row({ buildParameters: swap('EMPTY', declared('EMPTY', 'x')) }),
      own,
      'it was started with another EMPTY than this step sends',
    ],
    [
      'other material',
      row({ buildParameters: swap('BK_CI_MATERIAL_ID', { ...material, value: 'f00' }) }),
      own,
      'it was started with another BK_CI_MATERIAL_ID than this step sends',
    ],
    [
      'no material, which bk-ci always keeps',
      row({ buildParameters: params.filter((p) => p !== material) }),
      own,
      'it was started without BK_CI_MATERIAL_ID, which this step sends',
    ],
    [
      'one it does not send, set off its default',
      row({ buildParameters: [...params, declared('CHANNEL', 'prod', 'beta')] }),
      own,
      'it was started with CHANNEL set, which this step does not send',
    ],
    [
      'one it does not send, set when its default is empty',
      row({ buildParameters: [...params, declared('DEBUG', 'true', '')] }),
      own,
      'it was started with DEBUG set, which this step does not send',
    ],
  ])('%s', (_, r, step, why) => {
    expect(notOwn(r, step)).toBe(why);
  });

  it.each<[string, unknown, string]>([
    ['null is empty', null, ''],
    ['none is empty', undefined, ''],
    ['a boolean', true, 'true'],
    ['a list, as JSON', ['a', 'b'], '["a","b"]'],
    ['an object, as JSON', { a: 1 }, '{"a":1}'],
  ])('a value bk-ci gives back typed is compared as text: %s', (_, value, text) => {
    const typed = row({ buildParameters: swap('TARGET', declared('TARGET', value)) });
    expect(notOwn(typed, { ...own, values: { ...own.values, TARGET: text } })).toBeUndefined();
    expect(notOwn(typed, { ...own, values: { ...own.values, TARGET: `${text}x` } })).toBe(
      'it was started with another TARGET than this step sends',
    );
  });

  it('what a row without the message or the material is checked against', () => {
    const bare: StepOwner = { user: 'alice', values: { TARGET: 'linux', EMPTY: '' } };
    expect(notOwn(row({ buildParameters: undefined }), own)).toBe('bk-ci does not show the parameters it was started with');
    // bk-ci's own message and read-only parameters are not start values the step chose.
    expect(notOwn(row({ buildParameters: [...params, declared('BK_CI_BUILD_MSG', 'x', '')] }), bare)).toBeUndefined();
    expect(
      notOwn(row({ buildParameters: [...params, { key: 'BK_CI_X', value: '2', readOnly: true, defaultValue: '1' }] }), bare),
    ).toBeUndefined();
    expect(notOwn(row({ buildParameters: [...params, declared('NO_DEFAULT', 'x', null)] }), bare)).toBeUndefined();
    for (const key of ['BK_CI_MATERIAL_NAME', 'BK_CI_MATERIAL_URL'])
      expect(notOwn(row(), { ...own, values: { ...own.values, [key]: 'x' } })).toBe(`it was started without ${key}, which this step sends`);
  });

  it('names no value: a value may be a secret', () => {
    const why = notOwn(row({ buildParameters: swap('TARGET', declared('TARGET', 's3cr3t-value')) }), own) ?? '';
    expect(why).not.toMatch(/s3cr3t|linux/);
  });
});

const model: BuildDetail = buildDetail.parse({
  id: 'b-1',
  model: {
    stages: [
      { id: 'stage-1', name: 'stage-1', containers: [{ id: '0', elements: [{ id: 'T-1-1-1' }] }] },
      { id: 'stage-2', name: 'Build', containers: [{ id: '1', elements: [{ id: 'e-1', stepId: 'compile' }] }] },
      {
        id: 'stage-3',
        name: 'Release',
        containers: [
          {
            id: '2',
            elements: [
              { id: 'e-2', stepId: 'upload' },
              { id: 'e-3', stepId: '' },
            ],
          },
        ],
      },
    ],
  },
});

describe('a retry task id, checked against the build model before anything is sent', () => {
  it('knows the ids bk-ci finds: stages, jobs (container ids), steps (element ids and stepIds)', () => {
    expect(taskIds(model)).toEqual({
      ids: ['stage-1', '0', 'T-1-1-1', 'stage-2', '1', 'e-1', 'compile', 'stage-3', '2', 'e-2', 'upload', 'e-3'],
      stages: ['stage-1', 'stage-2 (Build)', 'stage-3 (Release)'],
    });
    for (const id of ['stage-3', '2', 'e-2', 'upload']) expect(unknownTask(id, 'b-1', model)).toBeUndefined();
  });

  it.each<[string, string | undefined]>([
    ['failed', 'failed-jobs'],
    ['FAILED_JOBS', 'failed-jobs'],
    ['stage-4', 'stage-1'],
    ['uplaod', 'upload'],
    ['Stage-3', 'stage-3'],
    ['e-9', 'e-1'],
    ['zzzzzzzzzz', undefined],
    ['al', 'all'],
  ])('%s is refused, naming %s and the stages', (id, near) => {
    const said = unknownTask(id, 'b-1', model) ?? '';
    expect(said).toMatch(new RegExp(`^retry: ${id} is no task of build b-1`));
    expect(said).toContain(near === undefined ? 'build b-1, and bk-ci would retry the whole build' : `(did you mean ${near}?)`);
    expect(said).toContain('nothing was sent');
    expect(said).toMatch(/its stages: stage-1, stage-2 \(Build\), stage-3 \(Release\)$/);
  });

  it('a value of no letters or digits names nothing', () => {
    const one = buildDetail.parse({ id: 'b-1', model: { stages: [{ id: 'stage-1', name: 'Trigger' }] } });
    expect(unknownTask('--', 'b-1', one)).toMatch(/^retry: -- is no task of build b-1, and bk-ci/);
  });

  it('a model without stages', () => {
    expect(unknownTask('stage-1', 'b-1', buildDetail.parse({ id: 'b-1' }))).toMatch(/its stages: none$/);
  });
});
