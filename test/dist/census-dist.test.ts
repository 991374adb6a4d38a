// Rows of the census of channels outside GitHub (test/run/secrets-census.test.ts) through the
// built action as the runner runs it, in real time: the step's access token in bk-ci's texts, as
// it is and split by a colour code, arrives nowhere the process leaves text (its stdout and
// stderr as the runner reads them, the summary, the outputs, the data file, the log file).
import { afterAll, beforeAll, describe, it } from 'vitest';
import { runStep, useInstalledAction } from '../support/dist-runner.ts';
import { ARRIVED, asRead, censusRows, channels, planted, SPLIT_BY } from '../support/secrets-census.ts';
import { worldForTest } from '../support/world.ts';

const action = useInstalledAction({ beforeAll, afterAll });

/** Rows that need no time to pass between steps (the others move the shared clock). */
const ROWS = [
  'log lines, followed live (the log, the log file, the last lines of a failed build)',
  "a variable's value (the variables output)",
  "an artifact's link",
  "bk-ci's refusal of a start",
  'an error body (HTTP 500, plain text)',
];

describe.concurrent('the census through dist/', () => {
  it.for(censusRows.filter((row) => ROWS.includes(row.text)).flatMap((row) => [`${row.text}|plain`, `${row.text}|split`]))(
    '%s',
    async (name, { expect, onTestFinished }) => {
      const [text, form] = name.split('|');
      const row = censusRows.find((r) => r.text === text);
      if (row === undefined) throw new Error(`no row ${text}`);
      const w = await worldForTest({ realTime: true }, { onTestFinished });
      const secret = w.accessToken;
      const connection = { 'base-url': w.emu.url, 'access-token': secret, 'user-id': 'alice', 'project-id': 'demo', retries: '0' };
      const step = (inputs: Record<string, string>) => runStep(action(), { inputs: { ...connection, ...inputs } });
      const inputs = await row.arrange(w, planted(form === 'plain' ? secret : `${secret.slice(0, 6)}${SPLIT_BY}${secret.slice(6)}`), step);
      const shown = await channels(await step(inputs));
      expect(asRead(Object.values(shown).join('\n')), `${text} was shown nowhere`).toMatch(ARRIVED);
      for (const [channel, t] of Object.entries(shown))
        for (const s of [secret, decodeURIComponent(secret)]) expect(asRead(t), `${text} reached ${channel}`).not.toContain(s);
    },
  );
});
