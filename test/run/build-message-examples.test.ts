// Every build message README.md and the pages under docs/ show (`GitHub octo/app run 555 job
// release (p-…, params …) attempt 1 […]`) is the message the action writes for it: the page's own
// start-build example with that pipeline-id is run (run() in this process, against the emulator),
// as the run, job and attempt the message names, and what it sent as BK_CI_BUILD_MSG must be the
// example, but for the mark, which is random: the example's mark only has its shape. So the
// pages cannot drift from the message's format, the digest of the step's build-params or its
// rerun-key.
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { cleanupRuns, runInProcess } from '../support/in-process.ts';
import { examples, inputsOf, readmeWorld, viaGateway, withOf } from '../support/readme-examples.ts';
import { userPages } from '../support/user-docs.ts';

afterAll(cleanupRuns);

/** A build message a page shows: every code span that begins `GitHub owner/repo run N`, its white space as one space. */
interface Shown {
  page: string;
  text: string;
}

const shown: Shown[] = (await userPages()).flatMap((p) =>
  [...p.text.matchAll(/`(GitHub [^`\s]+\/[^`\s]+ run \d+[^`]*)`/g)].map((m) => ({ page: p.path, text: (m[1] ?? '').replace(/\s+/g, ' ') })),
);
const steps = await examples();

/** The run the message names, as the runner would describe it. */
function runOf(text: string): Record<string, string> {
  const part = (re: RegExp, fallback: string): string => re.exec(text)?.[1] ?? fallback;
  return {
    GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
    GITHUB_REPOSITORY: part(/^GitHub (\S+)/, ''),
    GITHUB_REF: 'refs/tags/v1.10',
    GITHUB_RUN_ID: part(/ run (\d+)/, ''),
    GITHUB_RUN_ATTEMPT: part(/ attempt (\d+)/, '1'),
    GITHUB_JOB: part(/ job ([\w.-]+)/, ''),
  };
}

/** What the step sends as BK_CI_BUILD_MSG when it starts its build in that run. */
async function messageOf(step: (typeof steps)[number], env: Record<string, string>): Promise<string> {
  const w = await readmeWorld({ gateway: viaGateway(step) });
  onTestFinished(() => w.world.emu.close());
  // What does not make the message stays out: the check (GitHub is not here) and the files; the start is enough.
  const { check: _c, 'check-name': _n, 'github-token': _t, download: _d, 'download-path': _p, ...inputs } = inputsOf(step, w);
  const r = await runInProcess({ inputs: { ...inputs, wait: 'false' }, clock: w.world.clock, env });
  expect(r.code, r.stdout).toBe(0);
  const [start] = w.world.emu.requests({ method: 'POST', path: '/build_start' });
  return String(JSON.parse(start?.body ?? '{}').BK_CI_BUILD_MSG);
}

/** The example, its mark (random in every start) in place of the one the action wrote, when it has the mark's shape. */
const withMark = (example: string, written: string): string => {
  const mark = /\[([^\]]*)\]$/;
  const [theirs, ours] = [mark.exec(example)?.[1] ?? '', mark.exec(written)?.[1] ?? ''];
  const shape = (m: string): string => m.replace(/[0-9a-f]/g, 'x');
  return shape(theirs) === shape(ours) ? example.replace(mark, `[${ours}]`) : example;
};

describe('the build messages README.md and docs/ show are the ones the action writes', () => {
  it('finds them', () => {
    expect(shown.map((s) => s.page)).toEqual(expect.arrayContaining(['README.md', 'docs/start-build.md']));
  });

  it.each(shown.map((s) => [s.page, s.text, s] as const))('%s: %s', async (page, text) => {
    const pipelineId = /\((p-[\w-]+),/.exec(text)?.[1] ?? /\bp-[\w-]+/.exec(text)?.[0];
    // The page's start-build examples with the pipeline it names (every one, when it names none).
    const candidates = steps.filter(
      (e) =>
        e.title.startsWith(`${page} ›`) &&
        withOf(e)?.operation === 'start-build' &&
        (pipelineId === undefined || withOf(e)?.['pipeline-id'] === pipelineId),
    );
    expect(candidates.length, `a start-build example on ${page} with pipeline-id ${pipelineId}`).toBeGreaterThan(0);
    const written: string[] = [];
    for (const step of candidates) written.push(await messageOf(step, runOf(text)));
    // The one it is, or else the first example's, to show the difference.
    const expected = written.find((w) => withMark(text, w) === w) ?? written[0];
    expect(withMark(text, expected ?? ''), `what the start-build examples of ${page} write in that run:\n${written.join('\n')}`).toBe(
      expected,
    );
  });
});
