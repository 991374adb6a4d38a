// Compiler messages as check annotations: a printed path lands on a repository file only when it
// is that file; every annotation is valid for GitHub whatever the build printed; every message
// not annotated is counted with its reason; a step's whole log is read, its first messages kept.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyProblems } from '../../emulator/github-schema.ts';
import type { Diagnostic } from '../../src/base/outcome.ts';
import {
  ANNOTATIONS_MAX,
  type Annotation,
  annotationsOf,
  fitBytes,
  LINE_MAX,
  MESSAGE_BYTES,
  repositoryPath,
  workspaceRoots,
} from '../../src/github/annotations.ts';
import { parseDiagnostics } from '../../src/pipeline/compiler-lines.ts';
import { DiagnosticsCollector, KEPT_IN_ALL, KEPT_PER_STEP, MESSAGE_KEPT } from '../../src/pipeline/diagnostics.ts';
import { Secrets } from '../../src/runner/secrets.ts';

/** The checkout the step's job made: the repository's files. */
const REPO = new Set([
  'index.d.ts',
  'src/app.ts',
  'src/main.c',
  'include/util.h',
  'src/main.rs',
  'src/main/java/app/Main.java',
  'main.go',
  'internal/calc/add.go',
  'App/Program.cs',
  'app/src/main/kotlin/Main.kt',
  'app/src/main/kotlin/My App.kt',
  'app/build.gradle.kts',
]);
const isFile = (p: string): boolean => REPO.has(p);
const PIPELINE = 'p-0123456789abcdef0123456789abcdef';
const place = (printed: string): string | undefined => repositoryPath(printed, isFile, workspaceRoots(PIPELINE));

describe('a printed path is a repository file only when it is that file', () => {
  const paths: [string, string | undefined][] = [
    ['src/main.c', 'src/main.c'],
    ['./src/main.c', 'src/main.c'],
    ['src/../include/util.h', 'include/util.h'],
    ['src//main.c', 'src/main.c'],
    ['../src/main.c', undefined],
    ['src/../../src/main.c', undefined],
    // Under bk-ci's workspace roots: its Docker build machines', a build agent's for the pipeline.
    ['/data/devops/workspace/src/main.c', 'src/main.c'],
    ['/data/landun/workspace/src/main.c', 'src/main.c'],
    [`/home/bkci/agent/workspace/${PIPELINE}/src/src/main.c`, 'src/main.c'],
    [`D:\\bkci\\agent\\workspace\\${PIPELINE}\\src\\App\\Program.cs`, 'App/Program.cs'],
    ['file:///data/devops/workspace/app/src/main/kotlin/Main.kt', 'app/src/main/kotlin/Main.kt'],
    [`file:///C:/bkci/agent/workspace/${PIPELINE}/src/app/src/main/kotlin/My%20App.kt`, 'app/src/main/kotlin/My App.kt'],
    // An agent installed under /data/devops: each root is tried.
    [`/data/devops/workspace/${PIPELINE}/src/src/main.c`, 'src/main.c'],
    // Another pipeline's workspace on the same agent is not this build's.
    ['/home/bkci/agent/workspace/p-ffff/src/src/main.c', undefined],
    // Files elsewhere that end like a repository file: never matched by their tail.
    ['node_modules/@types/node/index.d.ts', undefined],
    ['vendor/lib/src/main.c', undefined],
    ['/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/dep-0.1.0/src/main.rs', undefined],
    ['/data/devops/workspace/vendor/src/main.c', undefined],
    ['/tmp/build/src/main.c', undefined],
    ['/usr/include/stdio.h', undefined],
    ['C:\\agent\\ws\\App\\Program.cs', undefined],
    ['//server/share/src/main.c', undefined],
    ['file:///data/devops/workspace/%E0%A4%A.kt', undefined],
    ['src/ma\u0000in.c', undefined],
  ];
  it.each(paths)('%s → %s', (printed, expected) => {
    expect(place(printed)).toBe(expected);
  });

  it('a root is where a path starts, a drive letter and a URI too; nothing is matched that names no file', () => {
    const any = (): boolean => true;
    expect(place('/tmp/x/data/devops/workspace/src/main.c')).toBeUndefined();
    expect(place('vendor/file:///data/devops/workspace/src/main.c')).toBeUndefined();
    expect(place('src/x:/main.c')).toBeUndefined();
    expect(repositoryPath('file:///data/devops/workspace/%E0%A4%A.kt', any)).toBeUndefined();
    expect(repositoryPath('./', any)).toBeUndefined();
    expect(repositoryPath('/data/devops/workspace/', any)).toBeUndefined();
    expect(repositoryPath('/12345678901234567890/src/main.c', isFile)).toBeUndefined();
  });

  it("a pipeline id is the agent workspace's name as it is, not a pattern", () => {
    expect(repositoryPath('/a/workspace/p-a.b/src/src/main.c', isFile, workspaceRoots('p-a.b'))).toBe('src/main.c');
    expect(repositoryPath('/a/workspace/p-axb/src/src/main.c', isFile, workspaceRoots('p-a.b'))).toBeUndefined();
  });

  it("any pipeline's agent workspace when the step does not know the pipeline", () => {
    expect(repositoryPath('/a/workspace/p-ffff/src/src/main.c', isFile, workspaceRoots(undefined))).toBe('src/main.c');
    expect(repositoryPath('/a/workspace/other/src/src/main.c', isFile, workspaceRoots(undefined))).toBeUndefined();
  });
});

const compilers = (file: string): Diagnostic[] =>
  parseDiagnostics(readFileSync(join(import.meta.dirname, '..', 'compilers', file), 'utf8').split('\n'));

describe("real compilers' messages on the repository", () => {
  const cases: [file: string, annotated: [string, number][], said: RegExp][] = [
    [
      'tsc.txt',
      [
        ['src/app.ts', 1],
        ['src/app.ts', 2],
        ['src/app.ts', 3],
      ],
      /^4 compiler messages .*: 3 annotated .*1 on files outside the repository's checkout \(e\.g\. node_modules\/@types\/node\/index\.d\.ts\)\.$/,
    ],
    [
      'gcc-absolute.txt',
      [
        ['include/util.h', 1],
        ['src/main.c', 6],
        ['src/main.c', 7],
        ['src/main.c', 5],
      ],
      /^4 compiler messages in the failed steps' logs, all annotated on the check run\.$/,
    ],
    ['cargo-registry.txt', [], /^1 compiler message .*: 0 annotated .*1 on files outside/],
    [
      'maven.txt',
      [
        ['src/main/java/app/Main.java', 6],
        ['src/main/java/app/Main.java', 7],
        ['src/main/java/app/Main.java', 8],
        ['src/main/java/app/Main.java', 8],
        ['src/main/java/app/Main.java', 9],
      ],
      /^7 compiler messages .*: 5 annotated .*: 2 repeated\.$/,
    ],
    [
      'msbuild.txt',
      [
        ['App/Program.cs', 9],
        ['App/Program.cs', 5],
      ],
      /2 repeated/,
    ],
    ['msbuild-windows.txt', [['App/Program.cs', 9]], /1 on files outside .*native\.cpp/],
    [
      'go-build.txt',
      [
        ['main.go', 4],
        ['main.go', 9],
        ['internal/calc/add.go', 7],
      ],
      /all annotated/,
    ],
    [
      'kotlin-gradle.txt',
      [
        ['app/src/main/kotlin/Main.kt', 3],
        ['app/build.gradle.kts', 10],
        ['app/src/main/kotlin/My App.kt', 2],
        ['app/src/main/kotlin/Main.kt', 7],
      ],
      /1 on files outside .*Old\.kt/,
    ],
  ];
  it.each(cases)('%s', (file, annotated, said) => {
    const notes = annotationsOf({ found: compilers(file), unkept: 0 }, place);
    // Errors first, then warnings, each in the log's order.
    expect(notes.annotations.map((a) => [a.path, a.start_line])).toEqual(annotated);
    expect(notes.said).toMatch(said);
  });

  it('an annotation has the line, the column on that line, the level and the message', () => {
    const [a] = annotationsOf({ found: compilers('tsc-pretty.txt'), unkept: 0 }, place).annotations;
    expect(a).toEqual({
      path: 'src/app.ts',
      start_line: 1,
      end_line: 1,
      start_column: 14,
      end_column: 14,
      annotation_level: 'failure',
      message: "TS2322: Type 'string' is not assignable to type 'number'.",
    });
  });
});

const diag = (line: number, over: Partial<Diagnostic> = {}): Diagnostic => ({
  path: 'src/main.c',
  line,
  column: undefined,
  level: 'failure',
  message: `e${line}`,
  ...over,
});

describe('every message found and not annotated is counted, with its reason', () => {
  it('errors before warnings, at most 50; the rest beyond what GitHub takes in one update', () => {
    const warnings = Array.from({ length: 30 }, (_, i) => diag(i + 1, { level: 'warning' }));
    const errors = Array.from({ length: 30 }, (_, i) => diag(100 + i));
    const notes = annotationsOf({ found: [...warnings, ...errors], unkept: 0 }, place);
    expect(notes.annotations).toHaveLength(ANNOTATIONS_MAX);
    expect(notes.annotations.slice(0, 30).every((a) => a.annotation_level === 'failure')).toBe(true);
    expect(notes.more).toBe(10);
    expect(notes.said).toBe(
      "60 compiler messages in the failed steps' logs: 50 annotated on the check run; not annotated: 10 beyond the 50 GitHub takes in one update.",
    );
  });

  it('a line number no file has is left out and counted; a column GitHub cannot take is dropped, the annotation kept', () => {
    const found = [
      diag(0),
      diag(Number.POSITIVE_INFINITY),
      diag(LINE_MAX + 1),
      diag(LINE_MAX, { column: 0 }),
      diag(2, { column: 2 ** 40 }),
    ];
    const notes = annotationsOf({ found, unkept: 3 }, place);
    expect(notes.annotations.map((a) => [a.start_line, a.start_column])).toEqual([
      [LINE_MAX, undefined],
      [2, undefined],
    ]);
    expect(notes.more).toBe(6);
    expect(notes.said).toMatch(
      /: 3 with a line number no file has \(0, or beyond 2147483647\); 3 not kept \(the first 200 of a step are, 1000 in all\)\.$/,
    );
  });

  it('says nothing when the failed steps printed no compiler message', () => {
    expect(annotationsOf(undefined, place)).toEqual({ annotations: [], more: 0, said: undefined });
    expect(annotationsOf({ found: [], unkept: 0 }, place).said).toBeUndefined();
  });

  it('a message is cut to a bound in bytes, on a character, and is never empty', () => {
    const messages = [`${'界'.repeat(3000)}\u0000\ud800`, '\u0000 x \u0007', `${' '.repeat(5000)}y`, '  '];
    const found = messages.map((message, i) => diag(i + 1, { message }));
    const shown = annotationsOf({ found: [...found, diag(9, { message: '', level: 'warning' })], unkept: 0 }, place).annotations;
    expect(Buffer.byteLength(shown[0]?.message ?? '')).toBeLessThanOrEqual(MESSAGE_BYTES);
    expect(shown.map((a) => a.message)).toEqual([expect.stringMatching(/^界+…$/), 'x', 'y', 'error', 'warning']);
    expect(fitBytes('a\u0000b\tc\ud800', 100)).toBe('a b\tc\ufffd');
    // The bound is exact: what fits is kept whole; a cut keeps as much as fits with its `…` (3 bytes).
    expect(fitBytes('abcd', 4)).toBe('abcd');
    expect(fitBytes('abcdef', 5)).toBe('ab…');
  });

  it('names one file outside the repository, shortly', () => {
    const long = `/usr/include/${'x/'.repeat(300)}a.h`;
    const said = annotationsOf({ found: [diag(1, { path: long })], unkept: 0 }, place).said ?? '';
    // Cut with the mark every bound leaves, so that the scrubbing after it knows a cut secret's start.
    expect(said).toContain(`(e.g. ${long.slice(0, 200)}… (${long.length - 200} more characters))`);
    expect(said.length).toBeLessThan(400);
  });

  it('a secret in that path, cut by the bound, leaves no part of it once scrubbed', () => {
    const secret = 'tok-5ecret-v4lue-0042';
    const path = `/home/agent/${'d/'.repeat(90)}${secret}/x.h`;
    expect(path.indexOf(secret)).toBeLessThan(200);
    expect(path.indexOf(secret) + secret.length).toBeGreaterThan(200);
    const secrets = new Secrets(() => undefined);
    secrets.add(secret);
    const shown = secrets.redact(annotationsOf({ found: [diag(1, { path })], unkept: 0 }, place).said ?? '');
    for (let i = 0; i + 4 <= secret.length; i++) expect(shown).not.toContain(secret.slice(i, i + 4));
  });
});

// Open-ended input: whatever lines a build prints, what is sent is valid for GitHub.
const digits = fc.oneof(
  fc.integer({ min: 0, max: 3000 }).map(String),
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 400 }),
);
const nasty = fc.constantFrom(
  '\u0000',
  '\ud800',
  '\udfff',
  '\u001b[31m',
  '\r',
  '\u2028',
  '..',
  '\\',
  '//',
  'file://',
  '%',
  '%E0',
  ' ',
  ':',
  '(',
  '[',
);
const text = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 20 }), nasty);
const path = fc.oneof(
  fc.constantFrom(
    'src/main.c',
    './src/main.c',
    '../x.c',
    '/data/devops/workspace/src/main.c',
    'C:\\w\\a.cs',
    'file:///data/devops/workspace/app/build.gradle.kts',
  ),
  fc.array(text, { maxLength: 4 }).map((parts) => `${parts.join('/')}.c`),
);
const level = fc.constantFrom('error', 'warning', 'fatal error', 'note', 'ERROR');
const compilerLine = fc.oneof(
  fc.tuple(path, digits, digits, level, text).map(([p, l, c, v, m]) => `${p}:${l}:${c}: ${v}: ${m}`),
  fc.tuple(path, digits, digits, text).map(([p, l, c, m]) => `${p}(${l},${c}): error TS${l}: ${m}`),
  fc.tuple(path, digits, text).map(([p, l, m]) => `${p}.go:${l}: ${m}`),
  fc.tuple(path, digits, digits, text).map(([p, l, c, m]) => `e: file://${p}:${l}:${c} ${m}`),
  fc.tuple(path, digits, digits, text).map(([p, l, c, m]) => `[ERROR] ${p}:[${l},${c}] ${m}`),
  fc.tuple(text, path, digits, digits).map(([m, p, l, c]) => `error[E0425]: ${m}\n --> ${p}:${l}:${c}`),
  fc.array(text, { maxLength: 5 }).map((parts) => parts.join('')),
);
const logLines = fc.array(compilerLine, { maxLength: 80 }).map((ls) => ls.flatMap((l) => l.split('\n')));

function expectValid(a: Annotation): void {
  expect(Number.isSafeInteger(a.start_line) && a.start_line >= 1 && a.start_line <= LINE_MAX).toBe(true);
  expect(a.end_line).toBe(a.start_line);
  expect(a.start_column === undefined).toBe(a.end_column === undefined);
  if (a.start_column !== undefined)
    expect(Number.isSafeInteger(a.start_column) && a.start_column >= 1 && a.start_column <= LINE_MAX).toBe(true);
  expect(a.path).not.toMatch(/^\/|\\|(^|\/)\.\.?(\/|$)|\/\/|[\p{Cc}\p{Cs}]/u);
  expect(['failure', 'warning']).toContain(a.annotation_level);
  expect(a.path).not.toBe('');
  expect(a.message.trim()).not.toBe('');
  expect(a.message.isWellFormed()).toBe(true);
  expect(Buffer.byteLength(a.message)).toBeLessThanOrEqual(MESSAGE_BYTES);
}

describe('valid by construction', () => {
  it('property: whatever the log, every annotation is valid for GitHub, and every message found is annotated or counted', () => {
    fc.assert(
      fc.property(logLines, fc.boolean(), (lines, anyFile) => {
        const found = parseDiagnostics(lines);
        // The most lenient checkout: every path is a file of it.
        const notes = annotationsOf({ found, unkept: 0 }, (p) => repositoryPath(p, (rel) => anyFile || REPO.has(rel)));
        for (const a of notes.annotations) expectValid(a);
        expect(notes.annotations.length).toBeLessThanOrEqual(ANNOTATIONS_MAX);
        expect(notes.annotations.length + notes.more).toBe(found.length);
        expect(bodyProblems('checks/update', { output: { title: 't', summary: 's', annotations: notes.annotations } })).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe("a step's whole log is read, its first messages kept", () => {
  const error = (i: number): string => `src/app.ts(${i},1): error TS2304: Cannot find name 'n${i}'.`;

  it('keeps the first messages of each step and counts the rest; steps apart', () => {
    const c = new DiagnosticsCollector((t) => t);
    for (let i = 1; i <= KEPT_PER_STEP + 5; i++) {
      c.add('e-1', error(i));
      c.add('e-1', 'npm ERR! not a message');
    }
    c.add('e-2', error(1));
    const one = c.of(['e-1']);
    expect(one.found).toHaveLength(KEPT_PER_STEP);
    expect(one.found[0]?.line).toBe(1);
    expect(one.unkept).toBe(5);
    expect(c.of(['e-2', 'e-1', 'e-2']).found).toHaveLength(KEPT_PER_STEP + 1);
    expect(c.of(['e-3'])).toEqual({ found: [], unkept: 0 });
  });

  const fill = (c: DiagnosticsCollector): string[] => {
    const steps = Array.from({ length: KEPT_IN_ALL / KEPT_PER_STEP }, (_, s) => `e-${s}`);
    for (const step of steps) for (let i = 1; i <= KEPT_PER_STEP; i++) c.add(step, error(i));
    return steps;
  };

  it('keeps at most so many over all steps: the step that printed one longest ago gives its up, counted', () => {
    const c = new DiagnosticsCollector((t) => t);
    // A step that prints no message comes first: it has nothing to give up.
    c.add('e-setup', 'npm ci');
    const steps = fill(c);
    // e-0 prints a line again, but no message: it is still the one that printed one longest ago.
    c.add('e-0', 'npm ERR! code 2');
    // The step that fails last, after a build's worth of warnings in the steps before it.
    c.add('e-last', error(7));
    c.add('e-last', error(8));
    expect(c.of(['e-last']).found.map((d) => d.line)).toEqual([7, 8]);
    expect(c.of(['e-0'])).toEqual({ found: [], unkept: KEPT_PER_STEP });
    const all = c.of(['e-setup', 'e-last', ...steps]);
    expect(all.found).toHaveLength(KEPT_IN_ALL - KEPT_PER_STEP + 2);
    expect(all.unkept).toBe(KEPT_PER_STEP);
  });

  it('a step that prints a message again is the latest: the one before it gives up first', () => {
    const c = new DiagnosticsCollector((t) => t);
    fill(c);
    // e-0 is full: its message is counted, and it is now the step that printed one last.
    c.add('e-0', error(9));
    c.add('e-last', error(7));
    expect(c.of(['e-0']).found).toHaveLength(KEPT_PER_STEP);
    expect(c.of(['e-1'])).toEqual({ found: [], unkept: KEPT_PER_STEP });
  });

  it('a full step counts its further messages and takes none from the others; a new run of the build starts again', () => {
    const c = new DiagnosticsCollector((t) => t);
    const steps = fill(c);
    c.add('e-1', error(9));
    expect(c.of(['e-1'])).toEqual({ found: expect.any(Array), unkept: 1 });
    expect(c.of(steps)).toEqual({ found: expect.any(Array), unkept: 1 });
    expect(c.of(steps).found).toHaveLength(KEPT_IN_ALL);
    c.restart();
    expect(c.of(['e-0'])).toEqual({ found: [], unkept: 0 });
    c.add('e-0', error(7));
    expect(c.of(['e-0']).found).toHaveLength(1);
  });

  it("reads each step's lines in their order, a two-line message too, whatever other steps print between", () => {
    const c = new DiagnosticsCollector((t) => t);
    c.add('e-1', 'error[E0425]: cannot find value `y` in this scope');
    c.add('e-2', 'src/main.c:1:2: error: other');
    c.add('e-1', ' --> src/main.rs:5:32');
    expect(c.of(['e-1']).found).toMatchObject([{ path: 'src/main.rs', line: 5, message: 'E0425: cannot find value `y` in this scope' }]);
  });

  it('keeps a message at most so long', () => {
    const c = new DiagnosticsCollector((t) => t);
    c.add('e-1', `src/main.c:1:1: error: ${'x'.repeat(MESSAGE_KEPT * 2)}`);
    expect(c.of(['e-1']).found[0]?.message).toHaveLength(MESSAGE_KEPT);
  });

  it("scrubs the step's secrets out of what it keeps, before cutting it", () => {
    const c = new DiagnosticsCollector((t) => t.replaceAll('s3cr3t-token', '***'));
    c.add('e-1', `src/main.c:1:1: error: ${'x'.repeat(1990)}s3cr3t-token`);
    expect(c.of(['e-1']).found[0]?.message).toMatch(/x\*\*\*$/);
    expect(JSON.stringify(c.of(['e-1']))).not.toContain('s3cr3t');
  });
});
