import { expiresAt, type IssuedTokens, utcTime } from '../auth.ts';
import { formatDuration } from '../duration.ts';
import { exactInteger } from '../json.ts';
import type { Outcome } from '../outcome.ts';

/** A new access token from the token endpoint. The token is an output, never part of `data`. */
export async function getToken(tokens: IssuedTokens, now: number): Promise<Outcome> {
  const creds = await tokens.current();
  const info = tokens.info;
  const expirationTime = info?.expirationTime ?? 0;
  const text = info?.expirationText ?? String(expirationTime);
  return {
    headline: `got an access token for ${creds.userId}, valid until ${utcTime(expirationTime)}`,
    data: { userId: info?.userId ?? creds.userId, expirationTime: exactInteger(text) ?? expirationTime },
    outputs: { 'access-token': creds.token, 'expiration-time': text, 'user-id': creds.userId },
    blocks: [
      {
        kind: 'facts',
        rows: [
          ['User', creds.userId],
          [
            'Expires',
            expiresAt(expirationTime, now) === undefined
              ? `${text} (not a time still to come)`
              : `${utcTime(expirationTime)} (in ${formatDuration(expirationTime - now)})`,
          ],
          ['Token', 'in the masked output access-token'],
        ],
      },
    ],
  };
}
