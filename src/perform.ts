import { IssuedTokens, type TokenSource } from './auth.ts';
import type { Clock } from './clock.ts';
import { formatDuration } from './duration.ts';
import type { BkciApi } from './http/api.ts';
import type { Settings, Task } from './inputs.ts';
import type { Log } from './log.ts';
import { createCallbacks } from './operations/callbacks.ts';
import { getToken } from './operations/get-token.ts';
import { createProject, getProject, listProjects, updateProject } from './operations/projects.ts';
import { signDetail } from './operations/sign-detail.ts';
import type { Outcome } from './outcome.ts';

export interface Context {
  api: BkciApi;
  tokens: TokenSource;
  settings: Settings;
  clock: Clock;
  log: Log;
  signal: AbortSignal;
  start: number;
}

/** The one operation the step asked for. */
export function perform(task: Task, c: Context): Promise<Outcome> {
  switch (task.operation) {
    case 'get-token':
      if (!(c.tokens instanceof IssuedTokens)) throw new Error('get-token needs bk-token, or a token endpoint that answers without one');
      return getToken(c.tokens, c.clock.now());
    case 'sign-detail':
      return signDetail(
        c.api,
        {
          resignId: task.resignId,
          wait: task.wait,
          downloadUrl: task.downloadUrl,
          timeoutMs: c.settings.timeoutMs,
          intervalMs: c.settings.pollIntervalMs,
          start: c.start,
        },
        { clock: c.clock, log: c.log, signal: c.signal },
      );
    case 'get-project':
      return getProject(c.api, task.projectId);
    case 'list-projects':
      return listProjects(c.api);
    case 'create-project':
      return createProject(c.api, task.project, task.ifExists);
    case 'update-project':
      return updateProject(c.api, task.projectId, task.project);
    case 'create-callbacks':
      return createCallbacks(c.api, task);
  }
}

/** What the step was asked to do, for the summary: never a secret. */
export function describeTask(task: Task, settings: Settings): [string, string][] {
  const rows: [string, string][] = [];
  switch (task.operation) {
    case 'sign-detail':
      rows.push(['resign-id', task.resignId], ['wait', String(task.wait)]);
      if (task.wait) rows.push(['timeout', formatDuration(settings.timeoutMs)], ['poll-interval', formatDuration(settings.pollIntervalMs)]);
      break;
    case 'get-project':
      rows.push(['project-id', task.projectId]);
      break;
    case 'create-project':
      rows.push(['project', task.project.englishName], ['if-exists', task.ifExists]);
      break;
    case 'update-project':
      rows.push(['project-id', task.projectId], ['fields', Object.keys(task.project).join(', ')]);
      break;
    case 'create-callbacks':
      rows.push(
        ['project-id', task.projectId],
        ['callback-url', task.callbackUrl],
        ['region', task.region],
        ['events', task.events.join(', ')],
      );
      break;
    default:
      break;
  }
  return rows;
}
