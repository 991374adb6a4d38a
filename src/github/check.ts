// The bk-ci build as a check run on the commit: created once bk-ci has the build (or taken over
// from an earlier step), updated when what it shows changes and never more than once per 10 s,
// completed once at the end. GitHub never decides the step: every problem is one warning, and
// the build is followed as without the check.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../base/clock.ts';
import type { Log } from '../base/log.ts';
import type { Outcome } from '../base/outcome.ts';
import { z } from '../base/schema.ts';
import type { BuildStatus } from '../bkci/builds.ts';
import { endOf } from '../pipeline/status.ts';
import type { WatchView } from '../pipeline/watch.ts';
import { annotationsOf, type Notes, repositoryPath, workspaceRoots } from './annotations.ts';
import { GitHub, octokitSend, type Problem, type Send } from './client.ts';
import { type CheckTarget, checkTarget } from './commit.ts';
import { fitParts, inert, titleText } from './text.ts';
import { type Shown, shownAtEnd, shownWhileRunning } from './view.ts';

/** GitHub's GITHUB_TOKEN has 1,000 requests an hour per repository, shared by every job: at most one update per 10 s. */
export const UPDATE_EVERY_MS = 10_000;
/** How long the last update may wait for GitHub (a rate limit, an outage) before the step gives up on it. */
const FINAL_BUDGET_MS = 60_000;
const FINAL_ATTEMPTS = 3;

const checkRun = z.looseObject({
  id: z.number(),
  html_url: z.string().nullish(),
  name: z.string(),
  status: z.string(),
  external_id: z.string().nullish(),
});
type CheckRunData = z.infer<typeof checkRun>;
const checkRuns = z.looseObject({ check_runs: z.array(checkRun) });

export interface CheckOptions {
  token: string;
  /** check-name; by default `bk-ci <pipeline>`. */
  name: string | undefined;
  /** build-status: take over an in-progress check run of the same name on the commit. */
  takeOver: boolean;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  log: Log;
  signal: AbortSignal;
  /** How requests are sent: @actions/github's Octokit by default. */
  send?: Send;
}

/** The build the check is about. */
export interface CheckedBuild {
  id: string;
  url: string;
  pipelineId: string | undefined;
  /** What a re-run did with an earlier attempt's build ("taken from attempt 1", "failed jobs retried (run 2)"). */
  rerun?: string | undefined;
}

const FIX = 'give the job `permissions: checks: write` (a pull request from a fork gets a read-only token: its check cannot be written)';

function describeProblem(p: Problem): string {
  const said = `${p.status === undefined ? '' : `${p.status}: `}${p.message}`;
  switch (p.kind) {
    case 'forbidden':
      return `GitHub refused to write the check run (${said}): the token may not write checks; ${FIX}`;
    case 'auth':
      return `GitHub refused github-token (${said}): give a valid token (by default the job's GITHUB_TOKEN) with \`permissions: checks: write\``;
    case 'rate':
      return `GitHub's rate limit was reached (${said}): the check is updated once GitHub allows it again (GITHUB_TOKEN has 1,000 requests an hour per repository, shared by every job)`;
    case 'refused':
      return `GitHub refused the check run (${said})`;
    case 'outage':
      return `GitHub could not be reached or failed (${said}): the check run may lag behind the build`;
  }
}

export class BuildCheck {
  readonly #gh: GitHub;
  readonly #target: CheckTarget;
  readonly #o: CheckOptions;
  #run: CheckRunData | undefined;
  #off = false;
  #warned = false;
  #busy: Promise<void> = Promise.resolve();
  #inFlight = false;
  #sentKey: string | undefined;
  #sentAt: number | undefined;
  #build: CheckedBuild | undefined;
  #pipelineName: string | undefined;
  #last: BuildStatus | undefined;

  private constructor(gh: GitHub, target: CheckTarget, o: CheckOptions) {
    this.#gh = gh;
    this.#target = target;
    this.#o = o;
  }

  /** The check for this step, or undefined (with one warning) when the workflow names no commit. */
  static async open(o: CheckOptions): Promise<BuildCheck | undefined> {
    const target = checkTarget(o.env);
    if (typeof target === 'string') {
      o.log.warning(`check: no check run is written: ${target}`);
      return undefined;
    }
    const send = o.send ?? (await octokitSend(o.token, target.apiUrl));
    return new BuildCheck(new GitHub(send, { clock: o.clock, signal: o.signal }), target, o);
  }

  /** The outputs check-run-id and check-url. */
  get outputs(): Record<'check-run-id' | 'check-url', string> {
    return { 'check-run-id': this.#run === undefined ? '' : String(this.#run.id), 'check-url': this.#run?.html_url ?? '' };
  }

  get requests(): number {
    return this.#gh.requests;
  }

  /** The build bk-ci accepted: the check is created at the first look at it. */
  follow(build: CheckedBuild): void {
    this.#build = build;
  }

  /** After each poll: sends what the check shows when it changed, at most once per 10 s, never waiting for GitHub. */
  readonly onView = (v: WatchView): void => {
    if (v.last === undefined) return;
    this.#last = v.last;
    this.#pipelineName = v.detail?.pipelineName ?? this.#pipelineName;
    // An end is shown once, by finish(), with the step's conclusion.
    if (this.#off || this.#inFlight || this.#build === undefined || v.conclusion !== undefined || endOf(v.last) !== 'waiting') return;
    const shown = shownWhileRunning(v.last, v.pending, this.#label());
    const now = this.#o.clock.now();
    if (shown.key === this.#sentKey) return;
    if (this.#sentAt !== undefined && now - this.#sentAt < UPDATE_EVERY_MS) return;
    this.#inFlight = true;
    this.#busy = this.#show(shown).then(() => {
      this.#inFlight = false;
    });
  };

  /** bk-ci refused the start: a completed failure check saying why. */
  async refused(reason: string, pipelineId: string, historyUrl: string): Promise<void> {
    await this.#create(
      {
        status: 'completed',
        conclusion: 'failure',
        title: titleText('bk-ci did not start the build'),
        summary: inert(reason, 4000),
        key: 'refused',
      },
      { name: this.#o.name ?? `bk-ci ${pipelineId}`, details: historyUrl, externalId: undefined },
    );
  }

  /** The end: the step's conclusion, sent once (retried within a bound). */
  async finish(o: Outcome, message: string | undefined): Promise<void> {
    await this.#busy;
    if (this.#off || this.#build === undefined) return;
    const shown = shownAtEnd(o, this.#label(), message, this.#last);
    const notes = this.#annotations(o);
    for (let attempt = 1; attempt <= FINAL_ATTEMPTS && !this.#off; attempt++) {
      if (!(await this.#gh.waitOut(FINAL_BUDGET_MS))) break;
      if (await this.#show(shown, notes)) return;
      if (attempt < FINAL_ATTEMPTS) await this.#o.clock.sleep(attempt * 2000, this.#o.signal).catch(() => undefined);
    }
    if (!this.#off) this.#o.log.info('check: the check run could not be completed; it shows the build as it was last sent');
  }

  #label(): string {
    const num = this.#last?.buildNum;
    const rerun = this.#build?.rerun;
    return `bk-ci build ${num ? `#${num}` : (this.#build?.id ?? '')}${rerun ? ` (${rerun})` : ''}`;
  }

  #name(): string {
    return this.#o.name ?? `bk-ci ${this.#pipelineName || this.#build?.pipelineId || this.#build?.id || ''}`;
  }

  #problem(p: Problem): void {
    if (p.kind === 'forbidden' || p.kind === 'auth' || p.kind === 'refused') this.#off = true;
    const text = `check: ${describeProblem(p)}. The build is followed as without check.`;
    if (this.#warned) this.#o.log.info(text);
    else this.#o.log.warning(text);
    this.#warned = true;
  }

  /** Sends what the check shows: creates (or takes over) the run first. True when GitHub has it. */
  async #show(shown: Shown, notes?: Notes): Promise<boolean> {
    const b = this.#build;
    if (b === undefined) return false;
    const ok =
      this.#run === undefined
        ? await this.#create(shown, { name: this.#name(), details: b.url, externalId: b.id }, notes)
        : await this.#update(this.#run.id, shown, notes);
    if (ok) {
      this.#sentKey = shown.key;
      this.#sentAt = this.#o.clock.now();
    }
    return ok;
  }

  #body(shown: Shown, notes?: Notes): Record<string, unknown> {
    const text = fitParts([shown.text ?? '', notes?.said === undefined ? '' : inert(notes.said, 2000)].filter((p) => p !== ''));
    return {
      status: shown.status,
      ...(shown.conclusion === undefined ? {} : { conclusion: shown.conclusion }),
      output: {
        title: shown.title,
        summary: shown.summary,
        ...(text === '' ? {} : { text }),
        ...(notes === undefined || notes.annotations.length === 0 ? {} : { annotations: notes.annotations }),
      },
    };
  }

  async #update(id: number, shown: Shown, notes?: Notes): Promise<boolean> {
    const { owner, repo } = this.#target;
    const r = await this.#gh.call(
      {
        method: 'PATCH',
        route: '/repos/{owner}/{repo}/check-runs/{check_run_id}',
        params: { owner, repo, check_run_id: id, ...this.#body(shown, notes) },
      },
      checkRun,
    );
    if (r.ok) this.#run = r.data;
    else this.#problem(r.problem);
    return r.ok;
  }

  async #create(shown: Shown, how: { name: string; details: string; externalId: string | undefined }, notes?: Notes): Promise<boolean> {
    const { owner, repo, sha } = this.#target;
    const found = this.#o.takeOver || how.externalId !== undefined ? await this.#find(how.name, how.externalId) : undefined;
    if (found !== undefined) {
      this.#run = found;
      if (this.#o.takeOver) this.#o.log.info(`check: took over the check run "${how.name}" (${found.id}) on ${sha.slice(0, 7)}`);
      return this.#update(found.id, shown, notes);
    }
    const r = await this.#gh.call(
      {
        method: 'POST',
        route: '/repos/{owner}/{repo}/check-runs',
        params: {
          owner,
          repo,
          name: how.name,
          head_sha: sha,
          ...(/^https?:\/\//.test(how.details) ? { details_url: how.details } : {}),
          ...(how.externalId === undefined ? {} : { external_id: how.externalId }),
          ...this.#body(shown, notes),
        },
      },
      checkRun,
    );
    if (r.ok) {
      this.#run = r.data;
      this.#o.log.info(`check: "${how.name}" on ${sha.slice(0, 7)}: ${r.data.html_url ?? r.data.id}`);
    } else {
      this.#mayExist ||= r.problem.maybeApplied;
      this.#problem(r.problem);
    }
    return r.ok;
  }

  /**
   * A check run already on the commit: for a take-over the latest in progress of that name; for a
   * create whose answer was lost, the one with this build's id (so it is never created twice).
   */
  async #find(name: string, externalId: string | undefined): Promise<CheckRunData | undefined> {
    if (!this.#o.takeOver && !this.#mayExist) return undefined;
    const { owner, repo, sha } = this.#target;
    const r = await this.#gh.call(
      {
        method: 'GET',
        route: '/repos/{owner}/{repo}/commits/{ref}/check-runs',
        params: { owner, repo, ref: sha, check_name: name, filter: 'all', per_page: 100 },
      },
      checkRuns,
    );
    if (!r.ok) {
      this.#problem(r.problem);
      return undefined;
    }
    const mine = r.data.check_runs.filter((c) => c.name === name);
    return (
      mine.find((c) => externalId !== undefined && c.external_id === externalId) ??
      (this.#o.takeOver ? mine.find((c) => c.status !== 'completed') : undefined)
    );
  }

  /** Set once a create may have been applied without its answer: the next create looks first. */
  #mayExist = false;

  /**
   * The failed steps' compiler messages as annotations on the checkout's files; how many were
   * found, and why the others were not annotated, is said in the job summary too.
   */
  #annotations(o: Outcome): Notes {
    const workspace = this.#target.workspace;
    const isFile = (rel: string): boolean => {
      try {
        return workspace !== undefined && statSync(join(workspace, rel)).isFile();
      } catch {
        return false;
      }
    };
    const roots = workspaceRoots(this.#build?.pipelineId);
    const notes = annotationsOf(o.diagnostics, (printed) => repositoryPath(printed, isFile, roots));
    if (notes.said !== undefined) o.blocks.push({ kind: 'facts', rows: [['Compiler messages', notes.said]] });
    return notes;
  }
}
