// What one request for a file brings back: the link bk-ci gave and the redirects after it, each
// hop's credential decided by src/download/credential.ts; and what the answer says of the file
// (the whole of it, or the rest from where the transfer stands, its size and checksum), or why it
// is no answer to take, passing or not. src/download/transfer.ts runs the attempts. docs/download.md.
import type { Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { ActionError } from '../base/errors.ts';
import type { Log } from '../base/log.ts';
import { collapse, cut } from '../base/text.ts';
import type { Failure } from '../http/retry.ts';
import type { StreamGet, StreamResponse } from '../http/stream-get.ts';
import { firstHop, hopHeaders, redirectHop } from './credential.ts';

/** What requesting a file takes: the client, where the ticket may go, the ticket, the log (each hop in debug). */
export interface Requests {
  get: StreamGet;
  /** Origins that may receive the bk_token cookie; the ticket, when given. */
  origins: readonly string[];
  token: string | undefined;
  userAgent: string;
  log: Log;
}

/** What a file's answers said of it: its size, checksum and identity, whether it takes ranges; and its hash so far. */
export interface FileFacts {
  total: number | undefined;
  etag: string | undefined;
  checksum: { value: string; from: string } | undefined;
  ranges: boolean;
  resumes: number;
  restarts: number;
  hash: Hash;
}

/** Why a file was not downloaded. `login`: bk-ci refused who asked (401, 403), which every other file would meet too. */
export class FileError extends ActionError {
  override name = 'FileError';
  readonly kind: 'login' | 'integrity' | 'refused' | 'server' | 'network' | 'timeout';
  /** The request that was refused: its origin, and whether it carried the cookie. */
  readonly hop: { origin: string; cookie: boolean } | undefined;
  constructor(kind: FileError['kind'], message: string, options: { status?: number; hop?: FileError['hop']; cause?: unknown } = {}) {
    super(message, { status: options.status, cause: options.cause });
    this.kind = kind;
    this.hop = options.hop;
  }
}

/** A passing failure of one attempt: another may mend it (a cut, a silence, a 5xx). */
export class PassingFailure extends Error {
  readonly failure: Failure;
  constructor(why: string, failure: Failure) {
    super(why);
    this.failure = failure;
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The first request to bk-ci's link and the redirects after it, each hop's credential decided on its own. */
export async function open(src: { link: string; path: string }, from: number, signal: AbortSignal, requests: Requests): Promise<Answer> {
  let hop = firstHop(src.link, requests.origins);
  for (let redirects = 0; ; ) {
    if (!hop.go) throw new FileError('refused', `${src.path}: not fetched: ${hop.why}`);
    const hopped = { origin: new URL(hop.url).origin, cookie: hop.cookie && requests.token !== undefined };
    requests.log.debug(
      `GET ${shown(hop.url)} ${hopped.cookie ? 'with the bk_token cookie' : 'without credentials'}${from > 0 ? ` from byte ${from}` : ''}`,
    );
    const res = await requests.get({ url: hop.url, headers: hopHeaders(hop, requests.token, from, requests.userAgent), signal });
    if (!REDIRECTS.has(res.status)) return { ...res, hop: hopped };
    res.body.destroy();
    hop = redirectHop(hop.url, res.headers.location, ++redirects, requests.origins);
  }
}

/** An answer, and the request it answers: its origin, and whether it carried the cookie. */
export type Answer = StreamResponse & { hop: NonNullable<FileError['hop']> };

/** A URL as messages show it: no query (a storage link's query is its signature), no user name. */
const shown = (url: string): string => {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
};

/**
 * What the answer is: the whole file (what it says of the file is learnt), or the rest of it from
 * `from` (the same file: the range where we are, the ETag unchanged). Anything else is thrown,
 * passing or not.
 */
export async function admit(res: Answer, from: number, facts: FileFacts): Promise<'whole' | 'rest'> {
  const { status, headers } = res;
  if (status === 200) {
    learn(headers, facts);
    return 'whole';
  }
  if (status === 206 && from > 0) {
    const range = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(headers['content-range'] ?? '');
    const total = range?.[2] === undefined || range[2] === '*' ? undefined : Number(range[2]);
    const same =
      Number(range?.[1]) === from &&
      facts.etag !== undefined &&
      headers.etag === facts.etag &&
      (total === undefined || total === facts.total);
    if (same) return 'rest';
    res.body.destroy();
    facts.ranges = false;
    throw new PassingFailure(
      `the answer to resume at byte ${from} did not continue the file (Content-Range ${headers['content-range'] ?? 'none'}, ETag ${headers.etag === facts.etag ? 'unchanged' : 'changed'})`,
      { kind: 'network', beforeSend: false },
    );
  }
  if (status === 416) {
    res.body.destroy();
    facts.ranges = false;
    throw new PassingFailure('the server refused the range (HTTP 416)', { kind: 'network', beforeSend: false });
  }
  // Another success (a 206 nobody asked for, a 204): the body is a file's or nothing, never words to quote.
  if (status >= 200 && status < 300) {
    res.body.destroy();
    const asked = from > 0 ? `the rest of the file from byte ${from}` : 'the whole file';
    throw new FileError('server', `${res.hop.origin} answered HTTP ${status} to a request for ${asked}: not taken`, { status });
  }
  const said = await excerpt(res.body);
  const words = `HTTP ${status}${said === '' ? '' : ` (${said})`}`;
  if (status === 401 || status === 403) throw new FileError('login', words, { status, hop: res.hop });
  if (status === 429 || status >= 500) throw new PassingFailure(words, { kind: 'status', status, retryAfter: headers['retry-after'] });
  throw new FileError('server', `${res.hop.origin} answered ${words}`, { status });
}

/** A whole answer's headers: its size, checksum, identity, and whether it takes ranges. */
function learn(headers: Record<string, string>, facts: FileFacts): void {
  const coding = headers['content-encoding'];
  if (coding !== undefined && !/^\s*(identity)?\s*$/i.test(coding))
    throw new FileError('integrity', `the server sent the file in the content coding "${coding}", which it was not asked for`);
  const length = /^\d+$/.test(headers['content-length'] ?? '') ? Number(headers['content-length']) : undefined;
  if (length !== undefined && facts.total !== undefined && length !== facts.total)
    throw new FileError('integrity', `bk-ci lists ${facts.total} bytes, but the server's Content-Length is ${length}`);
  facts.total ??= length;
  facts.etag = headers.etag;
  facts.checksum = checksumOf(headers);
  // A range continues the file only when a strong ETag says the rest is of the same file (RFC 9110 13.1.5).
  const identity = facts.etag !== undefined && facts.etag.trim() !== '' && !/^\s*W\//.test(facts.etag);
  facts.ranges = identity && /(^|,)\s*bytes\s*(,|$)/i.test(headers['accept-ranges'] ?? '');
}

/** bk-repo's X-Checksum-Sha256, else an ETag of 64 hex digits (bk-repo's ETag is the file's SHA-256). */
export function checksumOf(headers: Record<string, string>): { value: string; from: string } | undefined {
  const sha = headers['x-checksum-sha256']?.trim();
  if (sha !== undefined && /^[0-9a-f]{64}$/i.test(sha)) return { value: sha.toLowerCase(), from: 'X-Checksum-Sha256' };
  const etag = headers.etag
    ?.trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');
  if (etag !== undefined && /^[0-9a-f]{64}$/i.test(etag)) return { value: etag.toLowerCase(), from: 'ETag' };
  return undefined;
}

/** The start of an error answer's body, as readable text. */
async function excerpt(body: Readable): Promise<string> {
  let text = '';
  try {
    for await (const chunk of body) {
      text += String(chunk);
      if (text.length > 4000) break;
    }
  } catch {
    // what came is enough
  } finally {
    body.destroy();
  }
  // Marked where it is cut: the scrub that comes later finds a secret's start the cut left.
  return cut(said(text), 300);
}

/** What an error body says: bk-ci's or bk-repo's JSON `message`, else its text without markup. */
function said(text: string): string {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') return body.message;
  } catch {
    // not JSON
  }
  return collapse(text);
}
