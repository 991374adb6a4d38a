// `npm start`: the action's main job on a made-up gateway. It starts the bk-ci emulator, seeds a
// project and a re-sign task that finishes in a few seconds, runs dist/index.js exactly as a
// runner would, and shows the step's log, its outputs and its job summary.
// Extra inputs: `npm start -- operation=list-projects` (name=value, any input of action.yml);
// RUNNER_DEBUG=1 shows the debug lines, as re-running a job with debug logging does.
// A re-run: `npm start -- operation=start-build run-attempt=2` (earlier-status=FAILED by default;
// SUCCEED, RUNNING, …): attempt 1's build is seeded into the pipeline's history first.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { demoBuild } from '../emulator/demo-build.ts';
import { cleanupSteps, installAction, ROOT, runStep } from '../emulator/runner.ts';
import { startEmulator } from '../emulator/server.ts';
import { formatElapsed } from '../src/base/duration.ts';
import { stepIdentity, stepMessage } from '../src/build/rerun-message.ts';
import { isOperationName, REGISTRY } from '../src/operations/registry.ts';
import { workflowContext } from '../src/runner/context.ts';

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

/** Not inputs: the run attempt the step runs as, and how the earlier attempt's build stands. */
const { 'run-attempt': runAttempt = '1', 'earlier-status': earlierStatus = 'FAILED' } = overrides;
delete overrides['run-attempt'];
delete overrides['earlier-status'];
const github = {
  GITHUB_SHA: '3f2c1e9a7b5d4c3e2f1a0b9c8d7e6f5a4b3c2d1e',
  GITHUB_REPOSITORY: 'demo/app',
  GITHUB_RUN_ID: '1001',
  GITHUB_RUN_ATTEMPT: runAttempt,
  GITHUB_JOB: 'release',
};
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
const seedEarlier = (): string | undefined => {
  if (operation !== 'start-build' || Number(runAttempt) <= 1) return undefined;
  if (inputs['build-params'] !== undefined) return "build-params is given: no earlier build is seeded (its digest is the action's to make)";
  const identity = stepIdentity(workflowContext(github), { pipelineId: inputs['pipeline-id'] ?? '', params: {}, key: inputs['rerun-key'] });
  if (identity === undefined) return undefined;
  const b = emulator.seedBuild({
    projectId: 'demo',
    pipelineId: inputs['pipeline-id'] ?? '',
    buildMsg: stepMessage(identity, '1'),
    status: earlierStatus,
    startTime: Date.now() - 600_000,
    runMs: 3000,
  });
  return `attempt 1's build #${b.num} (${b.id}) seeded: ${earlierStatus}; this step runs as attempt ${runAttempt}`;
};
const earlier = seedEarlier();
const rule = (title: string): void => console.log(`\n\x1b[1m── ${title} ${'─'.repeat(Math.max(0, 60 - title.length))}\x1b[0m`);

rule(`bk-ci emulator on ${emulator.url} (bkci flavour)`);
console.log('project "demo"; re-sign task "s-5f1c9e7a" RUNNING for 4 s, then SUCCESS; pipeline "p-demo": QUEUE 1 s, RUNNING 3 s, SUCCEED');
if (earlier !== undefined) console.log(earlier);
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
try {
  const result = await runStep(actionDir, { inputs, echo: show, env: github });
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
}
