// The runner's streams, through the built action: whatever reaches stdout or stderr (a library's
// warning quoting an input, Node's own warnings, an error nobody caught), the runner, reading both
// streams, finds no command but the action's own, and commands are never stopped. Only a process
// shows this: Node's own writes (warnings, an uncaught error) and a library loaded before the
// action (NODE_OPTIONS) reach the real streams past run(). The steps run at the same time.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { parseJsonOrYaml } from '../../src/inputs/json-yaml.ts';
import { guardStream } from '../../src/runner/streams.ts';
import { runStep, type StepResult, useInstalledAction } from '../support/dist-runner.ts';
import { failedWith } from '../support/expect-step.ts';
import { RunnerReader } from '../support/runner-commands.ts';
import { worldForTest } from '../support/world.ts';

const installed = useInstalledAction({ beforeAll, afterAll });

/** Both streams as the runner reads them; stderr first, the worse order for a stop-commands. */
const read = (r: StepResult): RunnerReader => new RunnerReader().read(r.stderr, 'stderr').read(r.stdout, 'stdout');

/** What only the action may say: masks, its log, its one error annotation. */
const OWN = new Set(['add-mask', 'debug', 'warning', 'error', 'set-output']);

/** This test's world (an emulator and alice, no project), in real time. */
const worldFor = (test: TestContext) => worldForTest({ realTime: true, project: false }, test);

/** A module Node loads before the action (NODE_OPTIONS=--import), standing in for a library that misbehaves. */
async function preload(test: TestContext, source: string): Promise<Record<string, string>> {
  const hooks = await mkdtemp(join(tmpdir(), 'bkci-hooks-'));
  test.onTestFinished(() => rm(hooks, { recursive: true, force: true }));
  const file = join(hooks, 'hook.mjs');
  await writeFile(file, source);
  return { NODE_OPTIONS: `--import=${file}` };
}

const HOSTILE = 'PR: !<x> ##[stop-commands]tok\n::error::pwned\n  ::add-mask::a';

describe.concurrent('stdout and stderr, one writer', () => {
  it('a YAML tag in build-params with pasted PR text is refused; nothing of it becomes a command on either stream', async (test) => {
    const { expect } = test;
    const w = await worldFor(test);
    const r = await runStep(installed(), {
      inputs: {
        operation: 'start-build',
        'base-url': w.emu.url,
        'bk-token': w.bkToken,
        'project-id': 'demo',
        'pipeline-id': 'p-1',
        'build-params': 'PR_TITLE: !<x> ##[stop-commands]tok',
      },
    });
    failedWith(r, /build-params .*a YAML tag \(such as !!int\) cannot apply to a value sent as text/, expect);
    const reader = read(r);
    expect(reader.stopped).toBe(false);
    expect(reader.commands.filter((c) => c.stream === 'stderr' || !OWN.has(c.name))).toEqual([]);
    expect(w.emu.requests()).toEqual([]);
  });

  it('a warning on stderr while the token is being issued neither stops commands nor unmasks the token', async (test) => {
    const { expect } = test;
    const w = await worldFor(test);
    const env = await preload(
      test,
      `import { subscribe } from 'node:diagnostics_channel';
       subscribe('http.client.request.start', () => process.emitWarning(${JSON.stringify(HOSTILE)}, 'YAMLWarning'));`,
    );
    const r = await runStep(installed(), {
      inputs: { operation: 'get-token', 'base-url': w.emu.url, 'bk-token': w.bkToken },
      env,
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // The warning did reach stderr, defused.
    expect(r.stderr).toContain('stop-commands]tok');
    const reader = read(r);
    expect(reader.stopped).toBe(false);
    expect(reader.commands.filter((c) => c.stream === 'stderr')).toEqual([]);
    const masks = reader.commands.filter((c) => c.name === 'add-mask').map((c) => c.data);
    expect(masks).toContain(r.outputs['access-token']);
  });

  it('an error nobody caught is said through the writer, and fails the step', async (test) => {
    const { expect } = test;
    const w = await worldFor(test);
    const env = await preload(
      test,
      `process.once('beforeExit', () => { throw new Error(${JSON.stringify(`late ${HOSTILE}`)}); });
       process.once('beforeExit', () => Promise.reject(new Error('##[error]rejected')));`,
    );
    const r = await runStep(installed(), {
      inputs: { operation: 'get-token', 'base-url': w.emu.url, 'bk-token': w.bkToken },
      env,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bk-ci action: an unexpected error: Error: late/);
    const reader = read(r);
    expect(reader.stopped).toBe(false);
    expect(reader.commands.filter((c) => c.stream === 'stderr')).toEqual([]);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('random YAML with tags, anchors and pasted text', () => {
  const pasted = fc.constantFrom(
    '##[stop-commands]tok',
    '::error::x',
    '\n::add-mask::y',
    '# c',
    '&a',
    '*a',
    '!<x>',
    '!!binary',
    '!custom',
    '%TAG',
  );
  const scalar = fc.oneof(fc.string({ maxLength: 8 }), pasted);
  const line = fc
    .tuple(fc.constantFrom('k', 'PR_TITLE', 'a b', '"q"'), fc.array(scalar, { maxLength: 4 }))
    .map(([k, parts]) => `${k}: ${parts.join(' ')}`);

  it('is read as written or refused, and nothing the parser says reaches stderr as a command', async () => {
    const captured: string[] = [];
    const stream = { write: (c: string | Uint8Array): boolean => captured.push(String(c)) > 0 } as unknown as NodeJS.WriteStream;
    guardStream(stream);
    const write = process.stderr.write;
    process.stderr.write = stream.write;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 4 }), async (lines) => {
          const text = lines.join('\n');
          await parseJsonOrYaml(text).catch(() => undefined);
          // Warnings go out on the next tick.
          await new Promise((r) => setImmediate(r));
        }),
        { numRuns: 200 },
      );
    } finally {
      process.stderr.write = write;
    }
    // The parser reports nothing on its own: what it would warn about is the input's refusal.
    expect(captured.join('')).toBe('');
  });
});
