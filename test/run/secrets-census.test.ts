// The census of the channels outside GitHub: the step's own credential put into every text bk-ci
// hands back that can reach what the step shows (build status, model, log lines, variables,
// artifacts, reviews, refusals, projects, callbacks, re-sign tasks, error bodies), as it is and
// split by a terminal's colour code, arrives nowhere: not in the log, the summary, any output,
// the data file or the log file. run() in this process against the emulator, on the clock they
// share; test/dist/census-dist.test.ts runs a few rows through the built action. (The GitHub
// channels have their own census.)
import { afterAll, describe, expect, it } from 'vitest';
import type { StepResult } from '../support/dist-runner.ts';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { ARRIVED, asRead, type CensusRow, censusRows, channels, planted, SPLIT_BY } from '../support/secrets-census.ts';
import { useWorld } from '../support/world.ts';

afterAll(cleanupRuns);

const w = useWorld({ users: ['alice', 'bob'] });

describe.each(['as it is', 'split by a colour code'] as const)("the step's access token in bk-ci's texts, %s", (form) => {
  it.each(censusRows.map((row) => [row.text, row] as [string, CensusRow]))('%s: arrives nowhere', async (_, row) => {
    const secret = w.accessToken;
    const text = planted(form === 'as it is' ? secret : `${secret.slice(0, 6)}${SPLIT_BY}${secret.slice(6)}`);
    const step = (inputs: Record<string, string>): Promise<StepResult> =>
      runInProcess({
        clock: w.clock,
        inputs: { 'base-url': w.emu.url, 'access-token': secret, 'user-id': 'alice', 'project-id': 'demo', retries: '0', ...inputs },
      });
    const r = await step(await row.arrange(w, text, step));
    const shown = await channels(r);
    // The text reached the step and was shown, scrubbed: a row that shows nothing proves nothing.
    expect(asRead(Object.values(shown).join('\n')), `${row.text} was shown nowhere`).toMatch(ARRIVED);
    for (const [channel, text] of Object.entries(shown))
      for (const s of [secret, decodeURIComponent(secret)]) expect(asRead(text), `${row.text} reached ${channel}`).not.toContain(s);
  });
});

describe('a secret split by a colour code in the build log', () => {
  it('the live log and the log file show ***, with the codes it spanned after it; the summary shows the line without codes', async () => {
    const secret = w.accessToken;
    const E = '\u001b';
    const line = `${E}[32mdeploying with ${secret.slice(0, 6)}${E}[0m${E}[1m${secret.slice(6)}${E}[0m done`;
    w.pipeline({
      phases: [{ status: 'RUNNING', ms: 1500 }],
      result: 'FAILED',
      logs: {
        steps: [{ tag: 'e-deploy', jobId: 'ship', stepId: 'deploy', containerHashId: 'c-1' }],
        lines: [{ at: 100, step: 'e-deploy', text: line }],
      },
    });
    const r = await runInProcess({
      clock: w.clock,
      inputs: {
        'base-url': w.emu.url,
        'access-token': secret,
        'user-id': 'alice',
        'project-id': 'demo',
        'pipeline-id': 'p-app',
        operation: 'start-build',
        'poll-interval': '1s',
      },
    });
    const scrubbed = `${E}[32mdeploying with ***${E}[0m${E}[1m${E}[0m done`;
    expect(r.stdout.split('\n')).toContain(scrubbed);
    expect((await channels(r))['log file']).toContain(`[ship › deploy] ${scrubbed}`);
    expect(r.summary).toContain('deploying with *** done');
  });
});

describe("a build variable's value the step masks, in the build's log lines", () => {
  // The step masks a variable's value (mask-variables, a password-type parameter, a value shaped
  // like a credential) before any line of the build's log is printed: at the end, before the lines
  // read after it (logs: on-failure prints them then); while the build runs, a password-type
  // parameter's as soon as the model says so. Only the variables output holds the value as it is.
  const TOKEN = `ghp_${'a1B2'.repeat(9)}`;
  const rows = [
    { why: 'listed in mask-variables', logs: 'on-failure', value: 'listed-S3cret-value', mask: 'NOTES', password: false },
    { why: 'a password-type parameter', logs: 'on-failure', value: 'pass-W0rd-value', mask: '', password: true },
    { why: 'shaped like a credential', logs: 'on-failure', value: TOKEN, mask: '', password: false },
    { why: 'a password-type parameter, followed live', logs: 'live', value: 'pass-W0rd-value', mask: '', password: true },
  ] as const;
  it.each(rows.map((row) => [row.why, row.logs, row] as const))(
    '%s (logs: %s): arrives nowhere but the variables output',
    async (_, __, row) => {
      const name = row.password ? 'DEPLOY_PASS' : 'NOTES';
      w.pipeline({
        phases: [{ status: 'RUNNING', ms: 3000 }],
        result: 'FAILED',
        ...(row.password ? { passwords: [name] } : { variables: { [name]: row.value } }),
        logs: {
          steps: [{ tag: 'e-deploy', jobId: 'ship', stepId: 'deploy', containerHashId: 'c-1' }],
          lines: [{ at: 1000, step: 'e-deploy', text: `deploying with ${planted(row.value)}` }],
        },
      });
      const r = await runInProcess({
        clock: w.clock,
        inputs: {
          'base-url': w.emu.url,
          'bk-token': w.bkToken,
          'project-id': 'demo',
          'pipeline-id': 'p-app',
          operation: 'start-build',
          'poll-interval': '1s',
          logs: row.logs,
          variables: name,
          ...(row.mask === '' ? {} : { 'mask-variables': row.mask }),
          ...(row.password ? { 'build-params': JSON.stringify({ [name]: row.value }) } : {}),
        },
      });
      expect(r.outputs.conclusion).toBe('failure');
      expect(JSON.parse(r.outputs.variables ?? '{}')).toEqual({ [name]: row.value });
      const { 'output variables': _variables, ...shown } = await channels(r);
      // The line was printed, and the value in it masked.
      expect(asRead(shown.log ?? '')).toMatch(/deploying with leak\[\*\*\*\]end/);
      for (const [channel, text] of Object.entries(shown)) expect(asRead(text), `${row.why} reached ${channel}`).not.toContain(row.value);
    },
  );
});

describe("a value the status shows secret, in the build's live log, whatever else the step asks", () => {
  // bk-ci's status answer declares each start parameter's type (buildParameters' valueType) and
  // carries every variable's value (variables), every poll: a password, and a value named in
  // mask-variables, is masked from the poll that shows it, whether or not `variables` names it,
  // and whether or not the build's model can be read.
  const rows = [
    { why: 'a password not asked for as a variable', variables: '', mask: '', modelHangs: false },
    { why: 'a password asked for, the model unreadable', variables: 'DEPLOY_PASS', mask: '', modelHangs: true },
    { why: 'a value a step set, named in mask-variables only', variables: '', mask: 'DEPLOY_KEY', modelHangs: false },
    { why: 'a value a step set, with mask-variables: * and no variable asked for', variables: '', mask: '*', modelHangs: false },
  ] as const;
  it.each(rows.map((row) => [row.why, row] as const))('%s: masked from the first poll, shown nowhere', async (_, row) => {
    const value = 'pass-W0rd-value';
    w.pipeline({
      phases: [{ status: 'RUNNING', ms: 3000 }],
      passwords: ['DEPLOY_PASS'],
      variables: { DEPLOY_KEY: { value: 'key-S3cret-value', at: 50 } },
      logs: {
        steps: [{ tag: 'e-deploy', jobId: 'ship', stepId: 'deploy', containerHashId: 'c-1' }],
        lines: [
          { at: 100, step: 'e-deploy', text: `deploying with ${planted(value)}` },
          { at: 100, step: 'e-deploy', text: `signing with ${planted('key-S3cret-value')}` },
        ],
      },
    });
    if (row.modelHangs) w.emu.faults.add({ pattern: /build_detail$/, times: 100, fault: { kind: 'hang' } });
    const r = await runInProcess({
      clock: w.clock,
      inputs: {
        'base-url': w.emu.url,
        'bk-token': w.bkToken,
        'project-id': 'demo',
        'pipeline-id': 'p-app',
        operation: 'start-build',
        'poll-interval': '1s',
        logs: 'live',
        variables: row.variables,
        'mask-variables': row.mask,
        'build-params': JSON.stringify({ DEPLOY_PASS: value }),
      },
    });
    expect(r.outputs.conclusion).toBe('success');
    const { 'output variables': _variables, ...shown } = await channels(r);
    const secret = row.mask === '' ? value : 'key-S3cret-value';
    expect(asRead(shown.log ?? '')).toMatch(new RegExp(`${row.mask === '' ? 'deploying' : 'signing'} with leak\\[\\*\\*\\*\\]end`));
    for (const [channel, text] of Object.entries(shown)) expect(asRead(text), `${row.why} reached ${channel}`).not.toContain(secret);
  });
});
