/**
 * A URL the action carries (a build's page, an artifact's or a download's link): shown as a link
 * when it passes the one URL check (src/base/url.ts), else as text. Text is never made a link.
 */
interface Link {
  url: string;
}

/** What a summary cell holds: text, or a link. */
export type Cell = string | Link;

/** Pieces of the job summary; every string in them is treated as untrusted text when rendered. */
export type Block =
  | { kind: 'facts'; rows: [string, Cell][] }
  | { kind: 'table'; title: string; headers: string[]; rows: Cell[][] }
  | { kind: 'note'; text: string }
  /** Lines shown as they are (a log's last lines), in a code block. */
  | { kind: 'lines'; title: string; lines: string[] };

/** A compiler's message read in a build's log: the file and line it points at, as printed. */
export interface Diagnostic {
  /** The path as the compiler printed it (relative, absolute, a file:// URI). */
  path: string;
  /** As printed, so possibly 0 or beyond any file's length: GitHub's rules are applied where it is sent. */
  line: number;
  column: number | undefined;
  level: 'failure' | 'warning';
  message: string;
}

/** The compiler messages of a build's failed steps: the first ones kept, in the log's order, and how many more there were. */
export interface FoundDiagnostics {
  found: Diagnostic[];
  /** Messages read beyond what is kept (src/pipeline/diagnostics.ts bounds them per step). */
  unkept: number;
}

/** What an operation hands back to run(): outputs, the `data` output and the summary. */
export interface Outcome<O extends string = string> {
  /** One line for the log saying what happened. */
  headline: string;
  /** The result's `data`; absent when the operation got none. */
  data?: unknown;
  /** The operation's own outputs (the common ones are run()'s). */
  outputs: Partial<Record<O, string>>;
  blocks: Block[];
  /** HTTP status of the last openapi answer, as the call returned it. */
  status?: number | undefined;
  /** The user the calls were made as, when the operation learnt it from a call. */
  user?: string;
  /**
   * What took effect on the server ("project demo was created"), for a write whose later steps
   * may still fail: the failure is then said as "<done>, but <what failed>", never as if nothing
   * had happened.
   */
  done?: string;
  /** A build's failed steps' compiler messages, read when a check run is written (its annotations). */
  diagnostics?: FoundDiagnostics;
}
