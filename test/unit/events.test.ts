import { describe, expect, it } from 'vitest';
import { CALLBACK_EVENTS as EMULATED_EVENTS } from '../../emulator/callbacks.ts';
import { CALLBACK_EVENTS, REGIONS } from '../../src/bkci/events.ts';
import { splitList } from '../../src/inputs/fields.ts';
import { suggest } from '../../src/inputs/suggest.ts';

describe('splitList', () => {
  it.each([
    ['BUILD_START', ['BUILD_START']],
    ['BUILD_START,BUILD_END', ['BUILD_START', 'BUILD_END']],
    ['BUILD_START, BUILD_END\nPROJECT_CREATE', ['BUILD_START', 'BUILD_END', 'PROJECT_CREATE']],
    ['\n BUILD_START ,,\n\nBUILD_START\n', ['BUILD_START']],
    [' , \n', []],
  ])('%j', (text, events) => expect(splitList(text)).toEqual(events));
});

describe('suggest', () => {
  it.each([
    ['BUILD_FINISH', CALLBACK_EVENTS, undefined],
    ['BUILD_ENDD', CALLBACK_EVENTS, 'BUILD_END'],
    ['build_start', CALLBACK_EVENTS, 'BUILD_START'],
    ['build-end', CALLBACK_EVENTS, 'BUILD_END'],
    ['PIPELINE_CREATE', CALLBACK_EVENTS, undefined],
    ['devnet', REGIONS, 'DEVNET'],
    ['IDX', REGIONS, 'IDC'],
    ['MARS', REGIONS, undefined],
    ['descripton', ['description', 'deptId', 'deptName'], 'description'],
    ['logoAddr', ['logoAddress', 'kind'], 'logoAddress'],
    ['bg-id', ['bgId', 'bgName'], 'bgId'],
    ['colour', ['kind', 'secrecy', 'hidden'], undefined],
  ] as const)('%s → %s', (value, known, expected) => expect(suggest(value, known)).toBe(expected));
});

describe("the callback events, as the action and the emulator each read them from bk-ci's source", () => {
  // Two descriptions of one bk-ci fact, kept apart on purpose (the emulator never takes the
  // action's word); this is where they must agree.
  it('are the same names', () => expect([...CALLBACK_EVENTS].sort()).toEqual([...EMULATED_EVENTS].sort()));
});
