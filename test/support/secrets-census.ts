// The rows of the census of channels outside GitHub (test/run/secrets-census.test.ts, and a few
// through the built action in test/dist/census-dist.test.ts): each puts a text into one of the
// things bk-ci hands back, through the emulator's seeds and faults, and gives the step's inputs
// that make the step read and show it.
import { readFile } from 'node:fs/promises';
import { withoutControls } from '../../src/runner/secrets.ts';
import { type StepResult, unescapeData } from './dist-runner.ts';
import { reviewedPipeline, type World } from './world.ts';

/** A colour reset, as a build's log carries them: the runner renders it, so what it splits reads whole. */
export const SPLIT_BY = '\u001b[0m';

/** The text put into bk-ci's answer: the secret between marks the census looks for, so a row that shows nothing is caught. */
export const planted = (secret: string): string => `leak[${secret}]end`;
/** What shows where the text arrived, scrubbed: the mark before the secret, then `***`. */
export const ARRIVED = /leak\[\*\*\*/;

/** Every text a step leaves: its log (mask commands aside), stderr, summary, each output, its data file and log file. */
export async function channels(r: StepResult): Promise<Record<string, string>> {
  const file = async (path: string | undefined) => (path ? await readFile(path, 'utf8').catch(() => '') : '');
  return {
    log: unescapeData(r.stdout.replace(/^::add-mask::.*$/gm, '')),
    stderr: r.stderr,
    summary: r.summary,
    ...Object.fromEntries(Object.entries(r.outputs).map(([k, v]) => [`output ${k}`, v])),
    'data file': await file(r.outputs['data-file']),
    'log file': await file(r.outputs['log-file']),
  };
}

/** The text as a person reads it: a JSON escape of ESC read as ESC, then the terminal's control sequences out. */
export const asRead = (text: string): string => withoutControls(text.replace(/\\u001b/gi, '\u001b').replace(/\\u009b/gi, '\u009b'));

export interface CensusRow {
  /** Which of bk-ci's texts carries the secret. */
  text: string;
  /** Seeds the world so that bk-ci's answer carries `text` (the secret, planted); the step's inputs. */
  arrange(w: World, text: string, step: (inputs: Record<string, string>) => Promise<StepResult>): Promise<Record<string, string>>;
}

const START = { operation: 'start-build', 'pipeline-id': 'p-app', 'poll-interval': '1s', logs: 'none' };
const STEPS = [{ tag: 'e-compile', jobId: 'build', stepId: 'compile', containerHashId: 'c-build' }];

export const censusRows: readonly CensusRow[] = [
  {
    text: "a failed step's name and error (build_status errorInfoList)",
    arrange: async (w, t) => {
      w.pipeline({
        phases: [{ status: 'RUNNING', ms: 500 }],
        result: 'FAILED',
        errorInfoList: [{ taskName: t, errorCode: 2199001, errorMsg: t }],
      });
      return START;
    },
  },
  {
    text: 'a status this action does not know',
    arrange: async (w, t) => {
      w.pipeline({ phases: [{ status: 'RUNNING', ms: 3000 }] });
      w.emu.faults.add({ pattern: /build_status$/, times: 2, fault: { kind: 'patch', data: { status: `WAITING_${t}` } } });
      return START;
    },
  },
  {
    text: 'a field of the build status (the data output)',
    arrange: async (w, t) => {
      w.pipeline({ phases: [{ status: 'RUNNING', ms: 500 }] });
      w.emu.faults.add({ pattern: /build_status$/, times: Infinity, fault: { kind: 'patch', data: { remark: t } } });
      return START;
    },
  },
  {
    text: 'the names of a stage waiting for review, its group and its reviewers (the model)',
    arrange: async (w, t) => {
      const seed = reviewedPipeline({ groups: [{ name: t, reviewers: [t, 'bob'] }] });
      w.pipeline({
        ...seed,
        stages: ['Build', t],
        phases: (seed.phases ?? []).map((p) => (p.stage === 'Release' ? { ...p, stage: t } : p)),
      });
      return { ...START, 'on-review': 'fail' };
    },
  },
  {
    text: 'log lines, followed live (the log, the log file, the last lines of a failed build)',
    arrange: async (w, t) => {
      w.pipeline({
        phases: [{ status: 'RUNNING', ms: 1500 }],
        result: 'FAILED',
        logs: { steps: STEPS, lines: [{ at: 100, step: 'e-compile', text: `echo ${t}` }] },
      });
      return { ...START, logs: 'live' };
    },
  },
  {
    text: 'log lines, printed only on failure',
    arrange: async (w, t) => {
      w.pipeline({
        phases: [{ status: 'RUNNING', ms: 1500 }],
        result: 'FAILED',
        logs: { steps: STEPS, lines: [{ at: 100, step: 'e-compile', text: `echo ${t}` }] },
      });
      return { ...START, logs: 'on-failure' };
    },
  },
  {
    text: "a variable's value (the variables output)",
    arrange: async (w, t) => {
      w.pipeline({ phases: [{ status: 'RUNNING', ms: 500 }], variables: { NOTES: t, VERSION: '2.3.4' } });
      return { ...START, variables: 'NOTES, VERSION' };
    },
  },
  {
    text: "an artifact's name and path",
    arrange: async (w, t) => {
      w.pipeline({ phases: [{ status: 'RUNNING', ms: 500 }], artifacts: [{ path: `app/${t}.ipa`, size: 1 }] });
      return { ...START, artifacts: 'true' };
    },
  },
  {
    text: "an artifact's link",
    arrange: async (w, t) => {
      w.pipeline({ phases: [{ status: 'RUNNING', ms: 500 }], artifacts: [{ path: 'app/App.ipa', size: 1 }] });
      w.emu.faults.add({
        pattern: /user_download_url$/,
        fault: { kind: 'patch', data: { url: `https://h.example/d?t=${t}`, url2: null } },
      });
      return { ...START, artifacts: 'true' };
    },
  },
  {
    text: "bk-ci's refusal of a start",
    arrange: async (w, t) => {
      w.pipeline({ startError: { http: 200, status: 2101999, message: t } });
      return START;
    },
  },
  {
    text: "bk-ci's refusal of a retry",
    arrange: async (w, t, step) => {
      w.pipeline({ phases: [{ status: 'RUNNING', ms: 500 }], result: 'FAILED', retryError: { http: 200, status: 2101999, message: t } });
      const failed = await step(START);
      return { operation: 'retry-build', 'build-id': failed.outputs['build-id'] ?? '', 'pipeline-id': 'p-app', logs: 'none' };
    },
  },
  {
    text: "bk-ci's refusal of a review decision",
    arrange: async (w, t, step) => {
      w.pipeline(reviewedPipeline({ groups: [{ name: 'QA', reviewers: ['alice'] }] }));
      const started = await step({ ...START, wait: 'false' });
      w.clock.t += 1500;
      w.emu.faults.add({ pattern: /manual_start_build_stage$/, fault: { kind: 'wrapper-status', status: 2101999, message: t } });
      return { operation: 'review-build', 'build-id': started.outputs['build-id'] ?? '', decision: 'approve', wait: 'false' };
    },
  },
  {
    text: "a reviewer's reason for rejecting (the model's suggest)",
    arrange: async (w, t, step) => {
      w.pipeline(reviewedPipeline({ groups: [{ name: 'QA', reviewers: ['bob'] }] }));
      const id = (await step({ ...START, wait: 'false' })).outputs['build-id'] ?? '';
      w.clock.t += 1500;
      const bob = { 'access-token': w.accessTokens.bob ?? '', 'user-id': 'bob' };
      await step({ operation: 'review-build', 'build-id': id, decision: 'reject', suggestion: t, wait: 'false', ...bob });
      w.clock.t += 5000;
      return { operation: 'build-status', 'build-id': id, 'pipeline-id': 'p-app', logs: 'none' };
    },
  },
  {
    text: "a project's fields (get-project)",
    arrange: async (w, t) => {
      w.emu.seedProject({ englishName: 'leaky', projectName: t, description: t, creator: 'alice' });
      return { operation: 'get-project', 'project-id': 'leaky' };
    },
  },
  {
    text: 'a project in a list (list-projects)',
    arrange: async (w, t) => {
      w.emu.seedProject({ englishName: 'leaky', projectName: t, description: t, creator: 'alice' });
      return { operation: 'list-projects' };
    },
  },
  {
    text: "a callback's failure reason",
    arrange: async (w, t) => {
      w.emu.faults.add({
        pattern: /callbacks\/batch$/,
        fault: { kind: 'patch', data: { successEvents: [], failureEvents: { BUILD_END: t } } },
      });
      return { operation: 'create-callbacks', 'callback-url': 'https://h.example/cb', region: 'DEVNET', events: 'BUILD_END' };
    },
  },
  {
    text: "a re-sign task's failure message",
    arrange: async (w, t) => {
      w.emu.seedSign({ resignId: 's-leak', result: 'FAIL', failMessage: t });
      return { operation: 'sign-detail', 'resign-id': 's-leak', 'poll-interval': '1s' };
    },
  },
  {
    text: 'an error body (HTTP 500, plain text)',
    arrange: async (w, t) => {
      w.emu.faults.add({ pattern: /\/projects\/demo$/, fault: { kind: 'status', status: 500, contentType: 'text', body: t } });
      return { operation: 'get-project' };
    },
  },
  {
    text: "bk-ci's wrapper message (HTTP 200, status not 0)",
    arrange: async (w, t) => {
      w.emu.faults.add({ pattern: /\/projects\/demo$/, fault: { kind: 'wrapper-status', status: 2100001, message: t } });
      return { operation: 'get-project' };
    },
  },
  {
    text: "request's data",
    arrange: async (w, t) => {
      w.emu.seedProject({ englishName: 'leaky', projectName: t, creator: 'alice' });
      return { operation: 'request', path: 'v3/projects/leaky' };
    },
  },
];
