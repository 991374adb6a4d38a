// GitHub's check runs, as its REST API creates, updates, reads and lists them on a commit
// (https://docs.github.com/rest/checks/runs): every body checked against GitHub's published
// OpenAPI description (github-schema.ts), a conclusion completing the run, a token that may only
// read refused a write.
import { type Answer, message } from './github-faults.ts';
import { bodyProblems, type CheckedOperation } from './github-schema.ts';

export interface CheckRun {
  id: number;
  repo: string;
  head_sha: string;
  name: string;
  status: string;
  conclusion: string | null;
  details_url: string | null;
  external_id: string | null;
  started_at: string | null;
  completed_at: string | null;
  output: { title: string | null; summary: string | null; text: string | null };
  annotations: unknown[];
}

/** What a token may do with checks. */
export type Access = 'write' | 'read';

/** A request to GitHub's API as the check runs see it: its body parsed (POST, PATCH), its token's access. */
export interface ApiCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  access: Access;
}

/** A request body as GitHub has parsed it: field name → value. */
type Fields = Record<string, unknown>;

const CHECK_RUN_PATH = /^\/repos\/([^/]+)\/([^/]+)\/(?:check-runs(?:\/(\d+))?|commits\/([^/]+)\/check-runs)$/;

/** The check runs GitHub holds, in the order they were created. */
export class CheckRunWorld {
  readonly runs: CheckRun[] = [];
  readonly #now: () => number;
  readonly #baseUrl: () => string;
  #lastId = 4_000_000_000;

  constructor(now: () => number, baseUrl: () => string) {
    this.#now = now;
    this.#baseUrl = baseUrl;
  }

  /** GitHub's answer to a call on check runs: its path, its method, the token's access. */
  answer(call: ApiCall): Answer {
    const match = CHECK_RUN_PATH.exec(call.path);
    if (match === null) return message(404, 'Not Found');
    const repo = `${decodeURIComponent(match[1] ?? '')}/${decodeURIComponent(match[2] ?? '')}`;
    const id = match[3] === undefined ? undefined : Number(match[3]);
    const ref = match[4] === undefined ? undefined : decodeURIComponent(match[4]);
    if ((call.method === 'POST' || call.method === 'PATCH') && call.access === 'read')
      return message(403, 'Resource not accessible by integration');
    if (ref !== undefined && call.method === 'GET') return this.#list(repo, ref, call.query);
    if (id === undefined && ref === undefined && call.method === 'POST') return this.#create(repo, call.body);
    const run = this.runs.find((candidate) => candidate.id === id && candidate.repo === repo);
    if (id === undefined || run === undefined) return message(404, 'Not Found');
    if (call.method === 'GET') return { status: 200, body: this.view(run) };
    if (call.method === 'PATCH') return this.#update(run, call.body);
    return message(404, 'Not Found');
  }

  /** A check run as the API shows it. */
  view(run: CheckRun): Record<string, unknown> {
    const [owner, repo] = run.repo.split('/');
    const url = this.#baseUrl();
    return {
      id: run.id,
      head_sha: run.head_sha,
      node_id: `CR_${run.id}`,
      external_id: run.external_id,
      url: `${url}/repos/${run.repo}/check-runs/${run.id}`,
      html_url: `${url}/${owner}/${repo}/runs/${run.id}`,
      details_url: run.details_url,
      status: run.status,
      conclusion: run.conclusion,
      started_at: run.started_at,
      completed_at: run.completed_at,
      output: {
        ...run.output,
        annotations_count: run.annotations.length,
        annotations_url: `${url}/repos/${run.repo}/check-runs/${run.id}/annotations`,
      },
      name: run.name,
      check_suite: { id: 1 },
      app: { id: 15368, slug: 'github-actions', name: 'GitHub Actions' },
      pull_requests: [],
    };
  }

  /** GET /repos/{o}/{r}/commits/{ref}/check-runs?check_name&status&filter: the latest of each name unless filter=all, newest first. */
  #list(repo: string, ref: string, query: URLSearchParams): Answer {
    const name = query.get('check_name');
    const status = query.get('status');
    let found = this.runs.filter((run) => run.repo === repo && run.head_sha === ref && (name === null || run.name === name));
    if (status !== null) found = found.filter((run) => run.status === status);
    if (query.get('filter') !== 'all') found = found.filter((run) => !found.some((other) => other.name === run.name && other.id > run.id));
    found.sort((one, other) => other.id - one.id);
    return { status: 200, body: { total_count: found.length, check_runs: found.map((run) => this.view(run)) } };
  }

  /** POST /repos/{o}/{r}/check-runs. */
  #create(repo: string, body: unknown): Answer {
    const refusal = invalid('checks/create', body) ?? completedWithout(body as Fields);
    if (refusal !== undefined) return refusal;
    const fields = body as Fields;
    if (!/^[0-9a-f]{40}$/.test(String(fields.head_sha))) return message(422, `No commit found for SHA: ${String(fields.head_sha)}`);
    const run: CheckRun = {
      id: ++this.#lastId,
      repo,
      head_sha: String(fields.head_sha),
      name: String(fields.name),
      status: 'queued',
      conclusion: null,
      details_url: null,
      external_id: null,
      started_at: new Date(this.#now()).toISOString(),
      completed_at: null,
      output: { title: null, summary: null, text: null },
      annotations: [],
    };
    this.#apply(run, fields);
    this.runs.push(run);
    return { status: 201, body: this.view(run) };
  }

  /** PATCH /repos/{o}/{r}/check-runs/{id}. */
  #update(run: CheckRun, body: unknown): Answer {
    const refusal = invalid('checks/update', body) ?? completedWithout(body as Fields);
    if (refusal !== undefined) return refusal;
    this.#apply(run, body as Fields);
    return { status: 200, body: this.view(run) };
  }

  /** The fields a create or update sets, as GitHub applies them: a conclusion completes the run. */
  #apply(run: CheckRun, fields: Fields): void {
    const text = (name: string): string | undefined => (typeof fields[name] === 'string' ? (fields[name] as string) : undefined);
    run.name = text('name') ?? run.name;
    run.details_url = text('details_url') ?? run.details_url;
    run.external_id = text('external_id') ?? run.external_id;
    run.status = text('status') ?? run.status;
    run.started_at = text('started_at') ?? run.started_at;
    if (text('conclusion') !== undefined) {
      run.conclusion = text('conclusion') ?? null;
      run.status = 'completed';
    }
    if (run.status === 'completed') run.completed_at = text('completed_at') ?? run.completed_at ?? new Date(this.#now()).toISOString();
    const output = fields.output as { title?: string; summary?: string; text?: string; annotations?: unknown[] } | undefined;
    if (output !== undefined) {
      run.output = {
        title: output.title ?? run.output.title,
        summary: output.summary ?? run.output.summary,
        text: output.text ?? run.output.text,
      };
      run.annotations.push(...(output.annotations ?? []));
    }
  }
}

/** GitHub's 422 for a body its description refuses. */
function invalid(operation: CheckedOperation, body: unknown): Answer | undefined {
  const problems = bodyProblems(operation, body);
  if (problems.length === 0) return undefined;
  return message(422, `Invalid request.\n\n${problems.join('\n')}`, { errors: problems });
}

/** GitHub's 422 for `status: completed` without a conclusion. */
function completedWithout(fields: Fields): Answer | undefined {
  return fields.status === 'completed' && fields.conclusion === undefined
    ? message(422, 'Invalid request.\n\nconclusion is required when status is completed.')
    : undefined;
}
