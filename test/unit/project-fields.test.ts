import { describe, expect, it } from 'vitest';
import { mergeForUpdate } from '../../src/project-fields.ts';

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
    expect(mergeForUpdate(VO, given, 'demo')).toMatchObject(expected);
  });

  it('sends only ProjectUpdateInfo fields, and no nulls', () => {
    const body = mergeForUpdate(VO, {}, 'demo');
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

  it('drops an id that is not a number rather than sending text', () => {
    expect(mergeForUpdate({ ...VO, bgId: 'n/a' }, {}, 'demo')).not.toHaveProperty('bgId');
  });

  it('carries logoAddr over as logoAddress', () => {
    expect(mergeForUpdate({ ...VO, logoAddr: 'https://logo' }, {}, 'demo')).toMatchObject({ logoAddress: 'https://logo' });
  });
});
