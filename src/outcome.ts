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
  /**
   * What took effect on the server ("project demo was created"), for a write whose later steps
   * may still fail: the failure is then said as "<done>, but <what failed>", never as if nothing
   * had happened.
   */
  done?: string;
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
