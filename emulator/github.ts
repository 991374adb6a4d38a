// GitHub's REST API for check runs, on loopback: created, updated, read and listed on a commit,
// every body checked against GitHub's published OpenAPI description (github-schema.ts), and
// answered as GitHub answers: 401 without a token it knows, 403 "Resource not accessible by
// integration" for a token that may only read, 422 for a body it refuses, its secondary rate
// limit (403 or 429 with retry-after) and its primary one (x-ratelimit-remaining: 0 with
// x-ratelimit-reset). Faults a test arms (emulator/github-faults.ts) make it fail as GitHub or a
// network does: its HTML error pages, a lost answer, a held request. Its control API is under
// /__emulator/github/ (github-control.ts, emulator/README.md). The check runs themselves:
// check-runs.ts; tokens and the primary limit: github-access.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { type Access, type CheckRun, CheckRunWorld } from './check-runs.ts';
import { GitHubAccess } from './github-access.ts';
import { answerGitHubControl, GITHUB_CONTROL_PREFIX, type GitHubRequest, type GitHubState } from './github-control.ts';
import { type Answer, FAULTS, faultBody, message, takeFault } from './github-faults.ts';
import { loadSchemas } from './github-schema.ts';
import { bodyOf, listenOnLoopback } from './loopback.ts';

export interface GitHubEmulator {
  readonly url: string;
  readonly runs: CheckRun[];
  readonly received: GitHubRequest[];
  /** A token GitHub knows, and what it may do with checks. */
  addToken(token: string, access?: Access): void;
  fault(fault: z.input<typeof faultBody>): void;
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
  let url = '';
  const state: GitHubState = {
    access: new GitHubAccess(now),
    checkRuns: new CheckRunWorld(now, () => url),
    received: [],
    faults: [],
  };
  const server = await listenOnLoopback(
    (req, res) => void bodyOf(req).then((text) => answer(state, { req, res, text }, now, options.onHold)),
    { port: options.port },
  );
  url = server.url;
  return {
    url,
    runs: state.checkRuns.runs,
    received: state.received,
    addToken: (token, access = 'write') => state.access.addToken(token, access),
    fault: (fault) => state.faults.push(faultBody.parse(fault)),
    close: () => server.close(),
  };
}

/** One request, its body read, and the response to it. */
interface GitHubExchange {
  req: IncomingMessage;
  res: ServerResponse;
  text: string;
}

/** Answers one request: the control API's, or the API's as the faults armed for it say; every API request is received. */
function answer(state: GitHubState, exchange: GitHubExchange, now: () => number, onHold: GitHubOptions['onHold']): void {
  const { req, res, text } = exchange;
  const url = new URL(req.url ?? '/', 'http://x');
  const method = req.method ?? 'GET';
  if (url.pathname.startsWith(GITHUB_CONTROL_PREFIX)) {
    try {
      send(res, answerGitHubControl(state, method, url.pathname.slice(GITHUB_CONTROL_PREFIX.length), text));
    } catch (error) {
      send(res, { status: 400, body: { message: error instanceof Error ? error.message : String(error) } });
    }
    return;
  }
  const fault = takeFault(state.faults, method, url.pathname, text);
  const apply = () => answerApi(state, method, url, req.headers.authorization, text);
  const act = fault === undefined ? { answer: apply() } : FAULTS[fault.kind](fault, apply, Math.ceil(now() / 1000));
  state.received.push({ method, path: url.pathname + url.search, headers: req.headers, body: text, status: act.answer.status });
  if (act.after === 'drop') req.socket.destroy();
  else if (act.after === 'hold') onHold?.({ method, path: url.pathname });
  else send(res, act.answer, state.access.rateHeaders());
}

/** GitHub's answer: the token admitted and counted, the body parsed, then the check runs'. */
function answerApi(state: GitHubState, method: string, url: URL, authorization: string | undefined, text: string): Answer {
  const admitted = state.access.admit(authorization);
  if ('refusal' in admitted) return admitted.refusal;
  let body: unknown;
  if (method === 'POST' || method === 'PATCH') {
    try {
      body = JSON.parse(text);
    } catch {
      return message(400, 'Problems parsing JSON');
    }
  }
  return state.checkRuns.answer({ method, path: url.pathname, query: url.searchParams, body, access: admitted.access });
}

function send(res: ServerResponse, answer: Answer, extra: Record<string, string> = {}): void {
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    'content-type': typeof answer.body === 'string' ? 'text/html' : 'application/json; charset=utf-8',
    ...extra,
    ...answer.headers,
  });
  res.end(text);
}
