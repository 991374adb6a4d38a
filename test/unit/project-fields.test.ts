import { describe, expect, it } from 'vitest';
import { mergeForUpdate, projectFields } from '../../src/bkci/projects.ts';
import { parseJsonOrYaml } from '../../src/inputs/json-yaml.ts';

/** ProjectVO as bk-ci returns it: ids as strings, nulls, logoAddr instead of logoAddress. */
const VO = {
  englishName: 'demo',
  projectName: 'Demo',
  projectCode: 'demo',
  description: 'old',
  projectType: 0,
  bgId: '12',
  bgName: 'BG',
  businessLineId: null,
  businessLineName: '',
  centerId: '34',
  centerName: 'Center',
  deptId: '56',
  deptName: 'Dept',
  kind: 0,
  secrecy: false,
  hidden: false,
  logoAddr: '',
  properties: {},
  subjectScopes: [],
  authSecrecy: 0,
  productId: null,
  creator: 'alice',
  approvalStatus: 2,
  gray: false,
};

describe('mergeForUpdate', () => {
  it.each([
    [
      'nothing given keeps everything, numbers as numbers',
      {},
      { projectName: 'Demo', description: 'old', bgId: 12, bgName: 'BG', centerId: 34, deptId: 56 },
    ],
    ['a given field wins', { description: 'new' }, { description: 'new', bgId: 12, deptName: 'Dept' }],
    ['a given id wins', { deptId: 99, deptName: 'Other' }, { deptId: 99, deptName: 'Other', bgId: 12 }],
    ['englishName is always the path id', { projectName: 'Renamed' }, { englishName: 'demo', projectName: 'Renamed' }],
  ])('%s', (_, given, expected) => {
    const { body, problems } = mergeForUpdate(VO, given, 'demo');
    expect(problems).toEqual([]);
    expect(body).toMatchObject(expected);
  });

  it('a project with every field set gets every one of them back: none is left for the PUT to reset', () => {
    const full = {
      ...VO,
      businessLineId: '7',
      businessLineName: 'BL',
      ccAppId: '8',
      ccAppName: 'cc',
      logoAddr: 'https://logo.example/l.png',
      productId: 42,
      productName: 'Product',
      kpiCode: 'k-1',
      kpiName: 'KPI',
    };
    const { body, problems } = mergeForUpdate(full, {}, 'demo');
    expect(problems).toEqual([]);
    expect(body).toEqual({
      englishName: 'demo',
      projectName: 'Demo',
      description: 'old',
      projectType: 0,
      bgId: 12,
      bgName: 'BG',
      businessLineId: 7,
      businessLineName: 'BL',
      centerId: 34,
      centerName: 'Center',
      deptId: 56,
      deptName: 'Dept',
      ccAppId: 8,
      ccAppName: 'cc',
      kind: 0,
      secrecy: false,
      hidden: false,
      properties: {},
      subjectScopes: [],
      logoAddress: 'https://logo.example/l.png',
      authSecrecy: 0,
      productId: 42,
      productName: 'Product',
      kpiCode: 'k-1',
      kpiName: 'KPI',
    });
  });

  it.each(['bgId', 'businessLineId', 'centerId', 'deptId', 'ccAppId', 'projectType', 'kind', 'authSecrecy', 'productId'])(
    'sends %s read as digits back as a number',
    (key) => {
      const { body, problems } = mergeForUpdate({ ...VO, [key]: '42' }, {}, 'demo');
      expect(problems).toEqual([]);
      expect(body[key]).toBe(42);
    },
  );

  it('sends only ProjectUpdateInfo fields, and no nulls', () => {
    const { body } = mergeForUpdate(VO, {}, 'demo');
    expect(Object.keys(body).sort()).toEqual(
      [
        'authSecrecy',
        'bgId',
        'bgName',
        'businessLineName',
        'centerId',
        'centerName',
        'deptId',
        'deptName',
        'description',
        'englishName',
        'hidden',
        'kind',
        'projectName',
        'projectType',
        'properties',
        'secrecy',
        'subjectScopes',
      ].sort(),
    );
    expect(Object.values(body)).not.toContain(null);
  });

  it.each([
    ['2^53 + 1', '9007199254740993'],
    ['Long.MAX_VALUE', '9223372036854775807'],
    ['negative', '-9223372036854775808'],
  ])('carries an id beyond 2^53 (%s) to the digit', (_, digits) => {
    const { body, problems } = mergeForUpdate({ ...VO, deptId: digits }, {}, 'demo');
    expect(problems).toEqual([]);
    expect(JSON.stringify(body)).toContain(`"deptId":${digits}`);
  });

  it.each([
    ['bgId', 'n/a'],
    ['deptId', ' 56'],
    ['centerId', '+7'],
    ['bgId', '007'],
    ['centerId', '1.5'],
    ['projectType', 1.5],
  ])('names %s = %j, which cannot go back unchanged, instead of dropping it', (field, value) => {
    const { problems } = mergeForUpdate({ ...VO, [field]: value }, {}, 'demo');
    expect(problems).toEqual([`${field} is ${JSON.stringify(value)}, not a whole number that can be sent back as it is`]);
  });

  it('a field the user gives is no problem, whatever was there', () => {
    const { body, problems } = mergeForUpdate({ ...VO, deptId: ' 56' }, { deptId: 57 }, 'demo');
    expect(problems).toEqual([]);
    expect(body.deptId).toBe(57);
  });

  it('carries logoAddr over as logoAddress', () => {
    expect(mergeForUpdate({ ...VO, logoAddr: 'https://logo' }, {}, 'demo').body).toMatchObject({ logoAddress: 'https://logo' });
  });
});

describe('given ids', () => {
  it.each([
    ['JSON number', '{"deptId": 12345678901234567890}'],
    ['JSON string', '{"deptId": "12345678901234567890"}'],
    ['YAML number', 'deptId: 12345678901234567890'],
    ['YAML string', 'deptId: "12345678901234567890"'],
  ])('%s beyond 2^53 is sent to the digit', async (_, text) => {
    const fields = projectFields.parse(await parseJsonOrYaml(text));
    expect(JSON.stringify(fields)).toBe('{"deptId":12345678901234567890}');
  });

  it('a small YAML integer stays a plain number, and other values are untouched', async () => {
    expect(projectFields.parse(await parseJsonOrYaml('deptId: 12\nkind: 1\nproperties: {a: 2}'))).toEqual({
      deptId: 12,
      kind: 1,
      properties: { a: 2 },
    });
  });
});
