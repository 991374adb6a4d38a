// What the demo pipeline's builds write, set and archive (`npm start`, `npm run emulator`): two jobs
// in parallel, bk-ci's own `##[group]` markers and colours, a line that looks like a runner command,
// a line written after the build ended, a step output, a secret and two files.
import type { z } from 'zod';
import type { pipelineSchema } from './pipeline-seed.ts';

type Seed = z.input<typeof pipelineSchema>;

/** The log, variables and artifacts of a build that runs from `fromMs` for `runningMs` (ms after build_start). */
export function demoBuild(fromMs: number, runningMs: number): Pick<Seed, 'logs' | 'variables' | 'artifacts'> {
  const at = (share: number) => fromMs + Math.floor(runningMs * share);
  return {
    logs: {
      steps: [
        { tag: 'e-checkout', jobId: 'build', stepId: 'checkout', containerHashId: 'c-build' },
        { tag: 'e-compile', jobId: 'build', stepId: 'compile', containerHashId: 'c-build' },
        { tag: 'e-unit', jobId: 'test', stepId: 'unit', containerHashId: 'c-test' },
      ],
      lines: [
        { at: at(0.05), step: 'e-checkout', text: '##[group]git fetch origin main' },
        { at: at(0.1), step: 'e-checkout', text: 'HEAD is now at 3f2c1e9 Release 1.10' },
        { at: at(0.15), step: 'e-checkout', text: '##[endgroup]' },
        { at: at(0.2), step: 'e-unit', text: 'running 120 tests', delayMs: 400 },
        { at: at(0.3), step: 'e-compile', text: 'compiling 48 files' },
        { at: at(0.4), step: 'e-unit', text: '::warning::a bk-ci line, not a command for the runner', delayMs: 400 },
        { at: at(0.55), step: 'e-compile', text: '\u001b[33mwarning: unused variable `x`\u001b[0m' },
        { at: at(0.7), step: 'e-unit', text: '\u001b[32m120 passed\u001b[0m', delayMs: 400 },
        { at: at(0.8), step: 'e-compile', text: 'wrote app/App.ipa (1.0 MiB)', lagMs: 1500 },
        { at: at(0.9), step: 'e-compile', text: 'done' },
        { at: fromMs + runningMs + 300, step: 'e-compile', text: 'cache uploaded (after the build ended)' },
      ],
    },
    variables: { DEPLOY_TOKEN: 'demo-secret-0042', 'jobs.build.steps.compile.outputs.VERSION': { value: '1.10', at: at(0.9) } },
    artifacts: [
      { path: 'app/App.ipa', size: 1_048_576 },
      {
        path: 'reports/coverage.html',
        type: 'CUSTOM_DIR',
        content: '<!doctype html><title>Coverage</title><p>94.2 % of lines covered</p>\n',
      },
    ],
  };
}
