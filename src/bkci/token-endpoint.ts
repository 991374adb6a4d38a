// The token endpoint: an access token issued for the login ticket (bk-token) or without one.

import { AuthError, HttpError, MisdirectedError, ResponseFormatError } from '../base/errors.ts';
import type { RawJson } from '../base/json.ts';
import { z } from '../base/schema.ts';
import { isControl } from '../base/text.ts';
import type { HttpCaller } from '../http/caller.ts';
import type { WireResponse } from '../http/transport.ts';
import { checked, parseJson, unwrap } from './result.ts';
import { perGateway, resolvePath } from './routes.ts';
import { TICKET_REFUSED } from './token-problems.ts';
import type { IssuedToken } from './tokens.ts';

/** The token endpoint: not under the OpenAPI, and only on bk-ci's own gateway. */
export const TOKEN_ENDPOINT = perGateway('GET', '/ms/auth/api/user/token/get', null);

/** `expirationTime` kept as written too: 2^63-1 and friends are not exact as doubles. */
const tokenInfo = z.lazy(() =>
  z
    .object({
      // Sent back as X-DEVOPS-UID: a value a header cannot carry is the server's fault, said at once.
      userId: z.string().refine((v) => ![...v].some((c) => isControl(c.charCodeAt(0)) || c.charCodeAt(0) > 0xff), {
        error: 'userId holds a character an HTTP header cannot carry (a control character or one beyond Latin-1)',
      }),
      expirationTime: z.union([z.number(), z.custom<RawJson>((v) => JSON.isRawJSON(v))]),
      accessToken: z.string().min(1),
    })
    .transform(({ expirationTime: e, ...rest }) => ({
      ...rest,
      expirationTime: typeof e === 'number' ? e : Number(e.rawJSON),
      expirationText: typeof e === 'number' ? String(e) : e.rawJSON,
    })),
);

export interface IssueOptions {
  http: HttpCaller;
  baseUrl: string;
  bkToken: string | undefined;
  deadline?: number | undefined;
}

/**
 * GET the token endpoint with the `bk_token` login cookie (or none). bk-ci's code wraps the
 * answer in the common Result; its docs show the bare object. Both are accepted.
 */
export async function issueToken(options: IssueOptions): Promise<IssuedToken> {
  const url = `${options.baseUrl}${resolvePath(TOKEN_ENDPOINT, 'bk-ci') ?? ''}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.bkToken !== undefined) headers.cookie = `bk_token=${options.bkToken}`;
  let res: WireResponse;
  try {
    res = await options.http.call({
      method: 'GET',
      url,
      shownUrl: url,
      headers,
      ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
    });
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) {
      throw new AuthError(
        options.bkToken === undefined
          ? `the token endpoint refused a request without a login ticket (HTTP 401: ${error.serverMessage}). Set access-token (with user-id) or bk-token.`
          : `the token endpoint refused bk-token (HTTP 401: ${error.serverMessage}): ${TICKET_REFUSED}`,
        { kind: 'refused' },
        { cause: error, status: 401 },
      );
    }
    // Every bk-ci has this endpoint: its 404 says base-url is not bk-ci's address, nothing about
    // the project or pipeline the step was going to ask for.
    if (error instanceof HttpError && error.status === 404)
      throw new MisdirectedError({
        method: 'GET',
        url,
        status: 404,
        serverMessage: `the token endpoint is not at this base-url${error.serverMessage ? ` ("${error.serverMessage}")` : ''}, which every bk-ci has, so base-url is not bk-ci's address: give the address the console is served from, up to the host (e.g. https://devops.example.com)`,
      });
    throw error;
  }
  const scrub = (t: string): string => options.http.scrub(t);
  // The token it issued is masked once it is read: a body that cannot be read is not quoted.
  const value = parseJson(res, 'GET', url, scrub, true, false);
  const bare = typeof value === 'object' && value !== null && 'accessToken' in value;
  const info = bare ? checked(value, tokenInfo, res, 'GET', url) : unwrap(value, tokenInfo, res, 'GET', url, scrub);
  if (info === undefined) throw new ResponseFormatError({ method: 'GET', url, status: res.status, detail: 'the token result has no data' });
  return { ...info, httpStatus: res.status };
}
