// Every example of the action in README.md and the pages under docs/, read FROM those pages (a step
// added there later is found too), with what a test needs to run one as written: its inputs with
// every expression replaced, the outputs later steps of its block read, and the README's world.
// test/run runs every example in process; test/dist runs a sample through the built action.
import type { ExpectStatic } from 'vitest';
import { parse } from 'yaml';
import type { StepResult } from './dist-runner.ts';
import { userPages, yamlBlocks } from './user-docs.ts';
import { startWorld, type World, type WorldOptions } from './world.ts';

export interface Example {
  /** Where it is: the page, the heading above it and its place among the pages' action steps. */
  title: string;
  step: { id?: string; with?: unknown };
  /** The whole YAML block the step is in: later steps read its outputs. */
  block: string;
}

/** Every step of a YAML block in the user's pages that uses the action, in order, under its page and heading. */
export async function examples(): Promise<Example[]> {
  const found: Example[] = [];
  for (const { page, heading, text: block } of yamlBlocks(await userPages())) {
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(visit);
      else if (typeof node === 'object' && node !== null) {
        const step = node as Record<string, unknown>;
        if (typeof step.uses === 'string' && step.uses.includes('/bkci-action@'))
          found.push({ title: `${page} › ${heading} #${found.length + 1}`, step: step as Example['step'], block });
        else Object.values(step).forEach(visit);
      }
    };
    visit(parse(block));
  }
  return found;
}

/** The example's `with:`, or nothing when it leaves its inputs out. */
export const withOf = (e: Example): Record<string, unknown> | undefined =>
  typeof e.step.with === 'object' && e.step.with !== null ? (e.step.with as Record<string, unknown>) : undefined;

/** The README's world: the emulator with its user, projects, pipeline and re-sign task. */
export interface ReadmeWorld {
  world: World;
  bkToken: string;
  accessToken: string;
  /** A build of the README's pipeline that ended, with files: what a later job downloads. */
  endedBuild: string;
}

/** The expressions the README's examples use, and what each stands for here. One missing fails the example that uses it. */
const EXPRESSIONS: Record<string, (w: ReadmeWorld) => string> = {
  'vars.BKCI_URL': (w) => w.world.emu.url,
  'secrets.BK_TOKEN': (w) => w.bkToken,
  'secrets.BKCI_TOKEN': (w) => w.accessToken,
  'steps.upload.outputs.resign-id': () => 's-readme',
  'github.ref_name': () => 'v1.10',
  'toJSON(github.ref_name)': () => JSON.stringify('v1.10'),
  'secrets.BKCI_CALLBACK_SECRET': () => 'callback-secret',
  'vars.BK_APP_CODE': () => 'ci-app',
  'secrets.BK_APP_SECRET': () => 'app-secret-0001',
  'matrix.region': () => 'eu',
  'matrix.shard': () => '1',
  'needs.build.outputs.build-id': (w) => w.endedBuild,
};

/**
 * Examples that cannot run here, each by a rule that says why. The test of such an example is
 * skipped with the reason in its name, never dropped.
 */
const CANNOT_RUN: [string, (e: Example) => boolean][] = [
  ['its inputs are left out of the example (with: …)', (e) => withOf(e) === undefined],
  [
    "it reads one build of the reader's bk-ci by its id (a b-… in query), which no emulator holds",
    (e) => /"buildId": "b-/.test(String(withOf(e)?.query ?? '')),
  ],
  [
    'it decides the review of a build another job started and left waiting (needs.…), which this test has not started',
    (e) => withOf(e)?.operation === 'review-build' && /\$\{\{\s*needs\./.test(JSON.stringify(e.step.with)),
  ],
];

/** Why the example cannot run here, or undefined when it can. */
export const cannotRun = (e: Example): string | undefined => CANNOT_RUN.find(([, applies]) => applies(e))?.[0];

/** Whether the example talks to the BlueKing API Gateway, which gets an emulator behind one. */
export const viaGateway = (e: Example): boolean => withOf(e)?.gateway === 'bk-apigateway';

/** The README's world: its user, projects, pipeline and re-sign task; behind the BlueKing API Gateway when asked. */
export async function readmeWorld(o: { gateway: boolean } & Pick<WorldOptions, 'realTime'>): Promise<ReadmeWorld> {
  const world = await startWorld({
    users: [],
    project: false,
    ...(o.realTime ? { realTime: true } : {}),
    ...(o.gateway ? { gateway: {} } : {}),
  });
  const { bkToken, token } = world.emu.addUser('ci-bot');
  for (const englishName of ['my-project', 'mobile-app', 'project'])
    world.emu.seedProject({ englishName, projectName: `README ${englishName}`, creator: 'ci-bot' });
  world.pipeline({
    projectId: 'my-project',
    pipelineId: 'p-0123456789abcdef',
    phases: [{ status: 'RUNNING', ms: 300 }],
    // What a release build archives: the signed package, the unsigned one it came from, a report.
    artifacts: [
      { path: 'app/My App.ipa', size: 200_000 },
      { path: 'app/My App-unsigned.ipa', size: 200_000 },
      { path: 'reports/junit.xml', content: '<testsuite tests="1"/>', type: 'CUSTOM_DIR' },
    ],
  });
  world.emu.seedSign({ resignId: 's-readme' });
  const ended = world.emu.seedBuild({ projectId: 'my-project', pipelineId: 'p-0123456789abcdef', status: 'SUCCEED' });
  return { world, bkToken, accessToken: token.accessToken, endedBuild: ended.id };
}

/** The inputs as the runner would get them: every expression replaced, or the name of one this test does not know. */
export function inputsOf(e: Example, w: ReadmeWorld): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const [name, value] of Object.entries(withOf(e) ?? {})) {
    inputs[name] = String(value).replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expr: string) => {
      const known = EXPRESSIONS[expr];
      if (known === undefined) throw new Error(`${e.title} uses \${{ ${expr} }}: say in EXPRESSIONS what it stands for`);
      return known(w);
    });
  }
  // The one address there is here; and a wait polls every second, as a longer interval only
  // makes the test slower, never different.
  inputs['base-url'] = w.world.emu.url;
  if ('poll-interval' in inputs || ['sign-detail', 'start-build', 'build-status'].includes(inputs.operation ?? ''))
    inputs['poll-interval'] = '1s';
  return inputs;
}

/** The outputs later steps of the example read from this one (`steps.<id>.outputs.<name>`). */
export function outputsRead(e: Example): string[] {
  if (e.step.id === undefined) return [];
  return [...e.block.matchAll(new RegExp(`steps\\.${e.step.id}\\.outputs\\.([\\w-]+)`, 'g'))].map((m) => m[1] ?? '');
}

/** What a run of an example must show, however it ran: success, no error, the outputs later steps read, a request's data. */
export function expectRanAsWritten(expect: ExpectStatic, e: Example, r: StepResult): void {
  expect(r.code, `${e.title}\n${r.stdout}`).toBe(0);
  expect(r.errors).toEqual([]);
  for (const name of outputsRead(e)) expect(r.outputs, `a later step reads steps.${e.step.id}.outputs.${name}`).toHaveProperty(name);
  if (withOf(e)?.operation === 'request') expect(JSON.parse(r.outputs.data ?? 'null')).not.toBeNull();
  // A download brought files: the patterns chose some, and each was written.
  if (withOf(e)?.download !== undefined || withOf(e)?.operation === 'download-artifacts')
    expect(JSON.parse(r.outputs.downloaded ?? '[]')).not.toEqual([]);
}

/** A `run:` step after the example's step in its block, with its `env:` as written. */
export interface ShellStep {
  run: string;
  env: Record<string, string>;
}

/** The `run:` steps that come after the example's step in the same list of steps. */
export function shellStepsAfter(e: Example): ShellStep[] {
  const lists: unknown[][] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) lists.push(node);
    if (typeof node === 'object' && node !== null) Object.values(node).forEach(visit);
  };
  visit(parse(e.block));
  const steps = lists.find((l) => l.some((s) => JSON.stringify(s) === JSON.stringify(e.step))) ?? [];
  const at = steps.findIndex((s) => JSON.stringify(s) === JSON.stringify(e.step));
  return steps
    .slice(at + 1)
    .filter((s): s is { run: string; env?: Record<string, unknown> } => typeof s === 'object' && s !== null && 'run' in s)
    .map((s) => ({ run: s.run, env: Object.fromEntries(Object.entries(s.env ?? {}).map(([k, v]) => [k, String(v)])) }));
}
