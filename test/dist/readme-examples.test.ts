// Every example of the action in README.md and the pages under docs/ runs, as written, against
// the emulator through the built action. The examples are read FROM those pages: a step added
// there later is run here too. The shell steps around them (`run:`) are not run; the outputs they
// read from the action's step (`steps.<id>.outputs.<name>`) must be set. What the test changes is
// said by explicit rules below (EXPRESSIONS, the two inputs it points elsewhere) and what it
// cannot run is skipped by a rule with its reason in the test's name.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type Emulator, startEmulator } from '../../emulator/server.ts';
import { runStep, useInstalledAction } from '../support/dist-runner.ts';
import { userPages, yamlBlocks } from '../support/user-docs.ts';

const action = useInstalledAction({ beforeAll, afterAll });

interface Example {
  /** Where it is: the page, the heading above it and its place among the pages' action steps. */
  title: string;
  step: { id?: string; with?: unknown };
  /** The whole YAML block the step is in: later steps read its outputs. */
  block: string;
}

/** Every step of a YAML block in the user's pages that uses the action, in order, under its page and heading. */
async function examples(): Promise<Example[]> {
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

const all = await examples();

/** The expressions the README's examples use, and what each stands for here. One missing fails the example that uses it. */
const EXPRESSIONS: Record<string, (w: World) => string> = {
  'vars.BKCI_URL': (w) => w.emu.url,
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
};

/**
 * Examples that cannot run here, each by a rule that says why. The test of such an example is
 * skipped with the reason in its name, never dropped.
 */
const CANNOT_RUN: [string, (e: Example) => boolean][] = [
  ['its inputs are left out of the example (with: …)', (e) => typeof e.step.with !== 'object' || e.step.with === null],
  [
    "it reads one build of the reader's bk-ci by its id (a b-… in query), which no emulator holds",
    (e) => /"buildId": "b-/.test(String((e.step.with as Record<string, unknown>).query ?? '')),
  ],
  [
    'it decides the review of a build another job started and left waiting (needs.…), which this test has not started',
    (e) => /\$\{\{\s*needs\./.test(JSON.stringify(e.step.with)),
  ],
];

interface World {
  emu: Emulator;
  bkToken: string;
  accessToken: string;
}

/** The inputs as the runner would get them: every expression replaced, or the name of one this test does not know. */
function inputsOf(e: Example, w: World): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const [name, value] of Object.entries(e.step.with as Record<string, unknown>)) {
    inputs[name] = String(value).replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expr: string) => {
      const known = EXPRESSIONS[expr];
      if (known === undefined) throw new Error(`${e.title} uses \${{ ${expr} }}: say in EXPRESSIONS what it stands for`);
      return known(w);
    });
  }
  // The one address there is here; and a wait polls every second, as a longer interval only
  // makes the test slower, never different.
  inputs['base-url'] = w.emu.url;
  if ('poll-interval' in inputs || ['sign-detail', 'start-build', 'build-status'].includes(inputs.operation ?? ''))
    inputs['poll-interval'] = '1s';
  return inputs;
}

/** The outputs later steps of the example read from this one (`steps.<id>.outputs.<name>`). */
function outputsRead(e: Example): string[] {
  if (e.step.id === undefined) return [];
  return [...e.block.matchAll(new RegExp(`steps\\.${e.step.id}\\.outputs\\.([\\w-]+)`, 'g'))].map((m) => m[1] ?? '');
}

describe('every example of the action in README.md and docs/ runs against the emulator', () => {
  it('finds the examples: request, builds, projects, callbacks, tokens, re-signing, the gateway', () => {
    const operations = new Set(all.map((e) => (e.step.with as Record<string, unknown> | undefined)?.operation));
    for (const o of ['request', 'start-build', 'sign-detail', 'create-project', 'update-project', 'create-callbacks', 'get-token'])
      expect(operations).toContain(o);
    expect(all.filter((e) => (e.step.with as Record<string, unknown> | undefined)?.operation === 'request')).toHaveLength(3);
  });

  /** The README's world: its user, projects, pipeline and re-sign task; behind the BlueKing API Gateway when asked. */
  async function world(gateway: boolean): Promise<World> {
    const emu = await startEmulator({ flavour: 'bkci', ...(gateway ? { gateway: {} } : {}) });
    const { bkToken, token } = emu.addUser('ci-bot');
    for (const englishName of ['my-project', 'mobile-app', 'project'])
      emu.seedProject({ englishName, projectName: `README ${englishName}`, creator: 'ci-bot' });
    emu.seedPipeline({ projectId: 'my-project', pipelineId: 'p-0123456789abcdef', phases: [{ status: 'RUNNING', ms: 300 }] });
    emu.seedSign({ resignId: 's-readme' });
    return { emu, bkToken, accessToken: token.accessToken };
  }

  let w: World;
  beforeEach(async () => {
    w = await world(false);
  });
  afterEach(() => w.emu.close());

  for (const e of all) {
    const skip = CANNOT_RUN.find(([, applies]) => applies(e));
    if (skip !== undefined) {
      it.skip(`${e.title}: not run, because ${skip[0]}`, () => undefined);
      continue;
    }
    const operation = String((e.step.with as Record<string, unknown>).operation);
    it(`${e.title}: ${operation}`, async () => {
      const inputs = inputsOf(e, w);
      if (inputs.gateway === 'bk-apigateway') {
        // Its own front door: the BlueKing API Gateway in front of the emulator.
        await w.emu.close();
        w = await world(true);
        inputs['base-url'] = w.emu.url;
      }
      const r = await runStep(action(), { inputs });
      expect(r.code, `${e.title}\n${r.stdout}`).toBe(0);
      expect(r.errors).toEqual([]);
      for (const name of outputsRead(e)) expect(r.outputs, `a later step reads steps.${e.step.id}.outputs.${name}`).toHaveProperty(name);
      if (operation === 'request') expect(JSON.parse(r.outputs.data ?? 'null')).not.toBeNull();
    });
  }
});
