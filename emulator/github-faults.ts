// How GitHub fails, for the emulator's GitHub side (emulator/github.ts): one row per kind of fault,
// each what GitHub's REST API documentation says it answers, or what a network does to an answer.
// A fault applies to the next requests that match it (method, a part of the path, a field of the
// body), `times` times.
import { z } from 'zod';

const DOCS = 'https://docs.github.com/rest/checks/runs';

export const faultBody = z
  .object({
    /**
     * secondary: 403 (or `status` 429) with retry-after; primary: x-ratelimit-remaining 0; error:
     * `status` with GitHub's answer (its HTML error page for 5xx); invalid: 422 Validation Failed;
     * drop: the change is made, the answer lost; hang: the request is held, never answered;
     * redirect: 307 to `location` (GitHub's API redirects with 301, 302 and 307, docs.github.com
     * "Using the REST API": "HTTP redirects"), nothing changed.
     */
    kind: z.enum(['secondary', 'primary', 'error', 'invalid', 'drop', 'hang', 'redirect']),
    /** Where a redirect leads. */
    location: z.string().optional(),
    method: z.string().optional(),
    /** A part of the path the fault applies to. */
    path: z.string().optional(),
    /** Only a request whose JSON body has this field (a dot path, e.g. `output.annotations`). */
    bodyHas: z.string().optional(),
    status: z.number().int().min(400).max(599).optional(),
    retryAfter: z.number().int().min(0).default(60),
    times: z.number().int().min(1).default(1),
  })
  .strict();
export type Fault = z.output<typeof faultBody>;

export interface Answer {
  status: number;
  /** JSON, or text sent as text/html. */
  body: unknown;
  headers?: Record<string, string>;
}

/** An answer in GitHub's error shape (`message`, `documentation_url`, `status`). */
export const message = (status: number, text: string, extra: object = {}): Answer => ({
  status,
  body: { message: text, documentation_url: DOCS, status: String(status), ...extra },
});

/**
 * GitHub's page for a 5xx (the "Unicorn!" page github.com serves when it fails to produce an
 * answer): HTML with its own styles, whatever the request asked for.
 */
export const errorPage = (status: number): Answer => ({
  status,
  body: `<!DOCTYPE html>
<html>
  <head>
    <meta http-equiv="Content-type" content="text/html; charset=utf-8">
    <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'">
    <title>Unicorn! &middot; GitHub</title>
    <style type="text/css" media="screen">
      body { background-color: #f1f1f1; margin: 0; font-family: "Helvetica Neue", Helvetica, Arial, sans-serif; }
      .container { margin: 50px auto 40px auto; width: 600px; text-align: center; }
      a { color: #4183c4; text-decoration: none; }
      a:hover { text-decoration: underline; }
      h1 { letter-spacing: -1px; line-height: 60px; font-size: 60px; font-weight: 100; margin: 0px; text-shadow: 0 1px 0 #fff; }
      p { color: rgba(0, 0, 0, 0.5); margin: 10px 0 10px; font-size: 18px; font-weight: 200; line-height: 1.6em; }
      ul { list-style: none; margin: 25px 0; padding: 0; }
      li { display: table-cell; font-weight: bold; width: 1%; }
    </style>
  </head>
  <body>
    <div class="container">
      <p><strong>We had issues producing the response to your request.</strong></p>
      <p>Sorry about that. Please try refreshing and contact us if the problem persists.</p>
      <div id="suggestions">
        <a href="https://support.github.com">Contact Support</a> &mdash;
        <a href="https://www.githubstatus.com">GitHub Status</a> &mdash;
        <a href="https://twitter.com/githubstatus">@githubstatus</a>
      </div>
    </div>
  </body>
</html>
`,
});

/** What the emulator does with a request a fault matched: answers; or, after `answer`, drops the connection (the change made) or holds it. */
export interface Act {
  answer: Answer;
  after?: 'drop' | 'hold';
}

/** Each kind of fault, as GitHub (or the network) shows it; `apply` makes the change as GitHub would. */
export const FAULTS: Record<Fault['kind'], (fault: Fault, apply: () => Answer, nowSeconds: number) => Act> = {
  secondary: (fault) => ({
    answer: {
      ...message(fault.status ?? 403, 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.'),
      headers: { 'retry-after': String(fault.retryAfter) },
    },
  }),
  primary: (fault, _, now) => ({
    answer: {
      ...message(403, 'API rate limit exceeded for installation ID 1.'),
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now + fault.retryAfter) },
    },
  }),
  error: (fault) => {
    const status = fault.status ?? 502;
    return { answer: status >= 500 ? errorPage(status) : message(status, 'Fault') };
  },
  invalid: () => ({
    answer: message(422, 'Validation Failed', { errors: [{ resource: 'CheckRun', code: 'invalid', field: 'output' }] }),
  }),
  drop: (_, apply) => ({ answer: apply(), after: 'drop' }),
  hang: () => ({ answer: { status: 0, body: '' }, after: 'hold' }),
  redirect: (fault) => ({
    answer: { ...message(307, 'Temporary Redirect', { url: fault.location ?? '' }), headers: { location: fault.location ?? '/' } },
  }),
};

/** Whether the JSON body has the field at the dot path. */
function bodyHas(text: string, path: string): boolean {
  let at: unknown;
  try {
    at = JSON.parse(text);
  } catch {
    return false;
  }
  for (const key of path.split('.')) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return false;
    at = (at as Record<string, unknown>)[key];
  }
  return true;
}

/** The first armed fault the request matches, counted down (and disarmed at 0). */
export function takeFault(faults: Fault[], method: string, path: string, body: string): Fault | undefined {
  const index = faults.findIndex(
    (fault) =>
      (fault.method === undefined || fault.method === method) &&
      (fault.path === undefined || path.includes(fault.path)) &&
      (fault.bodyHas === undefined || bodyHas(body, fault.bodyHas)),
  );
  const fault = faults[index];
  if (fault === undefined) return undefined;
  fault.times -= 1;
  if (fault.times <= 0) faults.splice(index, 1);
  return fault;
}
