import { type IssuedTokens, utcTime } from '../auth.ts';
import { formatDuration } from '../duration.ts';
import type { Outcome } from '../outcome.ts';

/** A new access token from the token endpoint. The token is an output, never part of `data`. */
export async function getToken(tokens: IssuedTokens, now: number): Promise<Outcome> {
  const creds = await tokens.current();
  const info = tokens.info;
  const expirationTime = info?.expirationTime ?? 0;
  return {
    headline: `got an access token for ${creds.userId}, valid until ${utcTime(expirationTime)}`,
    data: { userId: info?.userId ?? creds.userId, expirationTime },
    outputs: { 'access-token': creds.token, 'expiration-time': String(expirationTime), 'user-id': creds.userId },
    blocks: [
      {
        kind: 'facts',
        rows: [
          ['User', creds.userId],
          ['Expires', `${utcTime(expirationTime)} (in ${formatDuration(expirationTime - now)})`],
          ['Token', 'in the masked output access-token'],
        ],
      },
    ],
  };
}
