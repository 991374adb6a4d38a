// The local loop's scripts as their npm scripts run them (`npm start` is `node scripts/demo.ts`,
// `npm run emulator` is `node emulator/cli.ts`), with this Node and without npm's own start (about
// half a second of CPU each), for the tests that are about the script and not about npm. A compile
// cache shared by the file's processes (NODE_COMPILE_CACHE) spares each process after the first
// most of Node's type stripping.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './dist-runner.ts';

/** The command line of `npm start -- …args` (scripts/demo.ts) or `npm run emulator -- …args` (emulator/cli.ts) without npm. */
export function scriptCommand(script: 'start' | 'emulator', args: readonly string[]): [string, string[]] {
  return [process.execPath, [join(ROOT, script === 'start' ? 'scripts/demo.ts' : 'emulator/cli.ts'), ...args]];
}

/** Starts the script with its output piped; `env` is added to this process's environment. */
export function spawnScript(
  script: 'start' | 'emulator',
  args: readonly string[],
  o: { env?: NodeJS.ProcessEnv } = {},
): ChildProcess & { stdout: NonNullable<ChildProcess['stdout']>; stderr: NonNullable<ChildProcess['stderr']> } {
  const [command, argv] = scriptCommand(script, args);
  const child = spawn(command, argv, {
    cwd: ROOT,
    env: { ...process.env, ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return child as ChildProcess & { stdout: NonNullable<ChildProcess['stdout']>; stderr: NonNullable<ChildProcess['stderr']> };
}

/** Runs the script to its end: its exit code and its whole output, stdout and stderr as they came. */
export async function runScript(
  script: 'start' | 'emulator',
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; out: string }> {
  const child = spawnScript(script, args, { env });
  let out = '';
  const take = (c: Buffer): void => {
    out += c.toString();
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, out };
}
