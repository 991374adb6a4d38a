// The GitHub side's control API, under /__emulator/github/ (emulator/README.md): tokens GitHub
// knows, faults armed (github-faults.ts), the primary rate limit, and what was received and
// holds. A body that is not what an endpoint takes is a 400 that says what is wrong.
import { z } from 'zod';
import type { CheckRunWorld } from './check-runs.ts';
import type { GitHubAccess } from './github-access.ts';
import { type Answer, type Fault, faultBody } from './github-faults.ts';

export const GITHUB_CONTROL_PREFIX = '/__emulator/github/';

/** A request GitHub's API received, with its answer's status. */
export interface GitHubRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The answer's status. */
  status: number;
}

/** What the control API reads and changes. */
export interface GitHubState {
  readonly access: GitHubAccess;
  readonly checkRuns: CheckRunWorld;
  readonly received: GitHubRequest[];
  readonly faults: Fault[];
}

const tokenBody = z.object({ token: z.string().min(1), access: z.enum(['write', 'read']).default('write') }).strict();
const limitBody = z.object({ limit: z.number().int().min(0) }).strict();

/** The answer to `method name` under the prefix; throws on a body that is not JSON. */
export function answerGitHubControl(state: GitHubState, method: string, name: string, text: string): Answer {
  if (method === 'GET' && name === 'received') return { status: 200, body: state.received };
  if (method === 'GET' && name === 'check-runs') return { status: 200, body: state.checkRuns.runs.map((run) => state.checkRuns.view(run)) };
  if (method === 'POST' && name === 'tokens') return withBody(tokenBody, text, (input) => state.access.addToken(input.token, input.access));
  if (method === 'POST' && name === 'faults') return withBody(faultBody, text, (input) => state.faults.push(input));
  if (method === 'POST' && name === 'rate-limit') return withBody(limitBody, text, (input) => state.access.setLimit(input.limit));
  return {
    status: 404,
    body: { message: `no control endpoint ${method} ${name}: GET received, GET check-runs, POST tokens, POST faults, POST rate-limit` },
  };
}

/** Runs `apply` with the body the schema takes, then answers `{}`; a 400 naming what is wrong otherwise. */
function withBody<T>(schema: z.ZodType<T>, text: string, apply: (input: T) => unknown): Answer {
  const parsed = schema.safeParse(text === '' ? {} : JSON.parse(text));
  if (!parsed.success)
    return { status: 400, body: { message: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') } };
  apply(parsed.data);
  return { status: 200, body: {} };
}
