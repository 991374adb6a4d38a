// The inputs the build operations share, and where a build's page in the console is.
import { z } from 'zod';
import type { Gateway } from '../bkci/routes.ts';
import { bool, isHttpUrl, oneOf } from '../inputs/fields.ts';
import type { Log } from '../log.ts';

export const pipelineIdInput = z.string().regex(/^p-[\w-]+$/, 'pipeline-id must be a pipeline id, p-…');
export const buildIdInput = z.string().regex(/^b-[\w-]+$/, 'build-id must be a build id, b-…');
export const waitInput = bool('wait').default(true);
export const consoleUrlInput = z
  .string()
  .refine(isHttpUrl, 'console-url must be an absolute http(s) URL, the root of the bk-ci web console')
  .transform((u) => u.replace(/\/+$/, ''))
  .optional();
export const onReviewInput = oneOf('on-review', ['wait', 'fail'] as const).default('wait');

/**
 * The console's root: console-url, else base-url on bk-ci's own gateway, whose host serves the
 * console too. Behind the BlueKing API Gateway base-url is the gateway's stage root, which has no
 * console: no link then, and the log says how to get one.
 */
export function consoleRoot(given: string | undefined, gateway: Gateway, baseUrl: string, log: Log): string | undefined {
  if (given !== undefined) return given;
  if (gateway === 'bk-ci') return baseUrl;
  log.info(
    'build-url is empty: behind the BlueKing API Gateway base-url is not the bk-ci console; set console-url to the console root (e.g. https://devops.example.com) to get a link to the build',
  );
  return undefined;
}

/** The build's page in bk-ci's console; empty when the console or the pipeline is not known. */
export function buildUrl(consoleUrl: string | undefined, projectId: string, pipelineId: string | undefined, id: string): string {
  if (pipelineId === undefined || consoleUrl === undefined) return '';
  return `${consoleUrl}/console/pipeline/${[projectId, pipelineId, 'detail', id].map(encodeURIComponent).join('/')}`;
}

/** The pipeline's build history in the console, where a build that may have started can be looked for. */
export function historyUrl(consoleUrl: string | undefined, projectId: string, pipelineId: string): string {
  if (consoleUrl === undefined) return '';
  return `${consoleUrl}/console/pipeline/${[projectId, pipelineId, 'history'].map(encodeURIComponent).join('/')}`;
}
