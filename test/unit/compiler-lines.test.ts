// Compilers' messages read from a build's log, line by line as the log follower hands them over:
// a table over real compilers' output (test/compilers/, which says how each was made) and the
// lines that look like a message and are none.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/base/outcome.ts';
import { CompilerLines, LINE_READ, parseDiagnostics } from '../../src/pipeline/compiler-lines.ts';

const output = (file: string): string[] => readFileSync(join(import.meta.dirname, '..', 'compilers', file), 'utf8').split('\n');

type Row = [path: string, line: number, column: number | undefined, level: Diagnostic['level'], message: string];
const E = 'failure';
const W = 'warning';

const gccRows = (prefix: string, quote: [string, string]): Row[] => {
  const [o, c] = quote;
  return [
    [`${prefix}src/../include/util.h`, 1, 46, E, `expected ${o};${c} before ${o}}${c} token`],
    [`${prefix}src/main.c`, 6, 18, E, `too many arguments to function ${o}f${c}`],
    [`${prefix}src/main.c`, 7, 10, E, `${o}undefined_y${c} undeclared (first use in this function)`],
    [`${prefix}src/main.c`, 5, 7, W, `unused variable ${o}unused${c} [-Wunused-variable]`],
  ];
};

const tscRows: Row[] = [
  [
    'node_modules/@types/node/index.d.ts',
    1,
    13,
    E,
    "TS2403: Subsequent variable declarations must have the same type.  Variable 'process' must be of type 'string', but here has type 'number'.",
  ],
  ['src/app.ts', 1, 14, E, "TS2322: Type 'string' is not assignable to type 'number'."],
  ['src/app.ts', 2, 1, E, "TS2552: Cannot find name 'undefinedName'. Did you mean 'undefined'?"],
  ['src/app.ts', 3, 12, E, "TS7006: Parameter 'x' implicitly has an 'any' type."],
];

const cargoRows = (mismatched: string): Row[] => [
  ['src/main.rs', 5, 32, E, 'E0425: cannot find value `y` in this scope'],
  ['src/main.rs', 4, 18, E, mismatched],
  ['src/main.rs', 5, 20, E, 'E0061: this function takes 1 argument but 2 arguments were supplied'],
];

const javaAt = '/data/landun/workspace/src/main/java/app/Main.java';
const csAt = '/data/devops/workspace/App/Program.cs';
const kt = '/data/devops/workspace/app';
const winAgent = 'bkci\\agent\\workspace\\p-0123456789abcdef0123456789abcdef\\src';

const table: [file: string, rows: Row[]][] = [
  ['gcc.txt', gccRows('', ['‘', '’'])],
  ['gcc-colour.txt', gccRows('', ['‘', '’'])],
  ['gcc-absolute.txt', gccRows('/data/devops/workspace/', ['‘', '’'])],
  [
    'clang.txt',
    [
      ['src/../include/util.h', 1, 46, E, "expected ';' after return statement"],
      ['src/main.c', 6, 18, E, "too many arguments to function call, expected single argument 'a', have 2 arguments"],
      ['src/main.c', 7, 10, E, "use of undeclared identifier 'undefined_y'"],
      ['src/main.c', 5, 7, W, "unused variable 'unused' [-Wunused-variable]"],
    ],
  ],
  [
    'javac.txt',
    [
      ['src/main/java/app/Main.java', 6, undefined, E, 'incompatible types: String cannot be converted to int'],
      ['src/main/java/app/Main.java', 7, undefined, E, 'cannot find symbol'],
      ['src/main/java/app/Main.java', 8, undefined, W, '[rawtypes] found raw type: List'],
      ['src/main/java/app/Main.java', 8, undefined, W, '[rawtypes] found raw type: ArrayList'],
      ['src/main/java/app/Main.java', 9, undefined, W, '[unchecked] unchecked call to add(E) as a member of the raw type List'],
    ],
  ],
  [
    'maven.txt',
    [
      [javaAt, 8, 5, W, 'found raw type: java.util.List'],
      [javaAt, 8, 29, W, 'found raw type: java.util.ArrayList'],
      [javaAt, 9, 12, W, 'unchecked call to add(E) as a member of the raw type java.util.List'],
      [javaAt, 6, 13, E, 'incompatible types: java.lang.String cannot be converted to int'],
      [javaAt, 7, 5, E, 'cannot find symbol'],
      // Maven says its errors twice: the second time is a repetition (counted as one, src/github/annotations.ts).
      [javaAt, 6, 13, E, 'incompatible types: java.lang.String cannot be converted to int'],
      [javaAt, 7, 5, E, 'cannot find symbol'],
    ],
  ],
  ['tsc.txt', tscRows],
  ['tsc-pretty.txt', tscRows],
  ['cargo.txt', cargoRows('E0308: mismatched types')],
  // The short form puts the label of the primary span into the message.
  ['cargo-short.txt', cargoRows('E0308: mismatched types: expected `i32`, found `&str`')],
  [
    'cargo-registry.txt',
    [['/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/dep-0.1.0/src/main.rs', 1, 21, E, 'E0308: mismatched types']],
  ],
  [
    'go-build.txt',
    [
      ['./main.go', 4, 2, E, '"os" imported and not used'],
      ['./main.go', 9, 2, E, 'undefined: y'],
      ['./internal/calc/add.go', 7, 9, E, 'cannot use "a" (untyped string constant) as int value in return statement'],
    ],
  ],
  [
    'go-vet.txt',
    [
      ['./main.go', 12, 2, E, 'fmt.Printf format %d has arg name of wrong type string'],
      ['internal/calc/add.go', 7, 9, E, 'cannot use "a" (untyped string constant) as int value in return statement'],
    ],
  ],
  // A test's failure is a message on its line; a panic's stack (`main.go:15 +0x1d`) is none.
  ['go-test.txt', [['add_test.go', 9, undefined, E, 'Add(1, 2) = 4, want 3']]],
  [
    'msbuild.txt',
    [
      [csAt, 9, 13, E, "CS0103: The name 'y' does not exist in the current context"],
      [csAt, 5, 17, W, "CS0168: The variable 'e' is declared but never used"],
      [csAt, 5, 17, W, "CS0168: The variable 'e' is declared but never used"],
      [csAt, 9, 13, E, "CS0103: The name 'y' does not exist in the current context"],
    ],
  ],
  [
    'msbuild-windows.txt',
    [
      [`D:\\${winAgent}\\App\\Program.cs`, 9, 13, E, "CS0103: The name 'y' does not exist in the current context"],
      ['C:\\src\\lib\\native.cpp', 12, undefined, E, "C2065: 'y': undeclared identifier"],
    ],
  ],
  [
    'kotlin-gradle.txt',
    [
      [`file://${kt}/src/main/kotlin/Main.kt`, 3, 5, E, 'Unresolved reference: foo'],
      [`file://${kt}/src/main/kotlin/Main.kt`, 7, 9, W, "Variable 'x' is never used"],
      [`file://${kt}/build.gradle.kts`, 10, 49, E, 'Unresolved reference: serviceOf'],
      [`${kt}/src/main/kotlin/Old.kt`, 12, 13, W, "'old' is deprecated. Use new"],
      [
        'file:///C:/bkci/agent/workspace/p-0123456789abcdef0123456789abcdef/src/app/src/main/kotlin/My%20App.kt',
        2,
        1,
        E,
        'Expecting a top level declaration',
      ],
    ],
  ],
  [
    'kotlinc.txt',
    [
      ['src/main.kt', 3, 5, E, "unresolved reference 'foo'."],
      ['src/main.kt', 7, 9, W, "variable 'x' is never used"],
    ],
  ],
];

const asRow = (d: Diagnostic): Row => [d.path, d.line, d.column, d.level, d.message];

describe("compilers' output", () => {
  it.each(table)('%s', (file, rows) => {
    expect(parseDiagnostics(output(file)).map(asRow)).toEqual(rows);
  });

  it('reads lines ending in CR LF (a Windows agent) as the same messages', () => {
    for (const [file, rows] of table) expect(parseDiagnostics(output(file).map((l) => `${l}\r`)).map(asRow), file).toEqual(rows);
  });

  it('every compiler here is named where the README and docs list the forms read', () => {
    const names: Record<string, string> = {
      gcc: 'gcc',
      clang: 'clang',
      javac: 'javac',
      maven: 'Maven',
      tsc: 'tsc',
      cargo: 'cargo',
      go: 'Go',
      msbuild: 'MSBuild',
      kotlin: 'Kotlin',
      kotlinc: 'kotlinc',
    };
    const root = join(import.meta.dirname, '..', '..');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const bullet = readme.slice(readme.indexOf('- **Failed steps**'), readme.indexOf('- **Forks**'));
    const docs = readFileSync(join(root, 'docs', 'seeing-the-build.md'), 'utf8').split('## Compiler messages on the pull request')[1] ?? '';
    for (const [file] of table) {
      const name = names[file.replace(/(-[a-z]+)?\.txt$/, '')] ?? file;
      expect(bullet, `README: ${name}`).toContain(name);
      expect(docs, `docs: ${name}`).toContain(name);
    }
  });
});

describe('lines that are no message', () => {
  const none: [string, string[]][] = [
    ['make', ['make: *** [Makefile:12: all] Error 2', 'Makefile:12: *** missing separator.  Stop.']],
    ['a URL', ['http://host:80: error: x', 'see https://example.com/a.c:3:1: error: x']],
    [
      'gcc context and notes',
      ['In file included from src/main.c:2:', 'src/main.c: In function ‘main’:', 'src/main.c:3:5: note: declared here'],
    ],
    ["tsc's related location and its table", ['  index.d.ts:1:13', '     1  src/app.ts:1']],
    ['a linker', ["/usr/bin/ld: main.o: in function `main':", "main.c:(.text+0x5): undefined reference to `y'"]],
    ['a log line naming a file', ['2024/05/06 10:00:00 server.go:42: listening on :8080', 'at Object.<anonymous> (/w/index.js:3:9)']],
    ['npm', ['npm ERR! code ELIFECYCLE', 'npm ERR! errno 2', 'npm error Lifecycle script `build` failed with error:']],
    ["rustc's head without its location", ['error[E0425]: cannot find value `y`', 'something else', ' --> src/main.rs:5:32']],
    ['no line number', ['src/a.c: error: no line', 'src/a.c:: error: empty']],
    ['a path with no extension', ['v1.2/Makefile:3: error: missing separator', 'bin/tool:4:1: warning: x']],
    ["rustc's head is a line's start", ['= note: error: x', ' --> src/main.rs:1:1', 'build-error: x', ' --> src/main.rs:1:1']],
  ];
  it.each(none)('%s', (_, lines) => {
    expect(parseDiagnostics(lines)).toEqual([]);
  });

  it("rustc's head holds for one line: a message on the next line is read as itself", () => {
    expect(parseDiagnostics(['error: expected item', 'src/main.c:1:2: error: y']).map(asRow)).toEqual([['src/main.c', 1, 2, E, 'y']]);
    expect(parseDiagnostics(['error: duplicate key', ' --> Cargo.toml:7:2']).map(asRow)).toEqual([
      ['Cargo.toml', 7, 2, E, 'duplicate key'],
    ]);
  });

  it("the level word in any case; MSBuild's project tail only at the end, white space before it too", () => {
    expect(
      parseDiagnostics([
        'src/main.c:1:2: Error: a',
        'src/main.c:3:4: WARNING: b',
        'App/A.cs(5,6): ERROR CS0001: see [App/B.csproj] first  [C:\\App\\App.csproj]',
      ]).map(asRow),
    ).toEqual([
      ['src/main.c', 1, 2, E, 'a'],
      ['src/main.c', 3, 4, W, 'b'],
      ['App/A.cs', 5, 6, E, 'CS0001: see [App/B.csproj] first'],
    ]);
  });

  it('a line number is read as printed, even one no file has (the annotations leave it out)', () => {
    const big = '9'.repeat(400);
    expect(parseDiagnostics([`src/a.c:${big}:1: error: x`, 'src/a.c:0: error: zero'])).toMatchObject([
      { line: Number.POSITIVE_INFINITY, column: 1 },
      { line: 0, column: undefined },
    ]);
  });

  it('reads only the start of a very long line', () => {
    const reader = new CompilerLines();
    const d = reader.read(`src/a.c:1:2: error: ${'x'.repeat(LINE_READ * 4)}`);
    expect(d?.message.length).toBeLessThan(LINE_READ);
    // A line with no white space, megabytes long (minified code), is read in bounded time.
    expect(reader.read('a'.repeat(4_000_000))).toBeUndefined();
  });
});
