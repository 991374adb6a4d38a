import { formatElapsed, utcTime } from '../base/duration.ts';
import { ActionError } from '../base/errors.ts';
import { exactInteger } from '../base/json.ts';
import { z } from '../base/schema.ts';
import { TOKEN_ENDPOINT } from '../bkci/token-endpoint.ts';
import { expiresAt, IssuedTokens } from '../bkci/tokens.ts';
import { defineOperation } from './operation.ts';

/** A new access token from the token endpoint. The token is an output, never part of `data`. */
export default defineOperation({
  inputs: z.object({}),
  endpoints: [TOKEN_ENDPOINT],
  outputs: ['access-token', 'expiration-time'],
  credentials: 'issued',
  describe: () => [],
  waits: () => false,
  async run(_task, { tokens, clock }) {
    if (!(tokens instanceof IssuedTokens)) throw new ActionError('get-token needs bk-token, or a token endpoint that answers without one');
    const creds = await tokens.current();
    const info = tokens.info;
    const expirationTime = info?.expirationTime ?? 0;
    const text = info?.expirationText ?? String(expirationTime);
    const now = clock.now();
    return {
      headline: `got an access token for ${creds.userId}, valid until ${utcTime(expirationTime, text)}`,
      data: { userId: info?.userId ?? creds.userId, expirationTime: exactInteger(text) ?? expirationTime },
      outputs: { 'access-token': creds.token, 'expiration-time': text },
      user: creds.userId,
      status: info?.httpStatus,
      blocks: [
        {
          kind: 'facts',
          rows: [
            ['User', creds.userId],
            [
              'Expires',
              expiresAt(expirationTime, now) === undefined
                ? `${text} (not a time still to come)`
                : `${utcTime(expirationTime)} (in ${formatElapsed(expirationTime - now)})`,
            ],
            ['Token', 'in the masked output access-token'],
          ],
        },
      ],
    };
  },
});
