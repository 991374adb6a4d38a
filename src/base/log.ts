/** Where the action's log lines go: @actions/core in the action, an array in tests. */
export interface Log {
  debug(message: string): void;
  info(message: string): void;
  warning(message: string): void;
  /** A foldable group of the lines that follow, until endGroup (the runner's `::group::`); plain lines where there are none. */
  group?(title: string): void;
  endGroup?(): void;
}
