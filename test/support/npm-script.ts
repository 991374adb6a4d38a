// An npm script run as a person runs it from a terminal (`npm start --silent -- …`): its exit
// code and its whole output, stdout and stderr as they came.
import { spawn } from 'node:child_process';

export async function runNpm(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; out: string }> {
  const child = spawn('npm', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const take = (c: Buffer): void => {
    out += c.toString();
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, out };
}
