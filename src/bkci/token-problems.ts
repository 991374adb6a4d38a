// What bk-ci's token errors mean, in either dialect, and what to do about each.

import { formatElapsed, utcTime } from '../base/duration.ts';
import { AuthError, HttpError, type TokenProblem } from '../base/errors.ts';
import type { TokenSource } from './tokens.ts';

/**
 * What an error says about the token, in either dialect: the spec's HTTP 401 JSON, or bk-ci's
 * HTTP 400 plain text from AccessTokenFilter (`Verification failed : … Access token expired in: <ms>`).
 */
export function tokenProblem(error: unknown): TokenProblem | undefined {
  if (!(error instanceof HttpError) || (error.status !== 400 && error.status !== 401)) return undefined;
  const said = error.serverMessage;
  const at = /expired in:\s*(\d{10,})/i.exec(said)?.[1];
  if (at !== undefined) return { kind: 'expired', at: Number(at), written: at };
  if (/token\W{0,3}\w{0,12}\W{0,3}expir|token过期/i.test(said)) return { kind: 'expired' };
  if (/accessToken is empty|access token is empty/i.test(said)) return { kind: 'empty' };
  if (/token\s*(illegal|invalid)|Access token (illegal|invalid)|token参数非法/i.test(said)) return { kind: 'illegal' };
  if (/^Verification failed/i.test(said)) return { kind: 'illegal' };
  return error.status === 401 ? { kind: 'refused' } : undefined;
}

/** A message that says what went wrong with the token and what to do about it. */
export function describeTokenProblem(
  problem: TokenProblem,
  tokens: TokenSource,
  cause: unknown,
  afterRenewal: boolean,
  now: number,
): AuthError {
  const said = cause instanceof HttpError ? ` (HTTP ${cause.status}: ${cause.serverMessage})` : '';
  const status = cause instanceof HttpError ? cause.status : undefined;
  const opts = { cause, ...(status === undefined ? {} : { status }) };
  switch (problem.kind) {
    case 'expired': {
      const when = problem.at === undefined ? '' : ` at ${utcTime(problem.at, problem.written)}`;
      if (tokens.kind === 'given') {
        const ago = problem.at === undefined || problem.at > now ? '' : `, ${formatElapsed(now - problem.at)} ago`;
        return new AuthError(
          `the access-token expired${when}${ago}${said}. bk-ci tokens live a few hours; get a new one from the token endpoint and update the secret, or give bk-token instead so that the action gets and renews tokens itself.`,
          problem,
          opts,
        );
      }
      return new AuthError(
        `bk-ci says the access token expired${when}${afterRenewal ? ' even right after it was renewed' : ''}${said}: check that the server's clock is right and its token lifetime longer than a request takes.`,
        problem,
        opts,
      );
    }
    case 'empty':
      return new AuthError(`bk-ci received no access token${said}. Set access-token (with user-id) or bk-token.`, problem, opts);
    case 'illegal':
      return new AuthError(
        `bk-ci rejected the access token as illegal${said}. Pass it exactly as the token endpoint issued it (already percent-encoded: do not decode it or encode it again), and check that it was issued by this bk-ci installation.`,
        problem,
        opts,
      );
    case 'refused':
      return new AuthError(`bk-ci refused the credentials${said}. Check access-token and user-id, or bk-token.`, problem, opts);
  }
}

/** What a refused bk-token means and what to do, wherever bk-ci refuses it (the token endpoint, a download). */
export const TICKET_REFUSED =
  'the BlueKing login ticket has expired or belongs to another installation. Log in again and store the new bk_token cookie as the secret.';
