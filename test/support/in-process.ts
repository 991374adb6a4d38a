import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../src/base/clock.ts';
import type { Transport } from '../../src/http/transport.ts';
import { run } from '../../src/main.ts';
import { releaseHeld } from '../../src/runner/streams.ts';
import { parseOutputFile, readActionYml, type StepResult, unescapeData } from './dist-runner.ts';
import type { World } from './world.ts';

let defaults: Record<string, string> | undefined;

/** action.yml's defaults, as the runner fills them in. */
async function actionDefaults(): Promise<Record<string, string>> {
  if (defaults === undefined) {
    const yml = await readActionYml();
    defaults = Object.fromEntries(
      Object.entries(yml.inputs)
        .filter(([, spec]) => spec.default !== undefined)
        .map(([name, spec]) => [name, String(spec.default)]),
    );
  }
  return defaults;
}

export interface InProcessOptions {
  inputs: Record<string, string>;
  clock?: Clock;
  /** The environment the step reads proxies from; none by default. */
  env?: NodeJS.ProcessEnv;
  transport?: Transport;
  /** Run after run() returns, while stdout and stderr are still captured (a late warning, say). */
  after?: () => Promise<void> | void;
  /** Set in process.env for the run: RUNNER_TEMP and the like. */
  processEnv?: Record<string, string>;
}

const dirs: string[] = [];

/**
 * One summary file for every run of this worker: @actions/core's summary keeps the path it first
 * read (a real step calls run() once), so each run empties this file instead of getting its own.
 */
const summaryFile = join(tmpdir(), `bkci-summary-${process.pid}-${Math.random().toString(36).slice(2)}.md`);

/**
 * run() in this process, as the runner would start it: action.yml's defaults under the given
 * inputs, fresh GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, stdout and stderr captured. Tests in one file
 * run one at a time, so capturing stdout is safe.
 */
export async function runInProcess(o: InProcessOptions): Promise<StepResult> {
  const work = await mkdtemp(join(tmpdir(), 'bkci-run-'));
  dirs.push(work);
  const temp = join(work, 'runner-temp');
  await mkdir(temp);
  const files = { GITHUB_OUTPUT: join(work, 'output'), GITHUB_STEP_SUMMARY: summaryFile };
  await Promise.all(Object.values(files).map((f) => writeFile(f, '')));
  const inputs = { ...(await actionDefaults()), ...o.inputs };
  const env = { ...files, RUNNER_TEMP: temp, ...o.processEnv };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  const savedExit = process.exitCode;
  process.exitCode = undefined;
  const captured = { stdout: '', stderr: '' };
  const capture = (name: 'stdout' | 'stderr') =>
    ((chunk: string | Uint8Array): boolean => {
      captured[name] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
      return true;
    }) as typeof process.stdout.write;
  const write = { stdout: process.stdout.write, stderr: process.stderr.write };
  process.stdout.write = capture('stdout');
  process.stderr.write = capture('stderr');
  const started = Date.now();
  try {
    await run({
      getInput: (name) => (inputs[name] ?? '').trim(),
      // The runner's environment as run() reads it: its temp folder and workspace, and what the test gives.
      env: { RUNNER_TEMP: env.RUNNER_TEMP, GITHUB_WORKSPACE: join(work, 'workspace'), ...o.env },
      random: () => 0,
      ownsProcess: false,
      ...(o.clock === undefined ? {} : { clock: o.clock }),
      ...(o.transport === undefined ? {} : { transport: o.transport }),
    });
  } finally {
    await o.after?.();
    // What the writer held back of a late write (it may have begun a secret) is captured too.
    releaseHeld();
    process.stdout.write = write.stdout;
    process.stderr.write = write.stderr;
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  const { stdout, stderr } = captured;
  const code = process.exitCode === 1 ? 1 : 0;
  process.exitCode = savedExit;
  return {
    code,
    stdout,
    stderr,
    outputs: parseOutputFile(await readFile(files.GITHUB_OUTPUT, 'utf8')),
    summary: await readFile(files.GITHUB_STEP_SUMMARY, 'utf8'),
    errors: [...stdout.matchAll(/^::error::(.*)$/gm)].map((m) => unescapeData(m[1] ?? '')),
    durationMs: Date.now() - started,
  };
}

/** Removes what the runs left behind; outputs such as data-file point into it until then. */
export async function cleanupRuns(): Promise<void> {
  await Promise.all([...dirs.splice(0), summaryFile].map((d) => rm(d, { recursive: true, force: true })));
}

/**
 * A step against a world: run() in this process with the world's connection (base-url, bk-token,
 * project-id) and clock, `base` under each call's inputs. The world is read at each call, so this
 * works with useWorld()'s fresh world per test.
 */
export function stepIn(w: World, base: Record<string, string> = {}) {
  return (inputs: Record<string, string> = {}, o: Omit<InProcessOptions, 'inputs'> = {}): Promise<StepResult> =>
    runInProcess({ clock: w.clock, ...o, inputs: { ...w.connection(), ...base, ...inputs } });
}

/** The pipeline the world's tests start (p-app), polled once a second. */
export const P_APP = { 'pipeline-id': 'p-app', 'poll-interval': '1s' } as const;
