// A newcomer's wrong base-url, wrong front door or mistyped input: one line that names the cause
// and the fix, said once, for the build operations as for the others. run() in this process, with
// the runner's INPUT_ variables in the environment it is given, on the clock the emulator shares.
// test/dist/first-hour.test.ts keeps the case that needs the step's real environment.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { StepResult } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { useWorld, type World } from '../support/world.ts';

afterAll(cleanupRuns);

const warnings = (stdout: string): string[] => [...stdout.matchAll(/^::warning::(.*)$/gm)].map((m) => m[1] ?? '');
const count = (text: string, part: string): number => text.split(part).length - 1;

/** The step's inputs, given as the runner gives them: read by name, and each an INPUT_ variable (upper case, spaces as `_`, hyphens kept). */
const step = (inputs: Record<string, string>, w?: World): Promise<StepResult> =>
  runInProcess({
    inputs,
    env: Object.fromEntries(Object.entries(inputs).map(([name, v]) => [`INPUT_${name.replace(/ /g, '_').toUpperCase()}`, v])),
    ...(w === undefined ? {} : { clock: w.clock }),
  });

/** Each build operation, with what makes it ask for a build. */
const BUILD_OPS: [string, Record<string, string>][] = [
  ['start-build', { 'pipeline-id': 'p-demo' }],
  ['build-status', { 'build-id': 'b-1', 'pipeline-id': 'p-demo' }],
  ['review-build', { 'build-id': 'b-1', 'pipeline-id': 'p-demo', decision: 'approve' }],
  ['get-project', {}],
];

/** bk-ci with alice, project demo and its pipeline p-demo. */
function useSeeded(): World {
  const w = useWorld();
  beforeEach(() => {
    w.pipeline({ pipelineId: 'p-demo', phases: [{ status: 'RUNNING', ms: 100 }] });
  });
  return w;
}

describe('a base-url that is not bk-ci’s address is named, never blamed on the project or pipeline', () => {
  const w = useSeeded();

  it.each(BUILD_OPS)('%s with base-url ending in /ms: refused before any request, with the address to give', async (operation, inputs) => {
    const r = await step({ operation, 'base-url': `${w.emu.url}/ms/`, 'bk-token': w.bkToken, 'project-id': 'demo', ...inputs }, w);
    failedWith(
      r,
      new RegExp(
        `^bk-ci ${operation} failed: invalid input: base-url ends in /ms, but the action adds /ms/… itself .*: give bk-ci's address without it, here ${w.emu.url.replace(/\./g, '\\.')}\\nNo request was sent\\.$`,
      ),
    );
    expect(r.errors[0]).not.toMatch(/not found|check pipeline-id/);
    expect(w.emu.requests()).toEqual([]);
  });

  it.each(BUILD_OPS)("%s under a path bk-ci's gateway does not route: the base-url is named, once", async (operation, inputs) => {
    const r = await step({ operation, 'base-url': `${w.emu.url}/devops`, 'bk-token': w.bkToken, 'project-id': 'demo', ...inputs }, w);
    failedWith(r, /\/devops\/ms\/auth\/api\/user\/token\/get answered HTTP 404: .*so base-url is not bk-ci's address: give the address/);
    expect(r.errors[0]).not.toMatch(/pipeline p-demo|project demo was not found|may have started/);
    expect(count(r.errors[0] ?? '', "base-url is not bk-ci's address")).toBe(1);
    // A 404 is not retried, and the build was never started.
    expect(w.emu.requests({ path: '/token/get' })).toHaveLength(1);
    expect(w.emu.requests({ path: 'build_start' })).toEqual([]);
  });

  it.each(BUILD_OPS)(
    '%s with an https base-url at a plain-http server: one line, no retries, no OpenSSL dump',
    async (operation, inputs) => {
      const r = await step(
        { operation, 'base-url': w.emu.url.replace('http:', 'https:'), 'bk-token': w.bkToken, 'project-id': 'demo', ...inputs },
        w,
      );
      const host = new URL(w.emu.url).host;
      failedWith(
        r,
        new RegExp(
          `failed: base-url uses https, but ${host.replace(/\./g, '\\.')} answered in plain http \\(TLS said "wrong version number"\\): the server there speaks http, not https\\. Give base-url with http:// for it`,
        ),
      );
      expect(r.stdout).not.toMatch(/retry \d of|ssl3_get_record|SSL routines|may have started/);
      expect(count(r.stdout, 'answered in plain http')).toBe(1);
    },
  );
});

describe("the BlueKing API Gateway's own refusals are its own, said once", () => {
  const w = useWorld({ gateway: {} });
  beforeEach(() => {
    w.pipeline({ pipelineId: 'p-demo', phases: [{ status: 'RUNNING', ms: 100 }] });
  });

  it.each(BUILD_OPS)(
    '%s at a stage root with a path appended: no such resource on the gateway, not a missing pipeline',
    async (operation, inputs) => {
      const r = await step(
        {
          operation,
          gateway: 'bk-apigateway',
          'base-url': `${w.emu.url}/api/devops/prod/v4`,
          'user-id': 'alice',
          'project-id': 'demo',
          ...inputs,
        },
        w,
      );
      failedWith(
        r,
        /answered HTTP 404: the BlueKing API Gateway refused the call: API_NOT_FOUND \(1640401\), .*; the gateway publishes no such resource: check that base-url is the stage root/,
      );
      expect(r.errors[0]).not.toMatch(/was not found|check pipeline-id|may have started/);
      expect(count(r.errors[0] ?? '', 'API_NOT_FOUND')).toBe(1);
    },
  );

  it.each(BUILD_OPS)(
    '%s at the gateway with gateway left at bk-ci: set gateway, said once, and no build looked for',
    async (operation, inputs) => {
      const { bkToken } = w.emu.addUser('bob');
      const r = await step({ operation, 'base-url': w.emu.url, 'bk-token': bkToken, 'project-id': 'demo', ...inputs }, w);
      failedWith(r, /base-url answers as the BlueKing API Gateway .* set gateway: bk-apigateway/);
      expect(count(r.stdout, 'set gateway: bk-apigateway')).toBe(1);
      expect(r.stdout).not.toMatch(/may have started|looking for the build/);
    },
  );
});

describe('a server that knows no token endpoint', () => {
  it('its 404 says base-url is not bk-ci, whatever the body', async () => {
    const server = createServer((_, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not Found');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const r = await step({ operation: 'start-build', 'base-url': url, 'bk-token': 't', 'project-id': 'demo', 'pipeline-id': 'p-demo' });
      failedWith(
        r,
        /token\/get answered HTTP 404: the token endpoint is not at this base-url \("Not Found"\), which every bk-ci has, so base-url is not bk-ci's address: give the address the console is served from/,
      );
      expect(r.errors[0]).not.toMatch(/may have started|was not found/);
    } finally {
      server.close();
    }
  });
});

describe('inputs under names the action does not know', () => {
  const w = useSeeded();
  const known = (inputs: Record<string, string>) => step({ 'base-url': w.emu.url, 'bk-token': w.bkToken, ...inputs }, w);

  it.each([
    ['build-param', { 'pipeline-id': 'p-demo' }, 'APP_VERSION: "1.10"', 'build-params'],
    ['pipeline_id', {}, 'p-demo', 'pipeline-id'],
    ['pipelineId', {}, 'p-demo', 'pipeline-id'],
    ['project id', { 'pipeline-id': 'p-demo' }, 'demo', 'project-id'],
  ])('%s, one slip from an input start-build reads and was not given: refused before any request', async (written, rest, value, meant) => {
    const inputs: Record<string, string> = { operation: 'start-build', 'project-id': 'demo', ...rest, [written]: value };
    if (meant === 'project-id') delete inputs['project-id'];
    const r = await known(inputs);
    expect(r.code, r.stdout).toBe(1);
    expect(r.errors[0]).toContain(`${written.toLowerCase().replace(/ /g, '_')} is not an input of this action: did you mean ${meant}?`);
    expect(r.errors[0]).toContain('No request was sent.');
    expect(w.emu.requests()).toEqual([]);
  });

  it('a slip beside the right input given too is only warned about', async () => {
    const r = await known({ operation: 'get-project', 'project-id': 'demo', project_id: 'demo' });
    expect(r.code, r.stdout).toBe(0);
    expect(warnings(r.stdout)).toEqual([
      'project_id is not an input of this action, so it was ignored: did you mean project-id? (the runner passed it as INPUT_PROJECT_ID)',
    ]);
  });
});

describe('a timeout without a unit', () => {
  const w = useWorld();

  it.each([
    ['30', 'timeout: 30 has no unit, so it was read as 30 seconds; for 30 minutes write timeout: 30m'],
    ['90', 'timeout: 90 has no unit, so it was read as 90 seconds (1m30s); for 90 minutes write timeout: 90m'],
  ])('timeout: %s says how it was read and how to write minutes', async (timeout, said) => {
    const r = await step({ operation: 'get-project', ...w.connection(), timeout }, w);
    expect(r.code).toBe(0);
    expect(warnings(r.stdout)).toEqual([
      `${said} (unlike timeout-minutes, a bare number here is seconds), or write ${timeout}s to keep seconds and not see this warning`,
    ]);
  });

  it.each(['5', '30s', '30m', '1h'])('timeout: %s is not warned about', async (timeout) => {
    const r = await step({ operation: 'get-project', ...w.connection(), timeout }, w);
    expect(r.code).toBe(0);
    expect(warnings(r.stdout)).toEqual([]);
  });
});
