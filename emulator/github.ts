// GitHub's REST API for check runs, on loopback: created, updated, read and listed on a commit,
// every body checked against GitHub's published OpenAPI description (github-schema.ts), and
// answered as GitHub answers: 401 without a token it knows, 403 "Resource not accessible by
// integration" for a token that may only read, 422 for a body it refuses, its secondary rate
// limit (403 or 429 with retry-after) and its primary one (x-ratelimit-remaining: 0 with
// x-ratelimit-reset). Faults a test arms (emulator/github-faults.ts) make it fail as GitHub or a
// network does: its HTML error pages, a lost answer, a held request. Its control API is under
// /__emulator/github/ (emulator/README.md).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { z } from 'zod';
import { type Answer, FAULTS, type Fault, faultBody, message, takeFault } from './github-faults.ts';
import { bodyProblems, type CheckedOperation, loadSchemas } from './github-schema.ts';

const CONTROL = '/__emulator/github/';

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

export interface GitHubRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The answer's status. */
  status: number;
}

const tokenBody = z.object({ token: z.string().min(1), access: z.enum(['write', 'read']).default('write') }).strict();
const limitBody = z.object({ limit: z.number().int().min(0) }).strict();

export interface GitHubEmulator {
  readonly url: string;
  readonly runs: CheckRun[];
  readonly received: GitHubRequest[];
  /** A token GitHub knows, and what it may do with checks. */
  addToken(token: string, access?: 'write' | 'read'): void;
  fault(f: z.input<typeof faultBody>): void;
  close(): Promise<void>;
}

export interface GitHubOptions {
  now?: () => number;
  port?: number;
  /** Told when a `hang` fault holds a request unanswered: a test's clock can let the step's timeout for it pass at once. */
  onHold?: (request: { method: string; path: string }) => void;
}

export async function startGitHub(options: GitHubOptions = {}): Promise<GitHubEmulator> {
  const now = options.now ?? Date.now;
  // GitHub's description is large: compiled before the first request, not during it.
  loadSchemas();
  const tokens = new Map<string, 'write' | 'read'>();
  const runs: CheckRun[] = [];
  const received: GitHubRequest[] = [];
  const faults: Fault[] = [];
  const sockets = new Set<Socket>();
  let limit = 1000;
  let used = 0;
  let nextId = 4_000_000_001;
  let url = '';

  const view = (r: CheckRun) => {
    const [owner, repo] = r.repo.split('/');
    return {
      id: r.id,
      head_sha: r.head_sha,
      node_id: `CR_${r.id}`,
      external_id: r.external_id,
      url: `${url}/repos/${r.repo}/check-runs/${r.id}`,
      html_url: `${url}/${owner}/${repo}/runs/${r.id}`,
      details_url: r.details_url,
      status: r.status,
      conclusion: r.conclusion,
      started_at: r.started_at,
      completed_at: r.completed_at,
      output: {
        ...r.output,
        annotations_count: r.annotations.length,
        annotations_url: `${url}/repos/${r.repo}/check-runs/${r.id}/annotations`,
      },
      name: r.name,
      check_suite: { id: 1 },
      app: { id: 15368, slug: 'github-actions', name: 'GitHub Actions' },
      pull_requests: [],
    };
  };

  /** The fields a create or update sets, as GitHub applies them: a conclusion completes the run. */
  const apply = (r: CheckRun, b: Record<string, unknown>): void => {
    const s = (k: string): string | undefined => (typeof b[k] === 'string' ? (b[k] as string) : undefined);
    r.name = s('name') ?? r.name;
    r.details_url = s('details_url') ?? r.details_url;
    r.external_id = s('external_id') ?? r.external_id;
    r.status = s('status') ?? r.status;
    r.started_at = s('started_at') ?? r.started_at;
    if (s('conclusion') !== undefined) {
      r.conclusion = s('conclusion') ?? null;
      r.status = 'completed';
    }
    if (r.status === 'completed') r.completed_at = s('completed_at') ?? r.completed_at ?? new Date(now()).toISOString();
    const out = b.output as { title?: string; summary?: string; text?: string; annotations?: unknown[] } | undefined;
    if (out !== undefined) {
      r.output = { title: out.title ?? r.output.title, summary: out.summary ?? r.output.summary, text: out.text ?? r.output.text };
      r.annotations.push(...(out.annotations ?? []));
    }
  };

  const invalid = (op: CheckedOperation, body: unknown): Answer | undefined => {
    const problems = bodyProblems(op, body);
    if (problems.length === 0) return undefined;
    return message(422, `Invalid request.\n\n${problems.join('\n')}`, { errors: problems });
  };

  const completedWithout = (b: Record<string, unknown>): Answer | undefined =>
    b.status === 'completed' && b.conclusion === undefined
      ? message(422, 'Invalid request.\n\nconclusion is required when status is completed.')
      : undefined;

  const api = (method: string, path: string, query: URLSearchParams, body: unknown, access: 'write' | 'read'): Answer => {
    const m = /^\/repos\/([^/]+)\/([^/]+)\/(?:check-runs(?:\/(\d+))?|commits\/([^/]+)\/check-runs)$/.exec(path);
    if (m === null) return message(404, 'Not Found');
    const repo = `${decodeURIComponent(m[1] ?? '')}/${decodeURIComponent(m[2] ?? '')}`;
    const id = m[3] === undefined ? undefined : Number(m[3]);
    const ref = m[4] === undefined ? undefined : decodeURIComponent(m[4]);
    const writes = method === 'POST' || method === 'PATCH';
    if (writes && access === 'read') return message(403, 'Resource not accessible by integration');
    if (ref !== undefined && method === 'GET') {
      const name = query.get('check_name');
      const status = query.get('status');
      let found = runs.filter((r) => r.repo === repo && r.head_sha === ref && (name === null || r.name === name));
      if (status !== null) found = found.filter((r) => r.status === status);
      if (query.get('filter') !== 'all') found = found.filter((r) => !found.some((o) => o.name === r.name && o.id > r.id));
      found.sort((a, b) => b.id - a.id);
      return { status: 200, body: { total_count: found.length, check_runs: found.map(view) } };
    }
    if (id === undefined && ref === undefined && method === 'POST') {
      const bad = invalid('checks/create', body) ?? completedWithout(body as Record<string, unknown>);
      if (bad !== undefined) return bad;
      const b = body as Record<string, unknown>;
      if (!/^[0-9a-f]{40}$/.test(String(b.head_sha))) return message(422, `No commit found for SHA: ${String(b.head_sha)}`);
      const r: CheckRun = {
        id: nextId++,
        repo,
        head_sha: String(b.head_sha),
        name: String(b.name),
        status: 'queued',
        conclusion: null,
        details_url: null,
        external_id: null,
        started_at: new Date(now()).toISOString(),
        completed_at: null,
        output: { title: null, summary: null, text: null },
        annotations: [],
      };
      apply(r, b);
      runs.push(r);
      return { status: 201, body: view(r) };
    }
    const r = runs.find((x) => x.id === id && x.repo === repo);
    if (id === undefined || r === undefined) return message(404, 'Not Found');
    if (method === 'GET') return { status: 200, body: view(r) };
    if (method === 'PATCH') {
      const bad = invalid('checks/update', body) ?? completedWithout(body as Record<string, unknown>);
      if (bad !== undefined) return bad;
      apply(r, body as Record<string, unknown>);
      return { status: 200, body: view(r) };
    }
    return message(404, 'Not Found');
  };

  const rateHeaders = (): Record<string, string> => ({
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(Math.max(0, limit - used)),
    'x-ratelimit-used': String(used),
    'x-ratelimit-reset': String(Math.ceil(now() / 1000) + 3600),
    'x-ratelimit-resource': 'core',
  });

  const handle = (method: string, path: string, query: URLSearchParams, headers: IncomingMessage['headers'], text: string) => {
    const auth = /^(?:token|bearer)\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1];
    if (auth === undefined) return message(401, 'Requires authentication');
    const access = tokens.get(auth);
    if (access === undefined) return message(401, 'Bad credentials');
    used += 1;
    if (used > limit)
      return {
        ...message(403, 'API rate limit exceeded for installation ID 1.'),
        headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.ceil(now() / 1000) + 3600) },
      };
    let body: unknown;
    if (method === 'POST' || method === 'PATCH') {
      try {
        body = JSON.parse(text);
      } catch {
        return message(400, 'Problems parsing JSON');
      }
    }
    return api(method, path, query, body, access);
  };

  const control = (method: string, name: string, text: string): Answer => {
    const parse = <T>(schema: z.ZodType<T>): T | Answer => {
      const r = schema.safeParse(text === '' ? {} : JSON.parse(text));
      return r.success
        ? r.data
        : { status: 400, body: { message: r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') } };
    };
    const isAnswer = (x: unknown): x is Answer => typeof x === 'object' && x !== null && 'status' in x && 'body' in x;
    if (method === 'GET' && name === 'received') return { status: 200, body: received };
    if (method === 'GET' && name === 'check-runs') return { status: 200, body: runs.map(view) };
    if (method === 'POST' && name === 'tokens') {
      const b = parse(tokenBody);
      if (isAnswer(b)) return b;
      tokens.set(b.token, b.access);
      return { status: 200, body: {} };
    }
    if (method === 'POST' && name === 'faults') {
      const b = parse(faultBody);
      if (isAnswer(b)) return b;
      faults.push(b);
      return { status: 200, body: {} };
    }
    if (method === 'POST' && name === 'rate-limit') {
      const b = parse(limitBody);
      if (isAnswer(b)) return b;
      limit = b.limit;
      used = 0;
      return { status: 200, body: {} };
    }
    return {
      status: 404,
      body: { message: `no control endpoint ${method} ${name}: GET received, GET check-runs, POST tokens, POST faults, POST rate-limit` },
    };
  };

  const send = (res: ServerResponse, a: Answer, extra: Record<string, string> = {}): void => {
    const text = typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
    res.writeHead(a.status, {
      'content-type': typeof a.body === 'string' ? 'text/html' : 'application/json; charset=utf-8',
      ...extra,
      ...a.headers,
    });
    res.end(text);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const u = new URL(req.url ?? '/', 'http://x');
      const method = req.method ?? 'GET';
      if (u.pathname.startsWith(CONTROL)) {
        try {
          send(res, control(method, u.pathname.slice(CONTROL.length), text));
        } catch (e) {
          send(res, { status: 400, body: { message: e instanceof Error ? e.message : String(e) } });
        }
        return;
      }
      const f = takeFault(faults, method, u.pathname, text);
      const apply = () => handle(method, u.pathname, u.searchParams, req.headers, text);
      const act = f === undefined ? { answer: apply() } : FAULTS[f.kind](f, apply, Math.ceil(now() / 1000));
      received.push({ method, path: u.pathname + u.search, headers: req.headers, body: text, status: act.answer.status });
      if (act.after === 'drop') req.socket.destroy();
      else if (act.after === 'hold') options.onHold?.({ method, path: u.pathname });
      else send(res, act.answer, rateHeaders());
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    get url() {
      return url;
    },
    runs,
    received,
    addToken: (token, access = 'write') => tokens.set(token, access),
    fault: (f) => faults.push(faultBody.parse(f)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
