// `npm run bench`: prints what the action costs a user. Figures, never assertions.
//   1. cold start of `node dist/index.js` (get-project) against a bare Node fetch of the same GET
//   2. the size of dist/
//   3. waiting: polls sent and detection delay (step end - task end)
//   4. peak RSS of list-projects over 20,000 projects
// Options: --rounds N (cold-start pairs, default 21), --quick (skip the 20 s waits).
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { installAction, readActionYml } from '../emulator/runner.ts';
import { startEmulator } from '../emulator/server.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '21' }, quick: { type: 'boolean', default: false } } });
const rounds = Number(values.rounds);
const work = await mkdtemp(join(tmpdir(), 'bkci-bench-'));
const actionDir = await installAction();
const defaults = Object.fromEntries(
  Object.entries((await readActionYml(actionDir)).inputs)
    .filter(([, i]) => i.default !== undefined)
    .map(([n, i]) => [`INPUT_${n.toUpperCase()}`, String(i.default)]),
);

interface Run {
  ms: number;
  code: number | null;
  stdout: string;
  endedAt: number;
}

function run(args: string[], env: Record<string, string>): Promise<Run> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stdout += c.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, code, stdout, endedAt: Date.now() })),
  );
}

async function stepEnv(inputs: Record<string, string>): Promise<Record<string, string>> {
  const dir = await mkdtemp(join(work, 'step-'));
  await writeFile(join(dir, 'output'), '');
  await writeFile(join(dir, 'summary'), '');
  const env: Record<string, string> = {
    ...defaults,
    RUNNER_TEMP: dir,
    GITHUB_OUTPUT: join(dir, 'output'),
    GITHUB_STEP_SUMMARY: join(dir, 'summary'),
  };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  return env;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};
const fmt = (ms: number): string => `${ms.toFixed(0)} ms`;
const rows: [string, string, string][] = [];

// 1. Cold start.
{
  const emu = await startEmulator({ flavour: 'bkci' });
  const { token } = emu.addUser('alice');
  emu.seedProject({ englishName: 'demo', projectName: 'Demo', creator: 'alice' });
  const bare = join(work, 'bare.mjs');
  await writeFile(
    bare,
    "const r = await fetch(process.env.URL, { headers: { accept: 'application/json', 'content-type': 'application/json', 'x-devops-uid': 'alice' } });\n" +
      'const body = await r.json();\nif (body.code !== 0) process.exit(1);\n',
  );
  const bareEnv = { URL: `${emu.url}/ms/openapi/api/apigw/v3/projects/demo?access_token=${token.accessToken}` };
  const actionEnv = await stepEnv({
    operation: 'get-project',
    'base-url': emu.url,
    'access-token': token.accessToken,
    'user-id': 'alice',
    'project-id': 'demo',
  });
  const action: number[] = [];
  const fetchOnly: number[] = [];
  for (let i = 0; i < 2; i++) await run([bare], bareEnv); // warm the file cache
  for (let i = 0; i < rounds; i++) {
    const a = await run([join(actionDir, 'dist', 'index.js')], actionEnv);
    if (a.code !== 0) throw new Error(`the action failed:\n${a.stdout}`);
    action.push(a.ms);
    const b = await run([bare], bareEnv);
    if (b.code !== 0) throw new Error(`the bare fetch failed:\n${b.stdout}`);
    fetchOnly.push(b.ms);
  }
  const ratio = median(action) / median(fetchOnly);
  rows.push(['cold start: node dist/index.js get-project (median)', fmt(median(action)), `${rounds} runs, alternated`]);
  rows.push(['cold start: bare Node fetch of the same GET (median)', fmt(median(fetchOnly)), `${rounds} runs`]);
  rows.push(['cold start ratio', `${ratio.toFixed(2)} ×`, 'target ≤ 1.25 ×']);
  await emu.close();
}

// 2. dist/ size.
{
  let bytes = 0;
  let gz = 0;
  const files = await readdir(join(actionDir, 'dist'));
  for (const f of files) {
    bytes += (await stat(join(actionDir, 'dist', f))).size;
    gz += gzipSync(await readFile(join(actionDir, 'dist', f))).length;
  }
  rows.push(['dist/ size', `${(bytes / 1024).toFixed(0)} KiB`, `${files.length} files, ${(gz / 1024).toFixed(0)} KiB gzipped`]);
}

// 3. Waiting.
{
  const cases = values.quick
    ? [
        [3000, 5000],
        [3000, 1000],
      ]
    : [
        [3000, 5000],
        [3000, 1000],
        [20_000, 5000],
        [20_000, 1000],
      ];
  for (const [taskMs = 0, intervalMs = 0] of cases) {
    const emu = await startEmulator({ flavour: 'bkci' });
    const { bkToken } = emu.addUser('alice');
    const task = emu.seedSign({ resignId: 's-bench', runningMs: taskMs });
    const env = await stepEnv({
      operation: 'sign-detail',
      'base-url': emu.url,
      'bk-token': bkToken,
      'resign-id': 's-bench',
      'poll-interval': `${intervalMs}ms`,
    });
    const r = await run([join(actionDir, 'dist', 'index.js')], env);
    if (r.code !== 0) throw new Error(`sign-detail failed:\n${r.stdout}`);
    const polls = emu.requests({ path: '/detail' }).length;
    const connections = new Set(emu.requests().map((q) => q.remotePort)).size;
    const expected = Math.ceil(taskMs / intervalMs) + 1;
    const delay = r.endedAt - (task.createdAt + taskMs);
    rows.push([
      `wait: task ends after ${taskMs / 1000} s, poll-interval ${intervalMs / 1000} s`,
      `${fmt(delay)} detection delay`,
      `${polls} polls (⌈T/i⌉+1 = ${expected}), ${connections} connection${connections === 1 ? '' : 's'}; target ≤ ${fmt(intervalMs + 300)}`,
    ]);
    await emu.close();
  }
}

// 4. Peak RSS of list-projects over 20,000 projects.
{
  const emu = await startEmulator({ flavour: 'bkci' });
  const { token } = emu.addUser('alice');
  for (let i = 0; i < 20_000; i++) {
    emu.seedProject({
      englishName: `project-${i}`,
      projectName: `Project number ${i}`,
      description: 'A project seeded for the benchmark',
      creator: 'alice',
      bgName: 'Games',
      deptName: 'Mobile',
    });
  }
  const reporter = join(work, 'rss.mjs');
  await writeFile(reporter, "process.on('exit', () => process.stderr.write('maxRSS ' + process.resourceUsage().maxRSS + '\\n'));\n");
  const env = await stepEnv({ operation: 'list-projects', 'base-url': emu.url, 'access-token': token.accessToken, 'user-id': 'alice' });
  const r = await run(['--import', reporter, join(actionDir, 'dist', 'index.js')], env);
  if (r.code !== 0) throw new Error(`list-projects failed:\n${r.stdout}`);
  const kb = Number(/maxRSS (\d+)/.exec(r.stdout)?.[1]);
  const bodyBytes = Buffer.byteLength(JSON.stringify({ code: 0, data: [...emu.projects.values()].length }));
  rows.push([
    'peak RSS: list-projects, 20,000 projects',
    `${(kb / 1024).toFixed(0)} MB`,
    `target ≤ 150 MB; ${fmt(r.ms)} in all${bodyBytes ? '' : ''}`,
  ]);
  await emu.close();
}

await rm(work, { recursive: true, force: true });
await rm(actionDir, { recursive: true, force: true });

const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]?.length ?? 0), 6));
const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
console.log(
  `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${new Date().toISOString().slice(0, 10)}\n`,
);
console.log(line(['measure', 'value', 'notes']));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of rows) console.log(line(r));
