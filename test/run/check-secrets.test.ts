// One door out: a census. Each secret the step knows (the access token, the bk-token, the API
// gateway's app-secret, a masked build variable's value, the github-token itself) is put into every
// bk-ci text that can reach a channel (the pipeline's name, its stages, jobs and steps, bk-ci's
// errors, the failed step's log lines and the compiler messages in them, a review's groups and
// words, artifact names), and shown to arrive nowhere: the job log, the summary, the outputs, the
// data file, and every request the emulator's GitHub received (its paths and bodies, the Markdown
// fields rendered). run() in this process against the bk-ci emulator and its GitHub side.
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, type TestContext } from 'vitest';
import { layout } from '../../emulator/build-model.ts';
import { startGitHub } from '../../emulator/github.ts';
import { type StepResult, unescapeData } from '../support/dist-runner.ts';
import { seen } from '../support/github-markdown.ts';
import { GH_TOKEN, githubEnv } from '../support/github-world.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { doorOptions, GATEWAY_APP, type PipelineSeed, type World, worldForTest } from '../support/world.ts';

afterAll(cleanupRuns);

const VARIABLE = 'v4r.S3cr3t-val_ue+#1';
type Kind = 'access-token' | 'bk-token' | 'app-secret' | 'variable' | 'github-token';

/** The secret of each kind, and the step's credentials that make it the step's. */
function secretOf(kind: Kind, w: World): { secret: string; inputs: Record<string, string> } {
  const base = { 'base-url': w.emu.url, 'project-id': 'demo' };
  switch (kind) {
    case 'access-token':
      return { secret: w.accessToken, inputs: { ...base, 'access-token': w.accessToken, 'user-id': 'alice' } };
    case 'app-secret':
      return { secret: GATEWAY_APP['app-secret'], inputs: { ...base, ...GATEWAY_APP, 'user-id': 'alice' } };
    case 'variable':
      return { secret: VARIABLE, inputs: { ...base, 'bk-token': w.bkToken, variables: 'DEPLOY_KEY', 'mask-variables': 'DEPLOY_KEY' } };
    case 'bk-token':
      return { secret: w.bkToken, inputs: { ...base, 'bk-token': w.bkToken } };
    case 'github-token':
      return { secret: GH_TOKEN, inputs: { ...base, 'bk-token': w.bkToken } };
  }
}

const stages = ['Build', 'Release'];

/** A pipeline whose every text holds `s` (a variable's value only where it can be known: what is read at the end). */
function seeded(s: string, early: boolean, ending: 'failure' | 'review'): PipelineSeed {
  const e = early ? s : 'plain';
  const jobs = { Build: [{ name: `Linux ${e}`, jobId: 'build', steps: [{ name: `Compile ${e}`, stepId: 'compile' }] }] };
  const [compile = ''] = layout('p-app', stages, jobs).flatMap((st) => st.jobs.flatMap((j) => j.steps.map((x) => x.id)));
  const review = { groups: [{ name: `QA ${e}`, reviewers: ['bob'] }], desc: `check ${e} first` };
  return {
    name: `Ship ${e}`,
    stages: [`Build ${e}`, 'Release'],
    jobs: { [`Build ${e}`]: jobs.Build },
    phases:
      ending === 'review'
        ? [
            { status: 'RUNNING', ms: 2000, stage: `Build ${e}` },
            { status: 'STAGE_SUCCESS', stage: 'Release', review },
          ]
        : [{ status: 'RUNNING', ms: 3000, stage: `Build ${e}` }],
    result: 'FAILED',
    errorInfoList: [{ taskName: `Compile ${s}`, errorCode: 2199001, errorMsg: `exit 2: token ${s} refused` }],
    logs: {
      steps: [{ tag: compile, jobId: 'build', stepId: 'compile', containerHashId: 'c-1' }],
      lines: [
        { at: 500, step: compile, text: `src/main.c:3:1: error: ${s} is not declared` },
        { at: 600, step: compile, text: `curl -H "Authorization: ${s}" failed` },
      ],
    },
    variables: { DEPLOY_KEY: VARIABLE },
    artifacts: [{ path: `app/${s.replace(/[/]/g, '_')}.ipa`, size: 10 }],
  };
}

/** Every text the step showed: its log (mask commands aside, workflow-command escapes undone), summary, outputs, data file. */
async function shown(r: StepResult, kind: Kind): Promise<string[]> {
  // A value the build hands over is output as bk-ci has it (variables, artifacts, data): masking
  // protects the log, it never rewrites a value the step outputs. It is known to be secret once the
  // variables are read at the build's end, before the failed step's lines that logs: on-failure
  // prints: the job log and the summary hold it nowhere.
  const log = [unescapeData(r.stdout.replace(/^::add-mask::.*$/gm, '')), r.stderr, r.summary];
  if (kind === 'variable') return log;
  const data = r.outputs['data-file'] ? await readFile(r.outputs['data-file'], 'utf8') : '';
  return [...log, JSON.stringify(r.outputs), data];
}

/** Everything GitHub received, and each Markdown field as a reader sees it and with its escapes undone. */
function toGitHub(received: { path: string; body: string }[]): string[] {
  const out: string[] = [];
  for (const q of received) {
    out.push(decodeURIComponent(q.path), q.body);
    const output = (q.body === '' ? {} : (JSON.parse(q.body) as { output?: Record<string, unknown> })).output ?? {};
    for (const field of ['summary', 'text'])
      if (typeof output[field] === 'string') out.push(seen(output[field]), output[field].replace(/\\(.)/g, '$1'));
  }
  return out;
}

async function census(kind: Kind, ending: 'failure' | 'review', test: TestContext) {
  const w = await worldForTest(kind === 'app-secret' ? doorOptions('apigw') : {}, test);
  const gh = await startGitHub({ now: () => w.clock.now(), onHold: () => w.clock.lapse('github') });
  test.onTestFinished(() => gh.close());
  gh.addToken(GH_TOKEN);
  const { secret, inputs } = secretOf(kind, w);
  w.pipeline(seeded(secret, kind !== 'variable', ending));
  const ws = await mkdtemp(join(tmpdir(), 'bkci-census-'));
  await mkdir(join(ws, 'src'));
  await writeFile(join(ws, 'src', 'main.c'), '\n');
  const r = await runInProcess({
    clock: w.clock,
    inputs: {
      operation: 'start-build',
      ...inputs,
      'pipeline-id': 'p-app',
      'poll-interval': '1s',
      retries: '0',
      logs: 'on-failure',
      artifacts: 'true',
      'on-review': 'fail',
      check: 'true',
      'github-token': GH_TOKEN,
    },
    env: githubEnv(gh, { GITHUB_WORKSPACE: ws }),
  });
  return { r, gh, secret };
}

const KINDS: Kind[] = ['access-token', 'bk-token', 'app-secret', 'variable', 'github-token'];

describe('no secret of the step arrives anywhere', () => {
  it.for(KINDS.flatMap((k) => (['failure', 'review'] as const).map((e) => [k, e] as const)))(
    '%s, a build ending in %s',
    async ([kind, ending], test) => {
      const { r, gh, secret } = await census(kind, ending, test);
      expect(r.outputs.conclusion).toBe(ending === 'review' ? 'waiting-review' : 'failure');
      // The check was written, with the texts that held the secret.
      expect(gh.runs).toHaveLength(1);
      expect(gh.runs[0]?.status).toBe('completed');
      expect(gh.received.some((q) => q.body.includes(ending === 'review' ? 'QA' : 'refused'))).toBe(true);
      const forms = new Set([secret, decodeURIComponent(secret), encodeURIComponent(secret)]);
      for (const [where, texts] of [
        ['the step', await shown(r, kind)],
        ['GitHub', toGitHub(gh.received)],
      ] as const)
        for (const text of texts) for (const form of forms) expect(text, `${kind} reached ${where}`).not.toContain(form);
    },
  );
});
