// The inputs that bring a build's files into the runner: `download` (patterns), `download-path`
// and `download-hosts`; for the build operations and download-artifacts. docs/download.md.
import { z } from '../base/schema.ts';
import { isControl } from '../base/text.ts';
import { compile, patternProblem } from '../download/glob.ts';
import { splitList } from './fields.ts';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** `download`: patterns, one a line or separated by commas, each checked. */
const patternsInput = z.string().transform((text, ctx) => {
  const patterns = splitList(text);
  for (const pattern of patterns) {
    const problem = patternProblem(pattern);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `download: ${problem}` });
  }
  // Compiled once here too, so that a pattern the matcher cannot take is an input error, not a failure later.
  for (const pattern of patterns) compile(pattern);
  return patterns;
});

/** `download-hosts`: origins, each an http(s) URL with nothing after its host and port. */
const hostsInput = z.string().transform((text, ctx) => {
  const origins: string[] = [];
  for (const entry of splitList(text)) {
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    const bare = url !== undefined && (url.pathname === '/' || url.pathname === '') && url.search === '' && url.hash === '';
    if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:') || !bare || url.username || url.password)
      ctx.addIssue({
        code: 'custom',
        message: `download-hosts: "${entry.replace(/\/\/[^/@]*@/, '//***@')}" is not an origin: write its scheme, host and port only, e.g. https://devops.example.com`,
      });
    else origins.push(url.origin);
  }
  return origins;
});

/** The download's inputs: read by start-build, build-status, retry-build, review-build and download-artifacts. */
export const downloadInputs = {
  download: patternsInput.optional(),
  'download-path': z
    .string()
    .refine((v) => v.trim() !== '' && ![...v].some((c) => isControl(c.charCodeAt(0))), 'download-path must be a folder, on one line')
    .default('bkci-artifacts'),
  'download-hosts': hostsInput.optional(),
};

export interface DownloadTask {
  download?: string[] | undefined;
  'download-path': string;
  'download-hosts'?: string[] | undefined;
}

/**
 * How the download's inputs go with the others: a plain-http host only where base-url may be one,
 * and files only from a build the step waits for (unless it reads one that may have ended).
 */
export function downloadProblems(
  task: DownloadTask & { wait: boolean },
  settings: { allowInsecureHttp?: boolean },
  { waitsForEnd }: { waitsForEnd: boolean },
): string[] {
  const problems: string[] = [];
  for (const origin of task['download-hosts'] ?? []) {
    const { protocol, hostname } = new URL(origin);
    if (protocol === 'http:' && !LOOPBACK.test(hostname) && settings.allowInsecureHttp !== true)
      problems.push(
        `download-hosts: ${origin} is plain http: the login ticket would travel in the clear. Use https, or set allow-insecure-http: true if the network is trusted`,
      );
  }
  if (task.download !== undefined && task.download.length > 0 && !task.wait && waitsForEnd)
    problems.push('download needs wait: true: the files are downloaded once the build has ended, and without wait the step ends before');
  return problems;
}
