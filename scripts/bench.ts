// `npm run bench`: prints what the action costs a user. Figures, never assertions.
//   1. cold start, alternated: a bare Node fetch of the same GET (the floor), the action, the two
//      peers (BENCHMARKS.md says which), a first-poll sign-detail and a three-request update;
//      the runner download (git archive of HEAD, gzipped)
//   2. the size of dist/
//   3. waiting: polls sent and detection delay (step end - task end)
//   4. peak RSS of list-projects over 20,000 projects
//   5. following a build's 10,000-line log live: log requests per poll, CPU, peak RSS, lines once
//   6. the build's files: a 1 GiB file by curl, by curl piped to sha256sum and by the action
//      (download-artifacts), alternated; the action's peak RSS for a 1 MiB and a 1 GiB file
// Options: --rounds N (cold-start rounds, default 41: a median of fewer moves by more than the 10 % a goal is about), --quick (skip the 20 s waits).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { startEmulator } from '../emulator/server.ts';
import { installAction, parseOutputFile, ROOT, readActionYml } from '../test/support/dist-runner.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '41' }, quick: { type: 'boolean', default: false } } });
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

/** A peer's environment as the runner would give it: its action.yml defaults, then the inputs. */
async function peerEnv(dir: string, inputs: Record<string, string>): Promise<Record<string, string>> {
  const yml = await readActionYml(dir);
  const env = await stepEnv({});
  for (const key of Object.keys(env)) if (key.startsWith('INPUT_')) delete env[key];
  for (const [n, i] of Object.entries(yml.inputs)) {
    if (i.default === undefined) continue;
    // `${{ github.token }}` becomes a dummy token, a comparison (`${{ runner.debug == '1' }}`) false.
    env[`INPUT_${n.toUpperCase()}`] = String(i.default).replace(/\$\{\{([^}]*)\}\}/g, (_, e: string) =>
      e.includes('==') ? 'false' : 'dummy',
    );
  }
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  return env;
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

// 1. Cold start, alternated in one run: the floor (a bare Node fetch of the same GET), this
//    action, the two peers (BENCHMARKS.md says which) doing the same GET, and two more of ours.
{
  const emu = await startEmulator({ flavour: 'bkci' });
  const { token } = emu.addUser('alice');
  emu.seedProject({ englishName: 'demo', projectName: 'Demo', creator: 'alice' });
  emu.seedSign({ resignId: 's-now', runningMs: 0 });
  const url = `${emu.url}/ms/openapi/api/apigw/v3/projects/demo?access_token=${token.accessToken}`;
  const bare = join(work, 'bare.mjs');
  await writeFile(
    bare,
    "const r = await fetch(process.env.URL, { headers: { accept: 'application/json', 'content-type': 'application/json', 'x-devops-uid': 'alice' } });\n" +
      'const body = await r.json();\nif (body.code !== 0) process.exit(1);\n',
  );
  const ours = { 'base-url': emu.url, 'access-token': token.accessToken, 'user-id': 'alice' };
  const cases: { name: string; args: string[]; env: () => Promise<Record<string, string>> }[] = [
    { name: 'bare Node 24 fetch (the floor)', args: [bare], env: async () => ({ URL: url }) },
    {
      name: 'this action: get-project',
      args: [join(actionDir, 'dist', 'index.js')],
      env: () => stepEnv({ operation: 'get-project', 'project-id': 'demo', ...ours }),
    },
  ];
  const peers = join(ROOT, '..', 'shared', 'bench-peers');
  if (existsSync(peers)) {
    cases.push(
      {
        name: 'fjogeleit/http-request-action (v2)',
        args: [join(peers, 'http-request-action', 'dist', 'index.js')],
        env: () =>
          peerEnv(join(peers, 'http-request-action'), {
            url,
            method: 'GET',
            customHeaders: '{"x-devops-uid":"alice","accept":"application/json"}',
            retry: '0',
          }),
      },
      {
        name: 'actions/github-script (v8)',
        args: [join(peers, 'github-script', 'dist', 'index.js')],
        env: async () => ({
          ...(await peerEnv(join(peers, 'github-script'), {
            'github-token': 'dummy',
            retries: '0',
            script:
              "const r = await fetch(process.env.URL, { headers: { 'x-devops-uid': 'alice' } }); const d = await r.json(); if (d.code !== 0) throw new Error('bk-ci said ' + d.code); return d.data.englishName;",
          })),
          URL: url,
        }),
      },
    );
  }
  cases.push(
    {
      name: 'this action: sign-detail, done at the first poll',
      args: [join(actionDir, 'dist', 'index.js')],
      env: () => stepEnv({ operation: 'sign-detail', 'resign-id': 's-now', ...ours }),
    },
    {
      name: 'this action: update-project (3 requests)',
      args: [join(actionDir, 'dist', 'index.js')],
      env: () => stepEnv({ operation: 'update-project', 'project-id': 'demo', project: 'description: bench', ...ours }),
    },
  );
  const times = cases.map(() => [] as number[]);
  const envs = await Promise.all(cases.map((c) => c.env()));
  for (let i = 0; i < 2; i++) await run([bare], { URL: url }); // warm the file cache
  for (let round = 0; round < rounds; round++) {
    for (const [i, c] of cases.entries()) {
      const r = await run(c.args, envs[i] ?? {});
      if (r.code !== 0) throw new Error(`${c.name} failed:\n${r.stdout}`);
      times[i]?.push(r.ms);
    }
  }
  const floor = median(times[0] ?? []);
  for (const [i, c] of cases.entries()) {
    const t = times[i] ?? [];
    rows.push([
      `cold start: ${c.name}`,
      `${fmt(median(t))} (${(median(t) / floor).toFixed(2)} ×)`,
      `median of ${t.length}, min ${fmt(Math.min(...t))}, max ${fmt(Math.max(...t))}, alternated`,
    ]);
  }
  await emu.close();
}

// 1b. What a runner downloads for `uses: org/repo@ref`: the repository at that commit, gzipped.
{
  const tar = await new Promise<Buffer>((resolve, reject) => {
    const git = spawn('git', ['archive', '--format=tar', 'HEAD'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    git.stdout.on('data', (c: Buffer) => chunks.push(c));
    git.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`git archive exited ${code}`))));
  });
  rows.push([
    'runner download: git archive HEAD, gzipped',
    `${(gzipSync(tar).length / 1024).toFixed(0)} KB`,
    'paid by every job that uses the action; target ≤ 620 KB',
  ]);
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
  rows.push(['peak RSS: list-projects, 20,000 projects', `${(kb / 1024).toFixed(0)} MiB`, `target ≤ 120 MiB; ${fmt(r.ms)} in all`]);
  await emu.close();
}

// 5. Following a build's log: a build that writes 10,000 lines over its life, followed live.
{
  const emu = await startEmulator({ flavour: 'bkci' });
  const { token } = emu.addUser('alice');
  emu.seedProject({ englishName: 'demo', projectName: 'Demo', creator: 'alice' });
  const runningMs = values.quick ? 5000 : 20_000;
  emu.seedPipeline({
    projectId: 'demo',
    pipelineId: 'p-log',
    phases: [{ status: 'RUNNING', ms: runningMs }],
    logs: {
      steps: [
        { tag: 'e-build', jobId: 'build', stepId: 'compile', containerHashId: 'c-build' },
        { tag: 'e-test', jobId: 'test', stepId: 'unit', containerHashId: 'c-test' },
      ],
      generate: [
        { count: 6000, fromMs: 100, toMs: runningMs - 100, step: 'e-build', text: 'compile line {i}: ::warning:: ##[error] stays text' },
        { count: 4000, fromMs: 100, toMs: runningMs - 100, step: 'e-test', text: 'test line {i}' },
      ],
    },
  });
  const reporter = join(work, 'usage.mjs');
  await writeFile(
    reporter,
    "process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write('cpu ' + (u.user + u.system) + ' maxRSS ' + process.resourceUsage().maxRSS + '\\n'); });\n",
  );
  const env = await stepEnv({
    operation: 'start-build',
    'base-url': emu.url,
    'access-token': token.accessToken,
    'user-id': 'alice',
    'project-id': 'demo',
    'pipeline-id': 'p-log',
    'poll-interval': '1s',
    logs: 'live',
  });
  const r = await run(['--import', reporter, join(actionDir, 'dist', 'index.js')], env);
  if (r.code !== 0) throw new Error(`start-build with logs: live failed:\n${r.stdout.slice(-2000)}`);
  const cpuMs = Number(/cpu (\d+)/.exec(r.stdout)?.[1]) / 1000;
  const kb = Number(/maxRSS (\d+)/.exec(r.stdout)?.[1]);
  const polls = emu.requests({ path: '/build_status' }).length;
  const logReads = emu.requests({ path: '/after_line_logs' }).length;
  const outputs = parseOutputFile(await readFile(env.GITHUB_OUTPUT ?? '', 'utf8'));
  const file = outputs['log-file'] ? await readFile(outputs['log-file'], 'utf8').catch(() => '') : '';
  const numbers = [...file.matchAll(/(compile|test) line (\d+)/g)].map((m) => `${m[1]}${m[2]}`);
  const once = new Set(numbers).size === numbers.length;
  rows.push([
    'log: a build writing 10,000 lines, logs: live',
    `${cpuMs.toFixed(0)} ms CPU, ${(kb / 1024).toFixed(0)} MiB peak`,
    `${logReads} log requests for ${polls} polls; ${numbers.length} lines in log-file${once ? ', each once' : ', SOME TWICE'}; targets ≤ 1 s CPU, ≤ 100 MiB, about one log request a poll`,
  ]);
  await emu.close();
}

// 6. The build's files: one file of 1 GiB (and one of 1 MiB for the memory's floor), served by the
//    emulator as bk-repo does (Content-Length, X-Checksum-Sha256), over loopback, alternated.
{
  const emu = await startEmulator({ flavour: 'bkci' });
  const { bkToken, token } = emu.addUser('alice');
  emu.seedProject({ englishName: 'demo', projectName: 'Demo', creator: 'alice' });
  const sizes = { small: 1 << 20, large: 1 << 30 };
  emu.seedPipeline({
    projectId: 'demo',
    pipelineId: 'p-files',
    artifacts: [
      { path: 'small.bin', size: sizes.small },
      { path: 'large.bin', size: sizes.large },
    ],
  });
  const { id } = emu.seedBuild({ projectId: 'demo', pipelineId: 'p-files', status: 'SUCCEED' });
  const linkOf = async (name: string): Promise<string> => {
    const q = new URLSearchParams({ artifactoryType: 'PIPELINE', path: `/p-files/${id}/${name}` });
    const res = await fetch(
      `${emu.url}/ms/openapi/api/apigw/v4/projects/demo/artifactories/user_download_url?access_token=${token.accessToken}&${q}`,
      { headers: { 'x-devops-uid': 'alice' } },
    );
    return ((await res.json()) as { data: { url: string } }).data.url;
  };
  const link = await linkOf('large.bin');
  const files = join(work, 'files');
  const shell = (script: string): Promise<Run> =>
    new Promise((resolve) => {
      const started = process.hrtime.bigint();
      const child = spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.on('close', (code) => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, code, stdout, endedAt: Date.now() }));
    });
  const reporter = join(work, 'rss-files.mjs');
  await writeFile(reporter, "process.on('exit', () => process.stderr.write('maxRSS ' + process.resourceUsage().maxRSS + '\\n'));\n");
  const ours = async (download: string): Promise<{ ms: number; fileMs: number; mib: number }> => {
    await rm(files, { recursive: true, force: true });
    const env = await stepEnv({
      operation: 'download-artifacts',
      'base-url': emu.url,
      'bk-token': bkToken,
      'project-id': 'demo',
      'build-id': id,
      download,
      'download-path': files,
    });
    const r = await run(['--import', reporter, join(actionDir, 'dist', 'index.js')], env);
    if (r.code !== 0) throw new Error(`download-artifacts failed:\n${r.stdout.slice(-2000)}`);
    const took = /downloaded \S+ \([^)]*\) in ([\d.]+)(ms|s)\b/.exec(r.stdout);
    const fileMs = Number(took?.[1]) * (took?.[2] === 's' ? 1000 : 1);
    return { ms: r.ms, fileMs, mib: Number(/maxRSS (\d+)/.exec(r.stdout)?.[1]) / 1024 };
  };
  const cookie = `bk_token=${bkToken}`;
  await shell(`curl -sf -o /dev/null -b '${cookie}' '${link}'`); // the emulator works out its SHA-256 once
  const curl: number[] = [];
  const piped: number[] = [];
  const action: number[] = [];
  const actionFile: number[] = [];
  const large: number[] = [];
  for (let round = 0; round < (values.quick ? 1 : 3); round++) {
    const c = await shell(`curl -sf -o '${join(work, 'curl.bin')}' -b '${cookie}' '${link}'`);
    const p = await shell(`curl -sf -b '${cookie}' '${link}' | sha256sum`);
    const o = await ours('large.bin');
    if (c.code !== 0 || p.code !== 0) throw new Error('curl failed');
    curl.push(c.ms);
    piped.push(p.ms);
    action.push(o.ms);
    actionFile.push(o.fileMs);
    large.push(o.mib);
    await rm(join(work, 'curl.bin'), { force: true });
  }
  const small = await ours('small.bin');
  const gibPerS = (ms: number): string => `${(sizes.large / 2 ** 30 / (ms / 1000)).toFixed(2)} GiB/s`;
  const floor = median(curl);
  for (const [name, times] of [
    ['curl -o file', curl],
    ['curl piped to sha256sum', piped],
    ['this action: download-artifacts, the file', actionFile],
    ['this action: download-artifacts, the whole step', action],
  ] as const)
    rows.push([
      `download 1 GiB: ${name}`,
      `${fmt(median(times))}, ${gibPerS(median(times))} (${(floor / median(times)).toFixed(2)} × curl)`,
      `median of ${times.length}, alternated; target ≥ 0.4 × curl for the action`,
    ]);
  rows.push([
    'download: peak RSS, 1 MiB and 1 GiB file',
    `${small.mib.toFixed(0)} MiB and ${median(large).toFixed(0)} MiB`,
    `the 1 GiB file's peak ${(median(large) - small.mib).toFixed(0)} MiB above the 1 MiB file's; target ≤ 100 MiB above`,
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
