/** Where the action's log lines go: @actions/core in the action, an array in tests. */
export interface Log {
  debug(message: string): void;
  info(message: string): void;
  warning(message: string): void;
}
