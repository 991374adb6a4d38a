// The check run on GitHub that this step writes: the one it created, or this build's found on the
// commit (by its build id, check-state.ts) when one may be there already; a look-up that failed is
// "unknown", never "none", so nothing is created twice. Each body comes from body.ts.
import type { Log } from '../base/log.ts';
import { z } from '../base/schema.ts';
import { type BodyOf, updateBody } from './body.ts';
import { ownRun } from './check-state.ts';
import type { GitHub, Problem } from './client.ts';
import type { CheckTarget } from './commit.ts';
import type { Scrub } from './text.ts';

const checkRun = z.looseObject({
  id: z.number(),
  html_url: z.string().nullish(),
  name: z.string(),
  status: z.string(),
  external_id: z.string().nullish(),
});
type CheckRunData = z.infer<typeof checkRun>;
const checkRuns = z.looseObject({ check_runs: z.array(checkRun) });

/** How a write went. */
export type WriteResult = { ok: true } | { ok: false; problem: Problem };

export class CheckRunOnGitHub {
  readonly #gh: GitHub;
  readonly #target: CheckTarget;
  readonly #log: Log;
  readonly #scrub: Scrub;
  #run: CheckRunData | undefined;
  /** A check run of this build may be on the commit: looked up before any create. */
  mayExist = false;

  constructor(gh: GitHub, target: CheckTarget, log: Log, scrub: Scrub) {
    this.#gh = gh;
    this.#target = target;
    this.#log = log;
    this.#scrub = scrub;
  }

  /** Its id and page, once GitHub has it. */
  get id(): number | undefined {
    return this.#run?.id;
  }

  get url(): string {
    return this.#run?.html_url ?? '';
  }

  /** Sends the body to this build's run: updated when the step has it or finds it, else created. */
  async write(body: BodyOf, name: string, buildId: string): Promise<WriteResult> {
    const ours = await this.#ours(name, buildId);
    if (!ours.ok) return ours;
    return this.#run === undefined ? this.create(body, name, buildId) : this.#update(this.#run.id, body);
  }

  /** This build's check run: the one this step has, or found on the commit when one may be there; a problem when GitHub could not say. */
  async #ours(name: string, buildId: string): Promise<WriteResult> {
    if (this.#run !== undefined || !this.mayExist) return { ok: true };
    const { owner, repo, sha } = this.#target;
    const answer = await this.#gh.call(
      {
        method: 'GET',
        route: '/repos/{owner}/{repo}/commits/{ref}/check-runs',
        params: { owner, repo, ref: sha, check_name: name, filter: 'all', per_page: 100 },
      },
      checkRuns,
    );
    // Unknown is not none: nothing is created on a look-up that failed.
    if (!answer.ok) return answer;
    this.mayExist = false;
    this.#run = ownRun(answer.data.check_runs, name, buildId);
    if (this.#run !== undefined)
      this.#log.info(`check: took over the check run "${name}" (${this.#run.id}) of build ${buildId} on ${sha.slice(0, 7)}`);
    return { ok: true };
  }

  async #update(id: number, body: BodyOf): Promise<WriteResult> {
    const { owner, repo } = this.#target;
    const answer = await this.#gh.call(
      {
        method: 'PATCH',
        route: '/repos/{owner}/{repo}/check-runs/{check_run_id}',
        params: { owner, repo, check_run_id: id, ...updateBody(body, this.#scrub) },
      },
      checkRun,
    );
    if (answer.ok) this.#run = answer.data;
    return answer;
  }

  /** Creates the run; one for a build (`externalId`) whose answer was lost may exist from then on. */
  async create(body: BodyOf, name: string, externalId: string | undefined): Promise<WriteResult> {
    const { owner, repo, sha } = this.#target;
    const params = {
      owner,
      repo,
      name,
      head_sha: sha,
      ...(externalId === undefined ? {} : { external_id: externalId }),
      ...updateBody(body, this.#scrub),
    };
    const answer = await this.#gh.call({ method: 'POST', route: '/repos/{owner}/{repo}/check-runs', params }, checkRun);
    if (answer.ok) {
      this.#run = answer.data;
      this.#log.info(`check: "${name}" on ${sha.slice(0, 7)}: ${answer.data.html_url ?? answer.data.id}`);
    } else this.mayExist ||= answer.problem.maybeApplied && externalId !== undefined;
    return answer;
  }
}
