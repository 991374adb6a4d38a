// `npm start`: the action's main job on a made-up gateway. It starts the bk-ci emulator, seeds the
// demo world (emulator/demo-world.ts), runs dist/index.js exactly as a runner would, and shows the
// step's log, its outputs and its job summary. Any input as name=value; `--help` says the rest
// (scripts/demo-inputs.ts). RUNNER_DEBUG=1 shows the debug lines, as re-running a job with debug
// logging does. run-attempt=2 makes it a re-run, attempt 1's build seeded first
// (scripts/demo-rerun.ts); check=true adds GitHub's check runs (scripts/demo-check.ts).
import { existsSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { help, parseArgs, seededInputs, workflowRun } from './demo-inputs.ts';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(help());
  process.exit(0);
}
const args = parseArgs(process.argv.slice(2));
if (args === undefined) process.exit(2);
// The rest loads once --help is ruled out (most of this script's start is Node stripping the types
// of what it loads): the demo world, the runner's harness; the emulator's server only when no
// base-url is given, GitHub's side only with check=true.
const [{ DEMO, PIPELINE_NAMES, seedDemoWorld }, { formatElapsed }, runner] = await Promise.all([
  import('../emulator/demo-world.ts'),
  import('../src/base/duration.ts'),
  import('../test/support/dist-runner.ts'),
]);
const { cleanupSteps, installAction, ROOT, runStep } = runner;
if (!existsSync(join(ROOT, 'dist', 'index.js'))) {
  console.error('dist/index.js is missing: run `npm run bundle` first.');
  process.exit(1);
}

const USER = 'demo-user';
const run = workflowRun(args.runAttempt);
// With base-url given, the action runs against that server (an `npm run emulator` started on its
// own, say) and nothing is started or seeded here: the inputs are the ones given.
const elsewhere = args.inputs['base-url'];
const emulator = elsewhere === undefined ? await (await import('../emulator/server.ts')).startEmulator({ flavour: 'bkci' }) : undefined;
const world = emulator === undefined ? undefined : seedDemoWorld(emulator, USER);
const operation = args.inputs.operation ?? 'sign-detail';
const inputs: Record<string, string> = {
  operation,
  'poll-interval': '1s',
  timeout: '1m',
  ...(emulator === undefined || world === undefined
    ? {}
    : {
        'base-url': emulator.url,
        'bk-token': world.bkToken,
        ...seededInputs(
          operation,
          {
            projectId: DEMO.projectId,
            resignId: DEMO.resignId,
            pipelines: { demo: DEMO.demo, review: DEMO.review, fail: DEMO.fail },
            builds: { review: world.reviewBuild, ended: world.endedBuild, failed: world.failedBuild },
          },
          args.inputs,
        ),
      }),
  ...args.inputs,
};

const rule = (title: string): void => console.log(`\n\x1b[1m── ${title} ${'─'.repeat(Math.max(0, 60 - title.length))}\x1b[0m`);
const cyan = (line: string): void => console.log(`\x1b[36m${line}\x1b[0m`);

if (emulator === undefined) {
  rule(`the action against ${elsewhere}`);
  console.log('started elsewhere: nothing is started or seeded here, and the step gets only the inputs given');
} else {
  rule(`bk-ci emulator on ${emulator.url} (bkci flavour)`);
  for (const line of world?.banner ?? []) console.log(line);
}
// A re-run: attempt 1's build (and, with check, its check run) first.
const earlier =
  emulator === undefined
    ? undefined
    : await (await import('./demo-rerun.ts'))
        .seedEarlierAttempt(emulator, { inputs, env: run, status: args.earlierStatus, user: USER })
        .catch(() => {
          console.error(`earlier-status=${args.earlierStatus} is not one of bk-ci's build statuses: FAILED, SUCCEED, RUNNING, CANCELED, …`);
          process.exit(2);
        });
if (earlier !== undefined) console.log(earlier.said);
console.log('npm start -- --help lists the operations and their inputs');
const checks = /^true$/i.test(inputs.check ?? '')
  ? await (await import('./demo-check.ts')).watchChecks(
      inputs,
      { repository: run.GITHUB_REPOSITORY ?? '', sha: run.GITHUB_SHA ?? '' },
      cyan,
    )
  : undefined;
if (checks !== undefined && earlier?.build !== undefined && emulator !== undefined) {
  const b = earlier.build;
  const name = inputs['check-name'] ?? `bk-ci ${PIPELINE_NAMES[b.pipelineId] ?? b.pipelineId}`;
  await checks.seedEarlier(b, name, `${emulator.url}/console/pipeline/${DEMO.projectId}/${b.pipelineId}/detail/${b.id}`);
}

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
// Ctrl-C reaches the step too (one process group): it stops as it would in a cancelled job, and
// this script waits for it, shows what it said, and removes what it left.
let stopChild: ((signal: NodeJS.Signals) => void) | undefined;
const onSignal = (signal: NodeJS.Signals): void => {
  console.log(`\n${signal}: the step is told to stop, as a cancelled job would; waiting for it`);
  stopChild?.(signal);
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
try {
  const result = await runStep(actionDir, {
    inputs,
    echo: show,
    env: { ...run, ...checks?.env },
    onSpawn: (kill) => {
      stopChild = kill;
    },
  });
  if (pending !== '') show('\n');
  // The check runs as the step left them: the view ends with them, before anything else is shown.
  if (checks !== undefined) {
    checks.stop();
    rule(`check runs on ${run.GITHUB_REPOSITORY}@${run.GITHUB_SHA?.slice(0, 7)}`);
    checks.left(result.outputs['check-run-id']);
  }
  rule('outputs');
  for (const [name, value] of Object.entries(result.outputs))
    console.log(`${name}=${value.length > 300 ? `${value.slice(0, 300)}…` : value}`);
  await showFiles(result.outputs['download-path']);
  rule('job summary (GITHUB_STEP_SUMMARY)');
  console.log(result.summary);
  rule(`exit code ${result.code} after ${formatElapsed(result.durationMs)}`);
  process.exitCode = result.code ?? 1;
} finally {
  // Nothing left behind: the installed copy of the action (dist/, about 1 MB) and the step's files.
  await cleanupSteps();
  await rm(actionDir, { recursive: true, force: true });
  await emulator?.close();
  await checks?.close();
}

/** The files a download wrote, as `ls` would list them, before the step's folder is removed. */
async function showFiles(folder: string | undefined): Promise<void> {
  if (!folder) return;
  rule(`files in download-path (${folder})`);
  const names = (await readdir(folder, { recursive: true }).catch(() => [] as string[])).sort();
  for (const name of names) {
    const s = await stat(join(folder, name));
    if (s.isFile()) console.log(`${String(s.size).padStart(10)}  ${name}`);
  }
  if (names.length === 0) console.log('(none)');
}
