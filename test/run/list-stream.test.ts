// list-projects reads its answer as it arrives: each project checked on its own and written to
// data-file, none kept. What the step says must be what it said when the list was read whole.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OPENAPI_PREFIX } from '../../emulator/server.ts';
import { fetchTransport } from '../../src/http/proxy-transport.ts';
import type { Transport } from '../../src/http/transport.ts';
import type { StepResult } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { useSharedWorld } from '../support/world.ts';

afterAll(cleanupRuns);

const LIST_PATH = `${OPENAPI_PREFIX}projects`;
const PROJECTS = 3000;

// The list only read: one world and one seed for the file.
const w = useSharedWorld({ realTime: true, project: false });
beforeAll(() => {
  for (let i = 0; i < PROJECTS; i++)
    w.emu.seedProject({
      englishName: `p-${i}`,
      projectName: `项目 "${i}" \\ ${'x'.repeat(i % 50)}`,
      creator: 'alice',
      description: i % 3 === 0 ? 'line\nbreak' : 'plain',
    });
});
let temp = '';
beforeEach(async () => {
  temp = await mkdtemp(join(tmpdir(), 'bkci-list-'));
});
afterEach(() => rm(temp, { recursive: true, force: true }));

const list = (inputs: Record<string, string> = {}, transport?: Transport): Promise<StepResult> =>
  runInProcess({
    inputs: {
      operation: 'list-projects',
      'base-url': w.emu.url,
      'access-token': w.accessToken,
      'user-id': 'alice',
      retries: '0',
      ...inputs,
    },
    processEnv: { RUNNER_TEMP: temp },
    ...(transport === undefined ? {} : { transport }),
  });

/** The list as bk-ci sends it, parsed whole: what data-file must hold. */
async function expected(): Promise<string> {
  const res = await fetch(`${w.emu.url}${LIST_PATH}?access_token=${w.accessToken}`, { headers: { 'x-devops-uid': 'alice' } });
  const answer: unknown = await res.json();
  if (typeof answer !== 'object' || answer === null || !('data' in answer)) throw new Error('no data in the list answer');
  w.emu.log.length = 0;
  return JSON.stringify(answer.data);
}

/** A list answer of the given body, instead of the emulator's own. */
const answer = (body: string): void =>
  w.emu.faults.add({ path: LIST_PATH, fault: { kind: 'status', status: 200, body, contentType: 'json' } });

const leftInTemp = async (): Promise<string[]> => readdir(temp);

describe('list-projects, read as the answer arrives', () => {
  it('writes every project to data-file, exactly as a whole read would, over 1 MiB', async () => {
    const want = await expected();
    expect(Buffer.byteLength(want)).toBeGreaterThan(1024 * 1024);
    const r = await list();
    expect(r.code).toBe(0);
    expect(r.outputs.count).toBe(String(PROJECTS));
    expect(r.outputs.data).toBeUndefined();
    expect(await readFile(r.outputs['data-file'] ?? '', 'utf8')).toBe(want);
    expect(await leftInTemp()).toEqual([r.outputs['data-file']?.slice(temp.length + 1)]);
    // The first 50 in the table, the rest counted.
    expect(r.summary).toContain('| p-49 |');
    expect(r.summary).not.toContain('| p-50 |');
    expect(r.summary).toContain(`… and ${PROJECTS - 50} more`);
  });

  it('starts again from nothing when the answer is cut off and the retry succeeds', async () => {
    const want = await expected();
    w.emu.faults.add({ path: LIST_PATH, fault: { kind: 'cut', bytes: 700_000 } });
    const r = await list({ retries: '2', 'retry-delay': '1ms' });
    expect(r.code).toBe(0);
    expect(w.emu.requests({ path: LIST_PATH })).toHaveLength(2);
    expect(r.stdout).toMatch(/network error .*retry 1 of 2/);
    expect(await readFile(r.outputs['data-file'] ?? '', 'utf8')).toBe(want);
    expect(await leftInTemp()).toHaveLength(1);
  });

  it('leaves no half-written file when the answer is cut off for good', async () => {
    w.emu.faults.add({ path: LIST_PATH, fault: { kind: 'cut', bytes: 700_000 } });
    const r = await list();
    failedWith(r, /GET .*projects.*(network error|aborted|socket hang up|terminated|ECONNRESET)/i);
    expect(r.outputs['data-file']).toBeUndefined();
    expect(await leftInTemp()).toEqual([]);
  });

  it.each([
    [
      'a project of the wrong shape, named by its place in the list',
      '{"code":0,"data":[{"englishName":"a","projectName":"A"},{"englishName":"b","projectName":7}]}',
      /data does not have the expected shape \(1: not a project: englishName and projectName must be strings\)/,
    ],
    [
      'three wrong ones at most',
      `{"code":0,"data":[${'{"englishName":1},'.repeat(5)}{"englishName":"a","projectName":"A"}]}`,
      /expected shape \(0: not a project[^;]*; 1: not a project[^;]*; 2: not a project[^;]*\)$/,
    ],
    ['an item that is not JSON', '{"code":0,"data":[{"englishName":"a","projectName":"A"},{oops}]}', /not valid JSON/],
    ['a list cut short', '{"code":0,"data":[{"englishName":"a","projectName":"A"},{"engl', /not valid JSON .*it begins "\{\\"code\\":0/],
    [
      'a wrapper that says failure, whatever the list holds',
      '{"code":2101,"message":"no rights","data":[{"englishName":"a","projectName":"A"}]}',
      /answered HTTP 200 with error status 2101: no rights$/,
    ],
    ['data given twice', '{"code":0,"data":[],"data":[{"englishName":"a","projectName":"A"}]}', /holds "data" more than once/],
    [
      'data that is not a list',
      '{"code":0,"data":{"englishName":"a"}}',
      /expected shape \(data: Invalid input: expected array, received object\)$/,
    ],
    ['an HTML page with 200', '<html><body>login</body></html>', /not valid JSON .*it begins "<html>/],
  ])('fails on %s, and leaves no file', async (_, body, message) => {
    answer(body);
    const r = await list();
    failedWith(r, message);
    expect(r.outputs['data-file']).toBeUndefined();
    expect(await leftInTemp()).toEqual([]);
  });

  it.each([
    ['node:http', undefined],
    ["fetch (the proxy's transport)", fetchTransport(globalThis.fetch)],
  ])('fails on a 204 without a body, over %s', async (_, transport) => {
    w.emu.faults.add({ path: LIST_PATH, fault: { kind: 'status', status: 204, body: '' } });
    const r = await list({}, transport);
    failedWith(r, /answered HTTP 204 with an unexpected body: an empty body$/);
    expect(await leftInTemp()).toEqual([]);
  });

  it.each([
    ['no data at all', '{"code":0,"message":null}', '[]', '0'],
    ['data: null', '{"code":0,"data":null}', '[]', '0'],
    [
      'a byte order mark and spaces',
      '\uFEFF { "code" : 0 , "data" : [ {"englishName":"a","projectName":"A","x":[1,"]"]} ] }',
      '[{"englishName":"a","projectName":"A","x":[1,"]"]}]',
      '1',
    ],
  ])('takes %s', async (_, body, data, count) => {
    answer(body);
    const r = await list();
    expect(r.code).toBe(0);
    expect(r.outputs.count).toBe(count);
    expect(r.outputs.data).toBe(data);
  });
});
