// Compilers' messages in a build's log lines, read one line at a time (a step's log is never
// whole in memory). The forms read, each a row of FORMS below (README, "The build on the pull
// request"; examples from the compilers' own output in test/unit/compiler-lines.test.ts):
//   path(line[,col]): error|warning CODE: message     tsc, MSBuild/csc (a [project] tail dropped), MSVC
//   path:line:col - error|warning TS…: message        tsc --pretty
//   [ERROR]|[WARNING] path:[line,col] message         Maven's compiler plugin
//   e:|w: [file://]path:line:col message              Kotlin's Gradle plugin (and `path: (line, col): …`)
//   path:line[:col]: [fatal] error|warning: message   gcc, clang, javac, kotlinc, cargo --message-format=short
//   path.go:line[:col]: message                       go build, go vet, go test (no error or warning word)
//   error|warning[CODE]: message, then --> path:line:col   rustc, cargo
// A note (gcc's `note:`, rustc's `= note`), a context line (`In file included from a.c:2:`) or a
// line with no line number is no message. Each pattern is linear in the line's length: a path is
// a run of characters that holds no colon or bracket, so it can end in one place only.
import type { Diagnostic } from '../base/outcome.ts';

type Level = Diagnostic['level'];

/** A terminal's control sequences (colours, the erase-line gcc adds): compilers print them when they think a person reads them. */
const TERMINAL = new RegExp(`${String.fromCharCode(0x1b)}\\[[0-?]*[ -/]*[@-~]`, 'g');

/** Only the start of a long line is read: the location comes first, and a message is cut long before this. */
export const LINE_READ = 8192;

/** A path as compilers print it: an optional drive, then no white space, colon, bracket or quote. */
const PATH = String.raw`(?<path>(?:[A-Za-z]:)?[^\s:()[\]"'<>|*?]+)`;
const LINE = String.raw`(?<line>\d+)`;
const COL = String.raw`(?<col>\d+)`;
const MSG = '(?<msg>.*)';

interface Form {
  re: RegExp;
  /** What the message ends with that is no part of it. */
  tail?: RegExp;
}

/** The project MSBuild appends to each message: ` [C:\src\App\App.csproj]`. */
const PROJECT = /\s+\[[^\][]+\.(?:\w*proj|sln)\]$/i;

const FORMS: readonly Form[] = [
  // tsc --pretty: `src/x.ts:3:7 - error TS2304: Cannot find name 'y'.`
  { re: new RegExp(String.raw`(?:^|\s)${PATH}:${LINE}:${COL} - (?<level>error|warning) (?<code>TS\d+): ${MSG}$`) },
  // tsc, MSBuild/csc, MSVC: `Foo.cs(10,2): warning CS0168: …`, `1>C:\x\a.cpp(10): error C2065: …`.
  {
    re: new RegExp(
      String.raw`(?:^|\s|\d>)${PATH}\(${LINE}(?:,${COL})?(?:,\d+,\d+)?\)\s?:\s*(?:fatal\s+)?(?<level>error|warning)\s+(?<code>[A-Za-z]*\d+)\s*:\s*${MSG}$`,
      'i',
    ),
    tail: PROJECT,
  },
  // Maven: `[ERROR] /w/src/main/java/App.java:[6,13] incompatible types: …`.
  { re: new RegExp(String.raw`^\s*\[(?<level>ERROR|WARNING)\]\s+${PATH}:\[${LINE},${COL}\]\s*${MSG}$`) },
  // Kotlin's Gradle plugin: `e: file:///w/src/Main.kt:3:5 Unresolved reference: foo` (a colon after the column in some versions).
  { re: new RegExp(String.raw`^\s*(?<level>[ew]):\s+(?<path>\S+?):${LINE}:${COL}:?\s+${MSG}$`) },
  // …and its older form: `w: /w/src/Main.kt: (3, 5): Variable 'x' is never used`.
  { re: new RegExp(String.raw`^\s*(?<level>[ew]):\s+(?<path>\S+?):\s*\(${LINE},\s*${COL}\):\s*${MSG}$`) },
  // gcc, clang, javac, kotlinc, cargo's short form: `src/a.c:12:5: error: expected ';'`.
  {
    re: new RegExp(
      String.raw`(?:^|\s)${PATH}:${LINE}(?::${COL})?:\s*(?:fatal\s+)?(?<level>error|warning)(?:\s*\[(?<code>[\w-]+)\])?:\s*${MSG}$`,
      'i',
    ),
  },
  // Go: `./main.go:6:2: undefined: y`, `vet: ./main.go:6:2: …`, go test's `    x_test.go:12: got 1`.
  {
    re: new RegExp(String.raw`^\s*(?:vet:\s+)?(?<path>(?:[A-Za-z]:)?[^\s:()[\]"'<>|*?]+\.go):${LINE}(?::${COL})?:\s+(?<msg>\S.*)$`),
  },
];

/** rustc's first line: `error[E0425]: cannot find value `y` in this scope`; its location follows on the next line. */
const RUST_HEAD = /^(?<level>error|warning)(?:\[(?<code>\w+)\])?: (?<msg>\S.*)/;
const RUST_AT = new RegExp(String.raw`^\s*-->\s*(?<path>.+?):${LINE}:${COL}\s*$`);

/** The file a path names has an extension: `Makefile:12: …`, `http://host:80` and the like are no compiler's location. */
const HAS_EXTENSION = /\.[\w+-]+$/;

/** `warning`, `WARNING`, Kotlin's `w`: a warning; any other word (`error`, `e`) or none (Go's): a failure. */
const levelOf = (word: string | undefined): Level => (word?.[0]?.toLowerCase() === 'w' ? 'warning' : 'failure');

const number = (digits: string | undefined): number | undefined => (digits === undefined ? undefined : Number(digits));

/** What a compiler's line says, as a diagnostic; undefined when it is none. */
function diagnosticOf(groups: Record<string, string | undefined>, form?: Form): Diagnostic | undefined {
  const path = groups.path ?? '';
  if (!HAS_EXTENSION.test(path)) return undefined;
  const msg = groups.msg ?? '';
  const message = `${groups.code ? `${groups.code}: ` : ''}${form?.tail === undefined ? msg : msg.replace(form.tail, '')}`;
  return { path, line: Number(groups.line), column: number(groups.col), level: levelOf(groups.level), message };
}

/** A line as it reads without colours, white space or a line break at its ends. */
const bare = (line: string): string => line.slice(0, LINE_READ).replace(TERMINAL, '').trim();

/**
 * One step's lines read in their order: rustc's message is two lines, its location on the line
 * after its head, so the reader holds a head for one line.
 */
export class CompilerLines {
  #head: Record<string, string | undefined> | undefined;

  /** The diagnostic this line completes or is, if any. */
  read(raw: string): Diagnostic | undefined {
    const line = bare(raw);
    const head = this.#head;
    this.#head = undefined;
    if (head !== undefined) {
      const at = RUST_AT.exec(line)?.groups;
      if (at !== undefined) return diagnosticOf({ ...head, ...at });
    }
    for (const form of FORMS) {
      const groups = form.re.exec(line)?.groups;
      if (groups !== undefined) return diagnosticOf(groups, form);
    }
    this.#head = RUST_HEAD.exec(line)?.groups;
    return undefined;
  }
}

/** Every diagnostic in the lines of one step, in their order. */
export function parseDiagnostics(lines: readonly string[]): Diagnostic[] {
  const reader = new CompilerLines();
  return lines.flatMap((l) => reader.read(l) ?? []);
}
