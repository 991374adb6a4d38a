import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

export const ROOT = resolve(import.meta.dirname, '..', '..');

export interface StepResult {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  /** `::error::` annotations, unescaped. */
  errors: string[];
  durationMs: number;
}

interface ActionYml {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs: Record<string, unknown>;
}

/** Parsed action.yml by its text: every step of a suite reads the same file, and parsing it is what costs. */
const parsedYml = new Map<string, ActionYml>();

export async function readActionYml(root = ROOT): Promise<ActionYml> {
  const text = await readFile(join(root, 'action.yml'), 'utf8');
  let yml = parsedYml.get(text);
  if (yml === undefined) {
    yml = parse(text) as ActionYml;
    parsedYml.set(text, yml);
  }
  return yml;
}

/** A copy of the action as a workflow checks it out: action.yml, dist/, package.json, and no node_modules. */
export async function installAction(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bkci-action-'));
  await cp(join(ROOT, 'action.yml'), join(dir, 'action.yml'));
  await cp(join(ROOT, 'package.json'), join(dir, 'package.json'));
  await cp(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
  return dir;
}

/** GITHUB_OUTPUT in both of the runner's forms: `k=v` and `k<<DELIM … DELIM`. */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name = '', delim] = heredoc;
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== delim; i++) value.push(lines[i] ?? '');
      out[name] = value.join('\n');
    } else if (line.includes('=')) {
      out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return out;
}

export const unescapeData = (s: string): string => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');

export interface RunStepOptions {
  inputs: Record<string, string>;
  env?: Record<string, string>;
  /** Called with each chunk of the step's stdout and stderr as it comes. */
  echo?: (chunk: string, stream: 'stdout' | 'stderr') => void;
  /** Called once the process has started; e.g. to send it a signal. */
  onSpawn?: (kill: (signal: NodeJS.Signals) => void, output: () => string) => void;
}

/**
 * Runs `node dist/index.js` as the runner does: action.yml defaults merged under the given
 * inputs as INPUT_<NAME> (hyphens kept), a clean environment, and the file commands.
 */
export async function runStep(actionDir: string, options: RunStepOptions): Promise<StepResult> {
  const yml = await readActionYml(actionDir);
  const work = await mkdtemp(join(tmpdir(), 'bkci-step-'));
  const temp = join(work, 'runner-temp');
  await mkdir(temp);
  const files = { GITHUB_OUTPUT: 'output', GITHUB_STEP_SUMMARY: 'summary', GITHUB_ENV: 'env', GITHUB_PATH: 'path', GITHUB_STATE: 'state' };
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    RUNNER_TEMP: temp,
    GITHUB_WORKSPACE: work,
    GITHUB_ACTION_PATH: actionDir,
    GITHUB_ACTIONS: 'true',
    CI: 'true',
  };
  for (const [name, file] of Object.entries(files)) {
    await writeFile(join(work, file), '');
    env[name] = join(work, file);
  }
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(yml.inputs)) if (spec.default !== undefined) inputs[name] = String(spec.default);
  Object.assign(inputs, options.inputs);
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  Object.assign(env, options.env);

  const started = Date.now();
  const child = spawn(process.execPath, [join(actionDir, 'dist', 'index.js')], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
    options.echo?.(c.toString(), 'stdout');
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
    options.echo?.(c.toString(), 'stderr');
  });
  options.onSpawn?.(
    (signal) => child.kill(signal),
    () => stdout,
  );
  const code = await new Promise<number | null>((res) => child.on('close', (c) => res(c)));
  const durationMs = Date.now() - started;
  const result: StepResult = {
    code,
    stdout,
    stderr,
    outputs: parseOutputFile(await readFile(env.GITHUB_OUTPUT ?? '', 'utf8')),
    // A summary the step could not write (a test points the runner's file somewhere unwritable) reads as none.
    summary: await readFile(env.GITHUB_STEP_SUMMARY ?? '', 'utf8').catch(() => ''),
    errors: [...stdout.matchAll(/^::error::(.*)$/gm)].map((m) => unescapeData(m[1] ?? '')),
    durationMs,
  };
  stepDirs.push(work);
  return result;
}

const stepDirs: string[] = [];

/** Removes what runStep left behind; outputs such as data-file point into it until then. */
export async function cleanupSteps(): Promise<void> {
  await Promise.all(stepDirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/**
 * For a suite of black-box tests: the built action installed once, without node_modules, and
 * everything its steps left removed at the end. Returns the installed folder.
 */
export function useInstalledAction(hooks: {
  beforeAll: (fn: () => Promise<void>) => void;
  afterAll: (fn: () => Promise<void>) => void;
}): () => string {
  let dir = '';
  hooks.beforeAll(async () => {
    dir = await installAction();
    // What the runner has: action.yml and dist/, no node_modules beside them.
    if (existsSync(join(dir, 'node_modules'))) throw new Error(`${dir} has node_modules: the built action must run without them`);
  });
  hooks.afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await cleanupSteps();
  });
  return () => dir;
}

/**
 * Runs the step and sends it SIGINT, as a cancelled job's runner does, `delayMs` after `seen()`
 * first holds (bk-ci got the request a cancel should meet in flight); the exit measured from the signal.
 */
export async function runCancelledWhen(
  actionDir: string,
  options: RunStepOptions,
  seen: () => boolean,
  delayMs = 150,
): Promise<{ r: StepResult; exitMs: number }> {
  let signalledAt = 0;
  const r = await runStep(actionDir, {
    ...options,
    onSpawn: (kill) => {
      const timer = setInterval(() => {
        if (!seen()) return;
        clearInterval(timer);
        setTimeout(() => {
          signalledAt = Date.now();
          kill('SIGINT');
        }, delayMs);
      }, 10);
    },
  });
  return { r, exitMs: Date.now() - signalledAt };
}
