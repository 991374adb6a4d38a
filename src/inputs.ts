import { z } from 'zod';
import { parseDuration } from './duration.ts';
import { CALLBACK_EVENTS, REGIONS, splitEvents, suggest } from './events.ts';
import { type ProjectFields, parseProjectText, projectFields } from './project-fields.ts';
import { isControl } from './text.ts';

export const OPERATIONS = [
  'get-token',
  'sign-detail',
  'get-project',
  'list-projects',
  'create-project',
  'update-project',
  'create-callbacks',
] as const;
export type Operation = (typeof OPERATIONS)[number];

/** Every input of action.yml. Reading one that is not here is a compile error. */
export const INPUT_NAMES = [
  'operation',
  'base-url',
  'access-token',
  'bk-token',
  'user-id',
  'app-code',
  'project-id',
  'resign-id',
  'project',
  'if-exists',
  'callback-url',
  'region',
  'events',
  'secret-token',
  'wait',
  'timeout',
  'poll-interval',
  'request-timeout',
  'retries',
  'download-url',
  'allow-insecure-http',
] as const;
export type InputName = (typeof INPUT_NAMES)[number];

export interface Settings {
  baseUrl: string;
  accessToken?: string;
  bkToken?: string;
  userId?: string;
  appCode?: string;
  timeoutMs: number;
  pollIntervalMs: number;
  requestTimeoutMs: number;
  retries: number;
}

export type Task =
  | { operation: 'get-token' }
  | { operation: 'sign-detail'; resignId: string; wait: boolean; downloadUrl: boolean }
  | { operation: 'get-project'; projectId: string }
  | { operation: 'list-projects' }
  | {
      operation: 'create-project';
      /** Only what the user gave: defaults are the create's business, not an update's. */
      project: ProjectFields & { englishName: string; projectName: string };
      ifExists: 'fail' | 'skip' | 'update';
    }
  | { operation: 'update-project'; projectId: string; project: ProjectFields }
  | {
      operation: 'create-callbacks';
      projectId: string;
      callbackUrl: string;
      region: (typeof REGIONS)[number];
      events: string[];
      secretToken?: string;
    };

export interface Inputs {
  settings: Settings;
  task: Task;
  /** Secret values among the inputs, to be masked before anything is printed. */
  secrets: string[];
}

export class InputError extends Error {
  override name = 'InputError';
  readonly problems: string[];
  constructor(problems: string[]) {
    super(problems.length === 1 ? `invalid input: ${problems[0]}` : `invalid inputs:\n- ${problems.join('\n- ')}`);
    this.problems = problems;
  }
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

const bool = (name: string) =>
  z.string().transform((v, ctx) => {
    if (/^(true|True|TRUE)$/.test(v)) return true;
    if (/^(false|False|FALSE)$/.test(v)) return false;
    ctx.addIssue({ code: 'custom', message: `${name} must be true or false, not "${v}"` });
    return z.NEVER;
  });

const duration = (name: string, minMs: number, maxMs: number) =>
  z.string().transform((v, ctx) => {
    const ms = parseDuration(v);
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: `${name} "${v}" is not a duration; use 90 (seconds), 90s, 500ms, 5m, 1h or 1h30m` });
      return z.NEVER;
    }
    if (ms < minMs || ms > maxMs) {
      ctx.addIssue({ code: 'custom', message: `${name} must be between ${minMs / 1000}s and ${maxMs / 3_600_000}h, not ${v}` });
      return z.NEVER;
    }
    return ms;
  });

/** One path segment: no empty value, no dot segment, no control characters. */
const segment = (name: string) =>
  z
    .string()
    .refine(
      (v) => v !== '.' && v !== '..' && ![...v].some((c) => isControl(c.charCodeAt(0))),
      `${name} cannot be "." or ".." or hold control characters`,
    );

/**
 * A value that goes into a request header (or the bk_token cookie, or verbatim into the query)
 * as it is: no control characters (a line break would end the header) and nothing beyond
 * Latin-1, which is all a header can carry. Refused before any request, with the input named;
 * a secret's characters are not shown.
 */
const headerValue = (name: string, o: { secret?: boolean; cookie?: boolean } = {}) =>
  z.string().superRefine((v, ctx) => {
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i);
      const shown = o.secret ? 'a character' : JSON.stringify(v[i]);
      let why: string | undefined;
      if (isControl(c)) why = `a control character (such as a line break) at position ${i + 1}`;
      else if (c > 0xff) why = `${shown} at position ${i + 1}, which is not Latin-1`;
      else if (o.cookie && c === 0x3b) why = `";" at position ${i + 1}, which would end the cookie`;
      if (why !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} holds ${why}; it cannot be sent in an HTTP header. Check the value (or the secret behind it)`,
        });
        return;
      }
    }
  });

const schema = z.object({
  operation: z.enum(OPERATIONS, {
    error: (i) =>
      i.input === undefined ? 'operation is required' : `operation "${String(i.input)}" is not one of ${OPERATIONS.join(', ')}`,
  }),
  'base-url': z.string({ error: 'base-url is required, e.g. https://devops.example.com' }),
  'access-token': headerValue('access-token', { secret: true }).optional(),
  'bk-token': headerValue('bk-token', { secret: true, cookie: true }).optional(),
  'user-id': headerValue('user-id').optional(),
  'app-code': headerValue('app-code').optional(),
  'project-id': segment('project-id').optional(),
  'resign-id': segment('resign-id').optional(),
  project: z.string().optional(),
  'if-exists': z
    .enum(['fail', 'skip', 'update'], { error: (i) => `if-exists must be fail, skip or update, not "${String(i.input)}"` })
    .default('fail'),
  'callback-url': z
    .string()
    .transform((v, ctx) => {
      if (!isHttpUrl(v))
        ctx.addIssue({ code: 'custom', message: `callback-url "${withoutCredentials(v)}" must be an absolute http(s) URL` });
      else if (hasCredentials(v))
        ctx.addIssue({
          code: 'custom',
          message: `callback-url must not hold a user name or password: bk-ci stores the URL and shows it to every project member (here without them: ${withoutCredentials(v)}). Use secret-token to authenticate the calls`,
        });
      return v;
    })
    .optional(),
  region: z
    .string()
    .transform((v, ctx) => {
      const region = REGIONS.find((r) => r === v);
      if (region !== undefined) return region;
      const hint = suggest(v, REGIONS);
      ctx.addIssue({
        code: 'custom',
        message: `region "${v}" is not one of ${REGIONS.join(', ')}${hint ? ` (did you mean ${hint}?)` : ''}`,
      });
      return z.NEVER;
    })
    .optional(),
  events: z
    .string()
    .transform((v, ctx) => {
      const events = splitEvents(v);
      if (events.length === 0) ctx.addIssue({ code: 'custom', message: 'events names no event' });
      for (const e of events) {
        if ((CALLBACK_EVENTS as readonly string[]).includes(e)) continue;
        const hint = suggest(e, CALLBACK_EVENTS);
        ctx.addIssue({
          code: 'custom',
          message: `event "${e}" is not a bk-ci callback event${hint ? ` (did you mean ${hint}?)` : ''}; known events: ${CALLBACK_EVENTS.join(', ')}`,
        });
      }
      return events;
    })
    .optional(),
  'secret-token': z.string().optional(),
  wait: bool('wait').default(true),
  timeout: duration('timeout', 1000, 72 * 3_600_000).default(30 * 60_000),
  'poll-interval': duration('poll-interval', 1000, 3_600_000).default(5000),
  'request-timeout': duration('request-timeout', 1000, 600_000).default(30_000),
  retries: z
    .string()
    .regex(/^\d+$/, 'retries must be a whole number from 0 to 10')
    .transform(Number)
    .refine((n) => n <= 10, 'retries must be a whole number from 0 to 10')
    .default(3),
  'download-url': bool('download-url').default(false),
  'allow-insecure-http': bool('allow-insecure-http').default(false),
});

function checkBaseUrl(text: string, allowInsecure: boolean): string | { problem: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: `base-url "${withoutCredentials(text)}" is not an absolute URL, e.g. https://devops.example.com` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: `base-url must use https (or http), not ${url.protocol}` };
  if (url.username || url.password) return { problem: 'base-url must not hold a user name or password' };
  if (url.search || url.hash) return { problem: 'base-url must not have a query (?…) or fragment (#…)' };
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname) && !allowInsecure) {
    return {
      problem: `base-url uses plain http to ${url.hostname}: the access token travels in the query string and could be read on the way. Use https, or set allow-insecure-http: true if the network is trusted`,
    };
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

const hasCredentials = (text: string): boolean => {
  try {
    const u = new URL(text);
    return u.username !== '' || u.password !== '';
  } catch {
    return false;
  }
};

/** A URL for a message, with whatever stands between `//` and `@` replaced. */
export const withoutCredentials = (text: string): string => text.replace(/^([^/?#]*\/\/)[^/?#]*@/, '$1***@');

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** All inputs, read once: an Inputs object, or an InputError that lists every problem. */
export async function parseInputs(get: (name: InputName) => string): Promise<Inputs> {
  const raw: Partial<Record<InputName, string>> = {};
  for (const name of INPUT_NAMES) {
    const v = get(name);
    if (v !== '') raw[name] = v;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new InputError(parsed.error.issues.map((i) => i.message));
  const i = parsed.data;
  const problems: string[] = [];
  const need = (name: InputName, value: string | undefined): string => {
    if (value === undefined) problems.push(`${name} is required for operation ${i.operation}`);
    return value ?? '';
  };

  const baseUrl = checkBaseUrl(i['base-url'], i['allow-insecure-http']);
  if (typeof baseUrl !== 'string') problems.push(baseUrl.problem);
  if (i.operation === 'get-token' && i['access-token'] !== undefined && i['bk-token'] === undefined) {
    problems.push('get-token issues a new token from bk-token; access-token cannot be used for it');
  }
  if (i['access-token'] !== undefined && i['bk-token'] === undefined && i['user-id'] === undefined && i.operation !== 'get-token') {
    problems.push("user-id is required with access-token: the token's user cannot be read from the token itself (with bk-token it can)");
  }

  let task: Task | undefined;
  switch (i.operation) {
    case 'get-token':
    case 'list-projects':
      task = { operation: i.operation };
      break;
    case 'sign-detail':
      task = { operation: i.operation, resignId: need('resign-id', i['resign-id']), wait: i.wait, downloadUrl: i['download-url'] };
      break;
    case 'get-project':
      task = { operation: i.operation, projectId: need('project-id', i['project-id']) };
      break;
    case 'create-project':
    case 'update-project': {
      const project = await readProject(need('project', i.project), problems);
      if (i.operation === 'create-project') {
        if (project && (project.englishName === undefined || project.projectName === undefined)) {
          problems.push('project must give englishName and projectName to create a project');
        }
        const id = i['project-id'];
        if (project && id !== undefined && project.englishName !== undefined && id !== project.englishName) {
          problems.push(`project-id "${id}" and project.englishName "${project.englishName}" differ; give one, or the same in both`);
        }
        if (project?.englishName !== undefined && !/^[a-z][a-zA-Z0-9-]{1,31}$/.test(project.englishName)) {
          problems.push(
            `project.englishName "${project.englishName}" must be 2-32 characters: a lower-case letter first, then letters, digits or "-"`,
          );
        }
        task = {
          operation: i.operation,
          project: { ...project, englishName: project?.englishName ?? '', projectName: project?.projectName ?? '' },
          ifExists: i['if-exists'],
        };
      } else {
        const projectId = need('project-id', i['project-id']);
        if (project?.englishName !== undefined && project.englishName !== projectId) {
          problems.push(
            `project.englishName "${project.englishName}" differs from project-id "${projectId}"; the English name of a project cannot be changed`,
          );
        }
        task = { operation: i.operation, projectId, project: project ?? {} };
      }
      break;
    }
    case 'create-callbacks': {
      const projectId = need('project-id', i['project-id']);
      const callbackUrl = need('callback-url', i['callback-url']);
      if (i.region === undefined) need('region', undefined);
      if (i.events === undefined) need('events', undefined);
      task = {
        operation: i.operation,
        projectId,
        callbackUrl,
        region: i.region ?? 'DEVNET',
        events: i.events ?? [],
        ...(i['secret-token'] === undefined ? {} : { secretToken: i['secret-token'] }),
      };
      break;
    }
  }
  if (problems.length > 0 || task === undefined || typeof baseUrl !== 'string') throw new InputError(problems);

  const settings: Settings = {
    baseUrl,
    timeoutMs: i.timeout,
    pollIntervalMs: i['poll-interval'],
    requestTimeoutMs: i['request-timeout'],
    retries: i.retries,
  };
  if (i['access-token'] !== undefined) settings.accessToken = i['access-token'];
  if (i['bk-token'] !== undefined) settings.bkToken = i['bk-token'];
  if (i['user-id'] !== undefined) settings.userId = i['user-id'];
  if (i['app-code'] !== undefined) settings.appCode = i['app-code'];
  const secrets = [i['access-token'], i['bk-token'], i['secret-token']].filter((s): s is string => s !== undefined);
  return { settings, task, secrets };
}

async function readProject(text: string, problems: string[]): Promise<ProjectFields | undefined> {
  if (text === '') return undefined;
  let value: unknown;
  try {
    value = await parseProjectText(text);
  } catch (e) {
    problems.push(`project is neither a JSON object nor a YAML mapping: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push('project must be a JSON object or a YAML mapping of project fields');
    return undefined;
  }
  const fields = projectFields.safeParse(value);
  if (!fields.success) {
    for (const issue of fields.error.issues) problems.push(`project.${issue.path.join('.')}: ${issue.message}`);
    return undefined;
  }
  return fields.data;
}
