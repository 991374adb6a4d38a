// `npm start`: the action's main job on a made-up gateway. It starts the bk-ci emulator, seeds a
// project and a re-sign task that finishes in a few seconds, runs dist/index.js exactly as a
// runner would, and shows the step's log, its outputs and its job summary.
// Extra inputs: `npm start -- operation=list-projects` (name=value, any input of action.yml);
// RUNNER_DEBUG=1 shows the debug lines, as re-running a job with debug logging does.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { demoBuild } from '../emulator/demo-build.ts';
import { cleanupSteps, installAction, ROOT, runStep } from '../emulator/runner.ts';
import { startEmulator } from '../emulator/server.ts';
import { formatElapsed } from '../src/base/duration.ts';
import { isOperationName, REGISTRY } from '../src/operations/registry.ts';
import { watchChecks } from './demo-check.ts';

if (!existsSync(join(ROOT, 'dist', 'index.js'))) {
  console.error('dist/index.js is missing: run `npm run bundle` first.');
  process.exit(1);
}
const overrides = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const eq = arg.indexOf('=');
    if (eq < 1) {
      console.error(`expected name=value, got "${arg}"`);
      process.exit(2);
    }
    return [arg.slice(0, eq), arg.slice(eq + 1)];
  }),
);

const emulator = await startEmulator({ flavour: 'bkci' });
const { bkToken } = emulator.addUser('demo-user');
emulator.seedProject({
  englishName: 'demo',
  projectName: 'Demo project',
  description: 'seeded for npm start',
  creator: 'demo-user',
  bgId: 1,
  bgName: 'Games',
});
emulator.seedSign({ resignId: 's-5f1c9e7a', runningMs: 4000, result: 'SUCCESS', projectId: 'demo' });
emulator.seedPipeline({
  projectId: 'demo',
  pipelineId: 'p-demo',
  phases: [
    { status: 'QUEUE', ms: 1000 },
    { status: 'RUNNING', ms: 3000 },
  ],
  ...demoBuild(1000, 3000),
});

const operation = overrides.operation ?? 'sign-detail';
/** What the seeded world gives each operation; an operation gets only the ones it reads (others would be warned about). */
const seeded: Record<string, string> = {
  'resign-id': 's-5f1c9e7a',
  'download-url': 'true',
  'project-id': 'demo',
  'pipeline-id': 'p-demo',
};
const reads = isOperationName(operation) ? Object.keys(REGISTRY[operation].inputs) : [];
const inputs: Record<string, string> = {
  operation,
  'base-url': emulator.url,
  'bk-token': bkToken,
  'poll-interval': '1s',
  timeout: '1m',
  ...Object.fromEntries(Object.entries(seeded).filter(([name]) => reads.includes(name))),
  ...overrides,
};
const rule = (title: string): void => console.log(`\n\x1b[1m── ${title} ${'─'.repeat(Math.max(0, 60 - title.length))}\x1b[0m`);

rule(`bk-ci emulator on ${emulator.url} (bkci flavour)`);
console.log('project "demo"; re-sign task "s-5f1c9e7a" RUNNING for 4 s, then SUCCESS; pipeline "p-demo": QUEUE 1 s, RUNNING 3 s, SUCCEED');
rule(`step log: ${inputs.operation}`);
const actionDir = await installAction();
const debug = process.env.RUNNER_DEBUG === '1';
let pending = '';
/** Shows the log as a workflow run page does: masks and debug lines hidden, annotations labelled. */
const show = (chunk: string): void => {
  const lines = (pending + chunk).split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) {
    const cmd = /^::(\w[\w-]*)(?: [^:]*)?::(.*)$/.exec(line);
    const data = cmd?.[2]?.replace(/%0A/g, '\n').replace(/%0D/g, '\r').replace(/%25/g, '%') ?? '';
    if (!cmd) console.log(line);
    else if (cmd[1] === 'error') console.log(`\x1b[31mError: ${data}\x1b[0m`);
    else if (cmd[1] === 'warning') console.log(`\x1b[33mWarning: ${data}\x1b[0m`);
    else if (cmd[1] === 'debug' && debug) console.log(`\x1b[35m##[debug]${data}\x1b[0m`);
  }
};
// check=true: GitHub's side of the emulator too, and the check run's states as the pull request shows them.
const checks = overrides.check === 'true' ? await watchChecks(inputs, (line) => console.log(`\x1b[36m${line}\x1b[0m`)) : undefined;
try {
  const result = await runStep(actionDir, { inputs, echo: show, ...(checks === undefined ? {} : { env: checks.env }) });
  rule('outputs');
  for (const [name, value] of Object.entries(result.outputs))
    console.log(`${name}=${value.length > 300 ? `${value.slice(0, 300)}…` : value}`);
  rule('job summary (GITHUB_STEP_SUMMARY)');
  console.log(result.summary);
  rule(`exit code ${result.code} after ${formatElapsed(result.durationMs)}`);
  process.exitCode = result.code ?? 1;
} finally {
  // Nothing left behind: the installed copy of the action (dist/, about 1 MB) and the step's files.
  await cleanupSteps();
  await rm(actionDir, { recursive: true, force: true });
  await emulator.close();
  await checks?.close();
}
