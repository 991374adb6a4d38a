// The bk-ci build as a check run on the commit: created once bk-ci has the build (or taken over
// when a check run of this build is already there), updated when what it shows changes at the
// cadence check-state.ts keeps, completed once at the end within the time the step may give
// GitHub. GitHub never decides the step: a problem is one warning, and the build is followed as
// without the check. Every write's body comes from body.ts (secrets out before anything else).
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../base/clock.ts';
import { errorMessage } from '../base/errors.ts';
import type { Log } from '../base/log.ts';
import type { Outcome } from '../base/outcome.ts';
import type { BuildView } from '../pipeline/build.ts';
import { endOf } from '../pipeline/status.ts';
import { annotationsOf, type Notes, repositoryPath, workspaceRoots } from './annotations.ts';
import { type AnnotationsOff, type BodyOf, OFF_WORDS, type Size, SMALLEST } from './body.ts';
import { CheckRunOnGitHub, type WriteResult } from './check-run.ts';
import { afterFailedFinal, Cadence, ENDS_CHECK, FirstOfKind, sizeAgain, until } from './check-state.ts';
import { describeProblem, leftRunning, leftWords, waitTooLong, whileRunning } from './check-words.ts';
import { GitHub, octokitSend, type Problem, type Send } from './client.ts';
import { type CheckTarget, checkTarget } from './commit.ts';
import { plainLine, type Scrub } from './text.ts';
import { type CheckView, type Label, shownAtEnd, shownWhileRunning } from './view.ts';

export interface CheckOptions {
  token: string;
  /** check-name; by default `bk-ci <pipeline>`. */
  name: string | undefined;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  log: Log;
  /** The job's cancel. */
  signal: AbortSignal;
  /** The step's deadline by the clock (its start + timeout): GitHub gets a few seconds past it, no more. */
  deadline: number;
  /** The step's secret scrubbing: every text sent to GitHub passes it. */
  scrub: Scrub;
  /** How requests are sent: @actions/github's Octokit by default. */
  send?: Send;
}

/** The build the check is about. */
export interface CheckedBuild {
  id: string;
  /** Its page in bk-ci, when known ('' when not yet: the wait learns the pipeline). */
  url: string;
  pipelineId: string | undefined;
  /** What a re-run did with an earlier attempt's build ("taken from attempt 1", "failed jobs retried (run 2)"). */
  rerun?: string | undefined;
  /** A check run of this build may be on the commit already (a build this step did not just start): looked for before one is created. */
  lookFirst: boolean;
}

export class BuildCheck {
  readonly #gh: GitHub;
  readonly #target: CheckTarget;
  readonly #o: CheckOptions;
  readonly #cadence = new Cadence();
  readonly #said = new FirstOfKind();
  readonly #run: CheckRunOnGitHub;
  #off = false;
  /** How much a progress update carries: less after GitHub refused one (the last update starts whole). */
  #progressSize: Size = 0;
  #busy: Promise<unknown> = Promise.resolve();
  #inFlight = false;
  #sentKey: string | undefined;
  #build: CheckedBuild | undefined;
  #view: BuildView | undefined;
  #finishedAt: number | undefined;
  #cancelledAt: number | undefined;
  /** While the last update is made, problems go into its one line instead of lines of their own. */
  #quiet = false;
  /** The size of the last update GitHub took (body.ts): whether its annotations are on the diff. */
  #landed: Size | undefined;
  /** Why the last update left the annotations out, when a smaller one went. */
  #annotationsOff: AnnotationsOff = 'refused';

  private constructor(send: Send, target: CheckTarget, options: CheckOptions) {
    this.#target = target;
    this.#o = options;
    this.#gh = new GitHub(send, { clock: options.clock, scrub: options.scrub, until: () => this.#until() });
    this.#run = new CheckRunOnGitHub(this.#gh, target, options.log, options.scrub);
    // After a cancel the last update goes out within the cancel's window; what was under way is given up, said at most in debug.
    const cancelled = (): void => {
      this.#cancelledAt = options.clock.now();
      this.#quiet = true;
      this.#gh.abortInFlight();
    };
    if (options.signal.aborted) cancelled();
    else options.signal.addEventListener('abort', cancelled, { once: true });
  }

  /** The check for this step, or undefined (with one warning) when the workflow names no commit. */
  static async open(options: CheckOptions): Promise<BuildCheck | undefined> {
    const target = checkTarget(options.env);
    if (typeof target === 'string') {
      options.log.warning(`check: no check run is written: ${target}`);
      return undefined;
    }
    return new BuildCheck(options.send ?? (await octokitSend(options.token, target.apiUrl)), target, options);
  }

  /** The outputs check-run-id and check-url. */
  get outputs(): Record<'check-run-id' | 'check-url', string> {
    return { 'check-run-id': this.#run.id === undefined ? '' : String(this.#run.id), 'check-url': this.#run.url };
  }

  /** The build bk-ci accepted: the check is created (or taken over) at the first look at it. */
  follow(build: CheckedBuild): void {
    this.#build = build;
    this.#run.mayExist ||= build.lookFirst;
  }

  /** After each poll: sends what the check shows when it changed, at the cadence, never waiting for GitHub. */
  readonly onView = (view: BuildView): void => {
    if (view.last === undefined) return;
    this.#view = view;
    // An end is shown once, by finish(), with the step's conclusion.
    if (this.#off || this.#inFlight || this.#build === undefined || view.conclusion !== undefined || endOf(view.last) !== 'waiting') return;
    const shown = shownWhileRunning(view.last, view.pending, this.#label());
    if (shown.key === this.#sentKey || this.#cadence.waitFrom(this.#o.clock.now()) > 0 || this.#cancelledAt !== undefined) return;
    this.#inFlight = true;
    this.#busy = this.#write(shown, undefined, this.#progressSize).finally(() => {
      this.#inFlight = false;
    });
  };

  /** bk-ci refused the start: a completed failure check saying why. */
  async refused(reason: string, pipelineId: string, historyUrl: string): Promise<void> {
    const shown: CheckView = {
      status: 'completed',
      conclusion: 'failure',
      title: 'bk-ci did not start the build',
      summary: [{ kind: 'line', spans: [reason] }],
      text: [],
      key: 'refused',
    };
    const written = await this.#run.create({ shown, size: 0, details: historyUrl }, this.#o.name ?? `bk-ci ${pipelineId}`, undefined);
    if (!written.ok) this.#report(written.problem);
  }

  /** The end: the step's conclusion, sent once (again once within a bound); one line when the check could not be completed. */
  async finish(outcome: Outcome, message: string | undefined): Promise<void> {
    this.#finishedAt = this.#o.clock.now();
    try {
      await this.#busy;
      if (this.#off || this.#build === undefined) return;
      const shown = shownAtEnd(outcome, this.#label(), message, this.#view?.last, this.#cancelledAt !== undefined);
      const notes = this.#annotations(outcome);
      const left = await this.#final(shown, notes);
      if (left !== undefined) this.#o.log.warning(left);
      else if (shown.status !== 'completed' && this.#run.id !== undefined) this.#o.log.info(leftRunning(this.#name(), this.#run.id));
      if (notes.said !== undefined)
        outcome.blocks.push({ kind: 'facts', rows: [['Compiler messages', notesSaid(notes, this.#landed, this.#annotationsOff)]] });
    } catch (e) {
      this.#o.log.warning(`check: the check run could not be completed: ${errorMessage(e)}`);
    }
  }

  /** The last update: at once, smaller at once when GitHub refused it, again after the cadence; words when it did not land. */
  async #final(shown: CheckView, notes: Notes | undefined): Promise<string | undefined> {
    const { clock } = this.#o;
    this.#quiet = true;
    let attempts = 0;
    let size: Size = 0;
    let problem: Problem | undefined;
    for (;;) {
      const wait = Math.max(attempts === 0 ? 0 : this.#cadence.waitFrom(clock.now()), this.#gh.waitLeft());
      if (clock.now() + wait >= this.#until()) return this.#left(problem, wait);
      // A cancel ends the wait and shortens the window: looked at again. After one, the wait fits the window.
      if (wait > 0 && !(await this.#sleep(wait))) continue;
      const written = await this.#write(shown, notes, size);
      if (written.ok) {
        this.#landed = size;
        return undefined;
      }
      problem = written.problem;
      if (written.problem.kind !== 'invalid') attempts += 1;
      const next = afterFailedFinal(written.problem, size, SMALLEST, attempts);
      // GitHub will not take the check from this token: said already, with how the check was left (#report).
      if (next === 'stop' && ENDS_CHECK.has(problem.kind)) return undefined;
      if (next === 'stop') return this.#left(problem, 0);
      if (next === 'smaller') size = (size + 1) as Size;
      else if (sizeAgain(written.problem, size) !== size) {
        size = 1;
        this.#annotationsOff = 'maybe-sent';
      }
    }
  }

  /** Waits on the clock; false when the job's cancel ended the wait (after the cancel, none does). */
  #sleep(ms: number): Promise<boolean> {
    const signal = this.#cancelledAt === undefined ? this.#o.signal : undefined;
    return this.#o.clock.sleep(ms, signal).then(
      () => true,
      () => false,
    );
  }

  /** When the time GitHub may take is over (check-state.ts). */
  #until(): number {
    return until({
      deadline: this.#o.deadline,
      finishedAt: this.#finishedAt,
      cancelledAt: this.#cancelledAt,
      answering: !this.#cadence.failing,
    });
  }

  /** Words for a check its last update did not reach: GitHub asked to wait too long, failed, or no time was left. */
  #left(problem: Problem | undefined, wait: number): string {
    const asked = problem?.kind === 'rate' ? problem : undefined;
    const rate = asked?.waitMs ?? this.#gh.waitLeft();
    const why =
      wait > 0 && rate > 0
        ? waitTooLong(asked ?? { kind: 'rate', status: undefined, message: 'an earlier answer', maybeApplied: false }, rate)
        : problem === undefined
          ? 'no time was left for GitHub'
          : describeProblem(problem);
    return this.#leftLine(why);
  }

  /** How the check was left, and why: one line (check-words.ts). */
  #leftLine(why: string): string {
    return leftWords({ name: this.#name(), runId: this.#run.id, mayExist: this.#run.mayExist, buildId: this.#build?.id ?? '', why });
  }

  #label(): Label {
    const view = this.#view;
    return { num: view?.last?.buildNum ?? view?.num, id: this.#build?.id ?? '', run: view?.executeCount, rerun: this.#build?.rerun };
  }

  /** The check's name as GitHub has it (scrubbed as every text sent to it). */
  #name(): string {
    const build = this.#build;
    return plainLine(this.#o.name ?? `bk-ci ${this.#view?.detail?.pipelineName || build?.pipelineId || build?.id || ''}`, this.#o.scrub);
  }

  #report(problem: Problem): void {
    const ends = ENDS_CHECK.has(problem.kind);
    if (ends) this.#off = true;
    if (problem.kind === 'invalid') this.#progressSize = SMALLEST;
    // A check GitHub has (or may have) and will no longer take from this token stays in progress: said so.
    const left = ends && (this.#run.id !== undefined || this.#run.mayExist);
    const text = left
      ? this.#leftLine(`${describeProblem(problem)}; the build is followed as without check`)
      : whileRunning(problem, ends, this.#cadence.waitFrom(this.#o.clock.now()));
    if (this.#quiet && !ends) this.#o.log.debug(text);
    else if (this.#said.first(problem.kind)) this.#o.log.warning(text);
    else this.#o.log.debug(text);
  }

  /** Sends what the check shows: to this build's run, found or created first. */
  async #write(shown: CheckView, notes: Notes | undefined, size: Size): Promise<WriteResult> {
    const build = this.#build;
    if (build === undefined) return { ok: true };
    const body: BodyOf = { shown, notes, size, details: build.url || this.#view?.url, annotationsOff: this.#annotationsOff };
    const written = await this.#run.write(body, this.#name(), build.id);
    const now = this.#o.clock.now();
    if (written.ok) {
      this.#cadence.ok(now);
      this.#sentKey = shown.key;
    } else {
      this.#cadence.failed(now, this.#gh.waitLeft());
      this.#report(written.problem);
    }
    return written;
  }

  /**
   * The failed steps' compiler messages as annotations on the checkout's files; how many were
   * found, and why the others were not annotated, is said in the job summary too.
   */
  #annotations(outcome: Outcome): Notes {
    const workspace = this.#target.workspace;
    const isFile = (rel: string): boolean => {
      try {
        return workspace !== undefined && statSync(join(workspace, rel)).isFile();
      } catch {
        return false;
      }
    };
    const roots = workspaceRoots(this.#build?.pipelineId);
    return annotationsOf(outcome.diagnostics, (printed) => repositoryPath(printed, isFile, roots));
  }
}

/** The summary's word on the compiler messages: as counted, unless GitHub's last update did not carry the annotations. */
function notesSaid(notes: Notes, landed: Size | undefined, off: AnnotationsOff): string {
  const said = notes.said ?? '';
  if (notes.annotations.length === 0 || landed === 0) return said;
  return `${said} ${landed === undefined && off === 'refused' ? 'The check run was not completed: none is on the diff.' : OFF_WORDS[off]}`;
}
