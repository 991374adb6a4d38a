// A port of how actions/runner reads a node action's output (stdout and stderr alike):
// ActionCommand.TryParseV2 (`::name props::data` after TrimStart) and the legacy TryParse
// (`##[name props]data` anywhere in a line), as ActionCommandManager.TryProcessCommand applies
// them, stop-commands and its resume token included. Lines end at \r\n, \n or \r (StreamReader).

const REGISTERED = [
  'add-mask',
  'add-matcher',
  'remove-matcher',
  'add-path',
  'debug',
  'echo',
  'endgroup',
  'error',
  'group',
  'internal-set-repo-path',
  'notice',
  'save-state',
  'set-env',
  'set-output',
  'stop-commands',
  'warning',
];

export interface RunnerCommand {
  name: string;
  data: string;
  stream: 'stdout' | 'stderr';
  line: string;
}

/** .NET's char.IsWhiteSpace, which TrimStart takes off. */
const trimStart = (s: string): string => s.replace(/^[\s\u0085]+/, '');

const unescapeData = (s: string): string => s.replace(/%0D/gi, '\r').replace(/%0A/gi, '\n').replace(/%25/gi, '%');

function parse(line: string, registered: Set<string>): { name: string; data: string } | undefined {
  const m = trimStart(line);
  if (m.startsWith('::')) {
    const end = m.indexOf('::', 2);
    if (end >= 0) {
      const info = m.slice(2, end);
      const space = info.indexOf(' ');
      const name = space < 0 ? info : info.slice(0, space);
      if (registered.has(name)) return { name, data: unescapeData(m.slice(end + 2)) };
    }
  }
  const at = line.indexOf('##[');
  if (at < 0) return undefined;
  const rb = line.indexOf(']', at);
  if (rb < 0) return undefined;
  const info = line.slice(at + 3, rb);
  const space = info.indexOf(' ');
  const name = space < 0 ? info : info.slice(0, space);
  return registered.has(name) ? { name, data: line.slice(rb + 1) } : undefined;
}

/** The runner's command processing over lines as they arrive, from either stream. */
export class RunnerReader {
  readonly commands: RunnerCommand[] = [];
  /** Lines the runner did not take as commands (shown as they are, masks applied). */
  readonly shown: string[] = [];
  readonly #registered = new Set(REGISTERED);
  #stopToken: string | undefined;

  read(text: string, stream: 'stdout' | 'stderr'): this {
    for (const line of text.split(/\r\n|\r|\n/)) this.line(line, stream);
    return this;
  }

  line(line: string, stream: 'stdout' | 'stderr'): void {
    const c = line === '' ? undefined : parse(line, this.#registered);
    if (c === undefined) {
      this.shown.push(line);
      return;
    }
    if (this.#stopToken !== undefined) {
      if (c.name.toLowerCase() === this.#stopToken.toLowerCase()) {
        this.#registered.delete(this.#stopToken);
        this.#stopToken = undefined;
      } else this.shown.push(line);
      return;
    }
    if (c.name === 'stop-commands') {
      this.#stopToken = c.data;
      this.#registered.add(c.data);
    }
    this.commands.push({ ...c, stream, line });
  }

  /** Whether commands are stopped now (a stop-commands without its resume token). */
  get stopped(): boolean {
    return this.#stopToken !== undefined;
  }
}

/** Every command the runner would take from `text`, read as one stream from its start. */
export const runnerCommands = (text: string, stream: 'stdout' | 'stderr' = 'stdout'): RunnerCommand[] =>
  new RunnerReader().read(text, stream).commands;
