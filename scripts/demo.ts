// `npm start`: the action's main job on a made-up gateway. It starts the bk-ci emulator, seeds a
// project and a re-sign task that finishes in a few seconds, runs dist/index.js exactly as a
// runner would, and shows the step's log, its outputs and its job summary.
// Extra inputs: `npm start -- operation=list-projects` (name=value, any input of action.yml);
// RUNNER_DEBUG=1 shows the debug lines, as re-running a job with debug logging does.
// A re-run: `npm start -- operation=start-build run-attempt=2` (earlier-status=FAILED by default;
// SUCCEED, RUNNING, …): attempt 1's build is seeded into the pipeline's history first.
// The build's files: `npm start -- operation=download-artifacts` downloads a build of p-demo that
// ended, and shows the files written, with their sizes, before they are cleaned up.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { settingsSchema } from '../src/inputs/settings.ts';
import { isOperationName, REGISTRY } from '../src/operations/registry.ts';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(help());
  process.exit(0);
}
// The rest loads once --help is ruled out (most of this script's start is Node stripping the types
// of what it loads): the demo world, the runner's harness, and what a re-run's seeding reads; the
// emulator's server only when no base-url is given.
const [{ DEMO, seedDemoWorld }, { formatElapsed }, { stepIdentity, stepMessage }, { startValues }, { workflowContext }, runner] =
  await Promise.all([
    import('../emulator/demo-world.ts'),
    import('../src/base/duration.ts'),
    import('../src/pipeline/rerun-message.ts'),
    import('../src/pipeline/start.ts'),
    import('../src/runner/context.ts'),
    import('../test/support/dist-runner.ts'),
  ]);
const { cleanupSteps, installAction, ROOT, runStep } = runner;
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

// With base-url given, the action runs against that server (an `npm run emulator` started on its
// own, say) and nothing is started or seeded here: the inputs are the ones given.
const elsewhere = overrides['base-url'];
const emulator = elsewhere === undefined ? await (await import('../emulator/server.ts')).startEmulator({ flavour: 'bkci' }) : undefined;
const world = emulator === undefined ? undefined : seedDemoWorld(emulator, 'demo-user');

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
  'resign-id': DEMO.resignId,
  'download-url': 'true',
  'project-id': DEMO.projectId,
  'pipeline-id': operation === 'start-build' || operation === 'download-artifacts' ? 'p-demo' : DEMO.review,
  'build-id': (operation === 'download-artifacts' ? world?.endedBuild : world?.reviewBuild) ?? '',
  decision: 'approve',
};
const reads = isOperationName(operation) ? Object.keys(REGISTRY[operation].inputs) : [];
const inputs: Record<string, string> = {
  operation,
  'poll-interval': '1s',
  timeout: '1m',
  ...(emulator === undefined || world === undefined
    ? {}
    : {
        'base-url': emulator.url,
        'bk-token': world.bkToken,
        ...Object.fromEntries(Object.entries(seeded).filter(([name]) => reads.includes(name))),
      }),
  ...overrides,
};
const seedEarlier = (): string | undefined => {
  if (emulator === undefined || operation !== 'start-build' || Number(runAttempt) <= 1) return undefined;
  if (inputs['build-params'] !== undefined) return "build-params is given: no earlier build is seeded (its digest is the action's to make)";
  const w = workflowContext(github);
  const step = { pipelineId: inputs['pipeline-id'] ?? '', params: {}, key: inputs['rerun-key'] };
  const identity = stepIdentity(w, step);
  if (identity === undefined) return undefined;
  // As attempt 1 of this step started it: as its user, with what it sends (the commit's material).
  const { BK_CI_BUILD_MSG: _message, ...params } = startValues({}, w, step).body;
  const b = emulator.seedBuild({
    projectId: DEMO.projectId,
    pipelineId: inputs['pipeline-id'] ?? '',
    buildMsg: stepMessage(identity, '1'),
    status: earlierStatus,
    startTime: Date.now() - 600_000,
    runMs: 3000,
    userId: 'demo-user',
    params,
  });
  return `attempt 1's build #${b.num} (${b.id}) seeded: ${earlierStatus}; this step runs as attempt ${runAttempt}`;
};
const earlier = seedEarlier();
const rule = (title: string): void => console.log(`\n\x1b[1m── ${title} ${'─'.repeat(Math.max(0, 60 - title.length))}\x1b[0m`);

if (emulator === undefined) {
  rule(`the action against ${elsewhere}`);
  console.log('started elsewhere: nothing is started or seeded here, and the step gets only the inputs given');
} else {
  rule(`bk-ci emulator on ${emulator.url} (bkci flavour)`);
  for (const line of world?.banner ?? []) console.log(line);
}
if (earlier !== undefined) console.log(earlier);
console.log('npm start -- --help lists the operations and their inputs');
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
// check=true: GitHub's side of the emulator too, and the check run's states as the pull request shows them.
const checks =
  overrides.check === 'true'
    ? await (await import('./demo-check.ts')).watchChecks(inputs, (line) => console.log(`\x1b[36m${line}\x1b[0m`))
    : undefined;
try {
  const result = await runStep(actionDir, {
    inputs,
    echo: show,
    env: { ...github, ...checks?.env },
    onSpawn: (kill) => {
      stopChild = kill;
    },
  });
  if (pending !== '') show('\n');
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
  const { readdir, stat } = await import('node:fs/promises');
  const { join } = await import('node:path');
  rule(`files in download-path (${folder})`);
  const names = (await readdir(folder, { recursive: true }).catch(() => [] as string[])).sort();
  for (const name of names) {
    const s = await stat(join(folder, name));
    if (s.isFile()) console.log(`${String(s.size).padStart(10)}  ${name}`);
  }
  if (names.length === 0) console.log('(none)');
}

/** `npm start -- --help`: how to run it, each operation with the inputs it reads, and the shared ones. */
function help(): string {
  const ops = Object.entries(REGISTRY).map(
    ([name, d]) => `  ${name.padEnd(19)}${Object.keys(d.inputs).join(', ') || '(no inputs of its own)'}`,
  );
  return [
    'npm start [-- name=value ...]: the built action against the bk-ci emulator, as a runner runs it.',
    'Any input of action.yml as name=value; operation=sign-detail by default. The seeded world fills in',
    'project-id, pipeline-id, build-id, resign-id and decision for the operation that reads them',
    '(download-artifacts: a build of p-demo that ended, with its files).',
    '',
    'Operations and the inputs each reads:',
    ...ops,
    '',
    `Every operation: ${Object.keys(settingsSchema.in.shape).join(', ')}`,
    '',
    'Examples:',
    '  npm start -- operation=start-build pipeline-id=p-review on-review=fail',
    '  npm start -- operation=review-build            (approves the seeded build at its review, and ends)',
    '  npm start -- operation=review-build wait=true  (then follows that build to its end)',
    '  npm start -- operation=build-status wait=false',
    '  npm start -- operation=start-build pipeline-id=p-fail',
    '  npm start -- operation=download-artifacts      (the files of a build of p-demo that ended, downloaded)',
    "  npm start -- operation=start-build download='app/*.ipa'   (starts p-demo, downloads its IPA at the end)",
    'RUNNER_DEBUG=1 npm start shows the debug lines. Against an emulator started on its own',
    '(npm run emulator -- --port 8080): npm start -- base-url=http://127.0.0.1:8080 bk-token=<its bk-token> operation=… ;',
    'nothing is seeded then, and the step gets only the inputs given.',
  ].join('\n');
}
