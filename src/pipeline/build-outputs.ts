// The outputs the build operations set: those of the build every one of them follows, those of
// what is shown besides its status, and those of its GitHub check run. action.yml declares each
// (test/unit/metadata.test.ts ties them).

/** What a build's report sets (src/pipeline/build-report.ts): the log file, the variables, the artifacts. */
const REPORT_OUTPUTS = ['log-file', 'variables', 'artifacts'] as const;
export type ReportOutput = (typeof REPORT_OUTPUTS)[number];

/** What following a build sets, whichever way the step ends. */
export const BUILD_OUTPUTS = [
  'build-id',
  'build-num',
  'build-status',
  'build-url',
  'elapsed',
  'polls',
  'execute-count',
  'conclusion',
  'reviewers',
  ...REPORT_OUTPUTS,
  'downloaded',
  'download-path',
] as const;
export type BuildOutput = (typeof BUILD_OUTPUTS)[number];

/** The outputs of a build operation that can write a check run. */
export const CHECK_OUTPUTS = ['check-run-id', 'check-url'] as const;
export type CheckOutput = (typeof CHECK_OUTPUTS)[number];
