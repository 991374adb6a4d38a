import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COMMON_OUTPUTS, INPUT_NAMES, outputNames, REGISTRY } from '../../src/operations/registry.ts';
import { ROOT } from '../support/dist-runner.ts';
import { userPages, yamlBlocks } from '../support/user-docs.ts';

interface ActionYml {
  runs: { using: string; main: string };
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
}

/** The names the action was first published with, which workflows use: none may be renamed or dropped. */
const CONTRACT_INPUTS = [
  'operation',
  'base-url',
  'access-token',
  'bk-token',
  'user-id',
  'app-code',
  'project-id',
  'resign-id',
  'project',
  'if-exists',
  'callback-url',
  'region',
  'events',
  'secret-token',
  'wait',
  'timeout',
  'poll-interval',
  'request-timeout',
  'retries',
  'download-url',
  'allow-insecure-http',
];
const CONTRACT_OUTPUTS = [
  'data',
  'data-file',
  'http-status',
  'user-id',
  'access-token',
  'expiration-time',
  'user-id',
  'sign-status',
  'sign-message',
  'elapsed',
  'polls',
  'download-url',
  'count',
  'success-events',
  'failure-events',
];

let actionText: string;
let action: ActionYml;
let readme: string;
beforeAll(async () => {
  actionText = await readFile(join(ROOT, 'action.yml'), 'utf8');
  action = parse(actionText) as ActionYml;
  readme = await readFile(join(ROOT, 'README.md'), 'utf8');
});

/** The rows of the first Markdown table after `heading`: cells, with backticks kept. */
function tableAfter(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf(`\n${heading}\n`);
  expect(start, `README has no "${heading}" section`).toBeGreaterThan(-1);
  const lines = markdown.slice(start).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(' | ')
        .map((c) => c.trim()),
    );
  }
  return rows;
}

const code = (cell: string | undefined): string | undefined => /^`([^`]*)`$/.exec(cell ?? '')?.[1];

/** Each input an operation reads → operation → its default in code (undefined: none). */
async function codeDefaults(): Promise<Map<string, Map<string, string | undefined>>> {
  const byInput = new Map<string, Map<string, string | undefined>>();
  for (const [operation, declared] of Object.entries(REGISTRY)) {
    const op = await declared.load();
    for (const name of op.inputNames) byInput.set(name, (byInput.get(name) ?? new Map()).set(operation, op.inputDefaults[name]));
  }
  return byInput;
}

/** "…. Default: true for a, b; false for c." → operation → default; undefined when the description says none. */
function describedDefaults(description: string): Map<string, string> | undefined {
  const sentence = / Default: ([^.]+)\.$/.exec(description)?.[1];
  if (sentence === undefined) return undefined;
  const out = new Map<string, string>();
  for (const part of sentence.split('; ')) {
    const m = /^(\S+) for ([a-z-]+(?:, [a-z-]+)*)$/.exec(part);
    expect(m, `"${part}" is not "<default> for <operations>"`).not.toBeNull();
    for (const operation of m?.[2]?.split(', ') ?? []) out.set(operation, m?.[1] ?? '');
  }
  return out;
}

/** The README's default cell of an input whose operations differ: the most common default, then each other one: "`true` (review-build: `false`)". */
function readmeDefaults(byOperation: Map<string, string | undefined>): string {
  const groups = new Map<string, string[]>();
  for (const [operation, value] of byOperation) groups.set(value ?? 'none', [...(groups.get(value ?? 'none') ?? []), operation]);
  const [common, ...others] = [...groups].sort((a, b) => b[1].length - a[1].length);
  return `\`${common?.[0]}\` (${others.map(([value, ops]) => `${ops.join(', ')}: \`${value}\``).join('; ')})`;
}

/** Each input an operation reads → the operations reading it. */
async function readersOf(): Promise<Map<string, string[]>> {
  return new Map([...(await codeDefaults())].map(([name, byOperation]) => [name, [...byOperation.keys()].sort()]));
}

/** Each output an operation sets besides the common ones → the operations setting it. */
async function settersOf(): Promise<Map<string, string[]>> {
  const byOutput = new Map<string, string[]>();
  for (const [operation, declared] of Object.entries(REGISTRY))
    for (const name of (await declared.load()).outputs) byOutput.set(name, [...(byOutput.get(name) ?? []), operation]);
  for (const names of byOutput.values()) names.sort();
  return byOutput;
}

/**
 * The operations a text names as the ones it is about, sorted: a lead "a, b (…) and c with …: …"
 * and each "; d: …" after it, or a closing "… (a, b)."; undefined when it names none so.
 */
function operationsNamed(text: string): string[] | undefined {
  const op = '[a-z]+(?:-[a-z]+)*';
  const ops = `${op}(?:(?:, | and )${op})*(?: \\([^)]*\\))?(?:(?:, | and )${op})*`;
  const leads = [...text.matchAll(new RegExp(`(?:^|; )(${ops})(?: with [^:;]+)?: `, 'g'))].map((m) => m[1] ?? '');
  const tail = new RegExp(`\\((${op}(?:, ${op})*)\\)\\.?$`).exec(text)?.[1];
  const found = leads[0] !== undefined && text.startsWith(leads[0]) ? leads : [tail ?? ''];
  const names = found.flatMap((l) => l.replace(/ \([^)]*\)/g, '').split(/, | and /));
  return names.every((n) => n in REGISTRY) ? [...new Set(names)].sort() : undefined;
}

describe('action.yml', () => {
  it('is valid action metadata for a node24 action', async () => {
    const schema = JSON.parse(await readFile(join(ROOT, 'test', 'schemas', 'github-action.schema.json'), 'utf8')) as object;
    const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
    const valid = validate(action);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
  });

  it('the schema refuses what the runner would refuse', async () => {
    const schema = JSON.parse(await readFile(join(ROOT, 'test', 'schemas', 'github-action.schema.json'), 'utf8')) as object;
    const validate = new Ajv({ strict: true }).compile(schema);
    const broken = [
      { ...action, runs: { using: 'node99', main: 'dist/index.js' } },
      { ...action, inputs: { ...action.inputs, extra: { required: false } } },
      { ...action, inputs: { ...action.inputs, retries: { description: 'x', default: 3 } } },
      { ...action, outputs: { ...action.outputs, 'bad name': { description: 'x' } } },
      { ...action, description: undefined },
    ];
    for (const b of broken) expect(validate(JSON.parse(JSON.stringify(b)))).toBe(false);
  });

  it('keeps every name of the contract', () => {
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(CONTRACT_INPUTS));
    expect(Object.keys(action.outputs)).toEqual(expect.arrayContaining(CONTRACT_OUTPUTS));
  });

  it('declares exactly the inputs the code reads and the outputs it sets', async () => {
    expect(Object.keys(action.inputs).sort()).toEqual([...INPUT_NAMES].sort());
    expect(Object.keys(action.outputs).sort()).toEqual((await outputNames()).sort());
  });

  it('no source file reads an input or sets an output outside those lists', async () => {
    const OUTPUT_NAMES = await outputNames();
    const files = (await readdir(join(ROOT, 'src'), { recursive: true })).filter((f) => f.endsWith('.ts'));
    for (const f of files) {
      const text = await readFile(join(ROOT, 'src', f), 'utf8');
      for (const m of text.matchAll(/getInput\(\s*'([^']+)'/g)) expect(INPUT_NAMES, `${f} reads ${m[1]}`).toContain(m[1]);
      for (const m of text.matchAll(/setOutput\(\s*'([^']+)'/g)) expect(OUTPUT_NAMES, `${f} sets ${m[1]}`).toContain(m[1]);
      // Only the runner-protocol module turns an input name into INPUT_<NAME>.
      if (f !== join('runner', 'workflow-commands.ts'))
        expect(text, `${f} reads process.env.INPUT_* directly`).not.toMatch(/process\.env\.INPUT_|process\.env\[['`]INPUT_/);
    }
  });

  it('loads for each operation the module named for it (two with the same inputs could be swapped unseen by the compiler)', async () => {
    const text = await readFile(join(ROOT, 'src', 'operations', 'registry.ts'), 'utf8');
    for (const name of Object.keys(REGISTRY))
      expect(text, name).toMatch(new RegExp(`'?${name}'?: declare\\((?:(?!declare\\()[^])*?import\\('\\./${name}\\.ts'\\)`));
  });

  it("gives each operation's input the default the code has: a value at it is not warned about as given", async () => {
    for (const [operation, declared] of Object.entries(REGISTRY)) {
      const op = await declared.load();
      // The registry knows each input and its default before the module loads: both say the same.
      expect(Object.keys(declared.inputs).sort(), operation).toEqual([...op.inputNames].sort());
      for (const [name, given] of Object.entries(declared.inputs))
        expect(given ?? undefined, `${operation} declares ${name}`).toBe(op.inputDefaults[name]);
    }
  });

  it("gives an input action.yml's default only when every operation reading it has that default, and else says each one's in its description", async () => {
    const byInput = await codeDefaults();
    expect(byInput.get('wait')?.get('review-build')).toBe('false');
    for (const [name, byOperation] of byInput) {
      const defaults = new Set(byOperation.values());
      const described = describedDefaults(action.inputs[name]?.description ?? '');
      if (defaults.size === 1) {
        expect(action.inputs[name]?.default, `${name} (read by ${[...byOperation.keys()].join(', ')})`).toBe([...defaults][0]);
        expect(described, `${name} has one default: action.yml's default says it`).toBeUndefined();
      } else {
        // The runner would fill in action.yml's default for every operation, hiding each one's own.
        expect(action.inputs[name]?.default, `${name}: its operations' defaults differ`).toBeUndefined();
        expect(described, `${name}'s description says each operation's default`).toEqual(byOperation);
      }
    }
  });

  it('names, where an input or output says which operations it is for, exactly the operations that read or set it', async () => {
    const readers = await readersOf();
    const setters = await settersOf();
    const all = Object.keys(REGISTRY).sort();
    for (const [name, input] of Object.entries(action.inputs)) {
      const named = operationsNamed(input.description);
      // An input every operation reads (a shared setting) names none; one a few read says which.
      const readBy = readers.get(name) ?? all;
      if (named !== undefined || readBy.length < all.length) expect.soft(named, `input ${name}: ${input.description}`).toEqual(readBy);
    }
    for (const [name, output] of Object.entries(action.outputs))
      if (!(COMMON_OUTPUTS as readonly string[]).includes(name))
        expect.soft(operationsNamed(output.description), `output ${name}: ${output.description}`).toEqual(setters.get(name));
  });

  it('marks required only what is required, with no default', () => {
    const required = Object.entries(action.inputs)
      .filter(([, i]) => i.required)
      .map(([n]) => n);
    expect(required).toEqual(['operation', 'base-url']);
    for (const name of required) expect(action.inputs[name]?.default).toBeUndefined();
  });
});

describe('README', () => {
  it("its inputs table matches action.yml: names, order, defaults (each operation's where they differ), required", async () => {
    const rows = tableAfter(readme, '## Inputs');
    expect(rows.map((r) => code(r[0]))).toEqual(Object.keys(action.inputs));
    const byInput = await codeDefaults();
    for (const [name, cell, def] of rows.map((r) => [code(r[0]) ?? '', r[1], action.inputs[code(r[0]) ?? '']] as const)) {
      const described = describedDefaults(def?.description ?? '');
      if (def?.required) expect(cell).toBe('(required)');
      else if (def?.default !== undefined) expect(code(cell)).toBe(def.default);
      else if (described !== undefined) expect(cell, name).toBe(readmeDefaults(byInput.get(name) ?? new Map()));
      else expect(code(cell), `README gives a default that action.yml does not have: ${cell}`).toBeUndefined();
    }
  });

  it("its inputs table names, for an input some operations read, the operations action.yml's description names", () => {
    for (const row of tableAfter(readme, '## Inputs')) {
      const name = code(row[0]) ?? '';
      const named = operationsNamed(action.inputs[name]?.description ?? '');
      if (named !== undefined) expect.soft(operationsNamed(row[2] ?? ''), `README's row of ${name}: ${row[2]}`).toEqual(named);
    }
  });

  it('its outputs table matches action.yml', () => {
    expect(tableAfter(readme, '## Outputs').map((r) => code(r[0]))).toEqual(Object.keys(action.outputs));
  });

  it("its outputs table names, for each output, the operations action.yml's description names (all: none named)", () => {
    /** "start-build, build-status with logs live: …" → the operations; undefined when the description names none. */
    const setBy = (description: string): string | undefined => {
      const names = /^([a-z-]+(?:, [a-z-]+)*)(?: with [^:]+)?: /.exec(description)?.[1];
      return names?.split(', ').every((n) => n in REGISTRY) ? names : undefined;
    };
    for (const row of tableAfter(readme, '## Outputs')) {
      const name = code(row[0]) ?? '';
      expect(row[1], name).toBe(setBy(action.outputs[name]?.description ?? '') ?? 'all');
    }
  });

  it('every workflow example, in the README and docs/, uses only declared inputs, and says its operation', async () => {
    const steps: Record<string, unknown>[] = [];
    const collect = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(collect);
      else if (typeof node === 'object' && node !== null) {
        const step = node as Record<string, unknown>;
        if (typeof step.uses === 'string' && step.uses.includes('/bkci-action@')) steps.push(step);
        Object.values(step).forEach(collect);
      }
    };
    for (const block of yamlBlocks(await userPages())) collect(parse(block.text));
    expect(steps.length).toBeGreaterThanOrEqual(6);
    for (const step of steps) {
      if (typeof step.with !== 'object' || step.with === null) continue;
      const names = Object.keys(step.with);
      for (const n of names) expect(Object.keys(action.inputs), `README example uses "${n}"`).toContain(n);
      expect(names).toContain('operation');
    }
  });
});

describe('the examples of the README and docs/ are safe to copy', () => {
  it('no run: script holds an expression: outputs reach shells through env', async () => {
    const scripts: string[] = [];
    const collect = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(collect);
      else if (typeof node === 'object' && node !== null) {
        const step = node as Record<string, unknown>;
        if (typeof step.run === 'string') scripts.push(step.run);
        Object.values(step).forEach(collect);
      }
    };
    for (const block of yamlBlocks(await userPages())) collect(parse(block.text));
    expect(scripts.length).toBeGreaterThanOrEqual(2);
    for (const script of scripts) expect(script).not.toMatch(/\$\{\{/);
  });
});
