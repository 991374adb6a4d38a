import type { Outputs } from './output-names.ts';

/** Pieces of the job summary; every string in them is treated as untrusted text when rendered. */
export type Block =
  | { kind: 'facts'; rows: [string, string][] }
  | { kind: 'table'; title: string; headers: string[]; rows: string[][] }
  | { kind: 'note'; text: string };

/** What an operation hands back to run(): outputs, the `data` output and the summary. */
export interface Outcome {
  /** One line for the log saying what happened. */
  headline: string;
  /** The result's `data`; absent when the operation got none. */
  data?: unknown;
  outputs: Outputs;
  blocks: Block[];
}

/** A failure that still has outputs and summary to show (a FAIL status, a timeout, failed events). */
export class OperationError extends Error {
  override name = 'OperationError';
  readonly outcome: Outcome;
  constructor(message: string, outcome: Outcome, options?: ErrorOptions) {
    super(message, options);
    this.outcome = outcome;
  }
}

export const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));
