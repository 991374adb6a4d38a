// What the build operations share of their declarations: the outputs, the endpoints of what they
// show; and where a build's page in the console is. Their inputs: src/inputs/build.ts.

import type { Log } from '../base/log.ts';
import { FILE_INFO, USER_DOWNLOAD_URL } from '../bkci/artifacts.ts';
import { LOG_AFTER } from '../bkci/logs.ts';
import type { Gateway } from '../bkci/routes.ts';
import { BUILD_VARIABLES } from '../bkci/variables.ts';

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

/** The outputs of a build operation that can write a check run. */
export const CHECK_OUTPUTS = ['check-run-id', 'check-url'] as const;

/** The endpoints showing a build may call. */
export const SIGHT_ENDPOINTS = [LOG_AFTER, BUILD_VARIABLES, FILE_INFO, USER_DOWNLOAD_URL];

export const SIGHT_OUTPUTS = ['log-file', 'variables', 'artifacts'] as const;
export type ReportInputs = (typeof SIGHT_OUTPUTS)[number];

export const BUILD_OUTPUTS = [
  'build-id',
  'build-num',
  'build-status',
  'build-url',
  'elapsed',
  'polls',
  'execute-count',
  'conclusion',
  'reviewers',
  ...SIGHT_OUTPUTS,
  'downloaded',
  'download-path',
] as const;
export type BuildOutput = (typeof BUILD_OUTPUTS)[number];
