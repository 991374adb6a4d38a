// What a bk-ci error body says, in words a reader can act on: its JSON wrapper's message and
// code, its nginx's error page, the BlueKing API Gateway's own refusals (and which front door
// answered when the step expected the other), plain text or an HTML page collapsed to text.
// Secrets go before any text is cut.

import { z } from '../base/schema.ts';
import { collapse, cut, stripBom } from '../base/text.ts';
import type { ErrorBody } from '../http/caller.ts';
import type { WireResponse } from '../http/transport.ts';
import type { Gateway } from './routes.ts';

/**
 * An error body in bk-ci's or the gateway's JSON. Built on first use (z.lazy): this module loads
 * at every start, and a step that gets no error never reads an error body.
 */
const errorBody = z.lazy(() =>
  z.object({
    status: z.number().optional(),
    code: z.number().optional(),
    /** Set by the BlueKing API Gateway on its own refusals. */
    code_name: z.string().optional(),
    message: z.string().nullish(),
    /** bk-ci's nginx error page: `{status, data: "", result, message}` (error.json.handler.conf). */
    result: z.boolean().optional(),
    data: z.unknown().optional(),
  }),
);

/** What to check for each of the BlueKing API Gateway's own refusals (bk-apigateway's errorx.lua). */
const GATEWAY_HINTS: Record<number, string> = {
  1640101: 'the gateway could not verify the app: check app-code and app-secret',
  1640102:
    'the gateway could not verify the user: check bk-token (a login ticket) or access-token (a gateway token), which may have expired',
  1640301:
    "the app has not been granted this resource on the gateway: ask the gateway's operators to grant it (every apigw-app resource needs a grant)",
  1640001: "the gateway refused the request's arguments",
  1640401: 'the gateway publishes no such resource: check that base-url is the stage root (…/api/devops/prod) and the path',
  1642901: "the gateway's rate limit: retried after Retry-After",
  1642902: "the gateway's rate limit: retried after Retry-After",
  1642904: "the gateway's concurrency limit: retried after Retry-After",
};

/**
 * A refusal by the BlueKing API Gateway itself, said with its code name and what to check. When
 * the step was told it talks to bk-ci's own gateway, the answer itself says otherwise: that is
 * the cause, whatever the code (the gateway refuses bk-ci's paths with API_NOT_FOUND).
 */
function gatewayRefusal(code: number, codeName: string, message: string, gateway: Gateway): string {
  const said = `${codeName} (${code})${message ? `, "${message}"` : ''}`;
  if (gateway === 'bk-ci')
    return `base-url answers as the BlueKing API Gateway (${said}), but gateway is bk-ci (the default), which is bk-ci's own front door: set gateway: bk-apigateway, with base-url the gateway's stage root (e.g. https://bkapi.example.com/api/devops/prod)`;
  const hint = GATEWAY_HINTS[code];
  return `the BlueKing API Gateway refused the call: ${said}${hint === undefined ? '' : `; ${hint}`}`;
}

/**
 * The BlueKing API Gateway's own refusal is never an answer about the project or pipeline asked
 * for (its API_NOT_FOUND is a path it does not publish: a stage root with a path appended, say),
 * so no operation may read it as one: a MisdirectedError, said once in the gateway's words. Its
 * rate limits (429) and its own 5xx stay ordinary answers, which are retried.
 */
const gatewaysOwn = (httpStatus: number, gateway: Gateway): boolean =>
  gateway === 'bk-ci' || (httpStatus >= 400 && httpStatus < 500 && httpStatus !== 429);

/**
 * bk-ci's own gateway answering a step that was told it talks to the BlueKing API Gateway: its
 * nginx knows no `/v4/apigw-…` path, and says so in bk-ci's wrapper (`status`, no `code_name`).
 */
const wrongDoorForGateway = (message: string): string =>
  `base-url answers as bk-ci's own gateway${message ? ` ("${message}")` : ''}, not as the BlueKing API Gateway that gateway: bk-apigateway expects: if base-url is bk-ci's address, leave gateway out (bk-ci, the default); if it is the gateway's, give its stage root (e.g. https://bkapi.example.com/api/devops/prod)`;

/** bk-ci's nginx knows no such path: base-url holds a path it should not, or is another server's address. */
const noSuchPath = (message: string): string =>
  `bk-ci's gateway has no such path${message ? ` ("${message}")` : ''}, so base-url is not bk-ci's address: give the address the console is served from, up to the host (e.g. https://devops.example.com)`;

/**
 * What a bk-ci error body says: its JSON wrapper's message and code, plain text (its token
 * filter), or an HTML page collapsed to text. Secrets go before the text is cut.
 */
export function readError(res: WireResponse, scrub: (text: string) => string, gateway: Gateway = 'bk-ci'): ErrorBody {
  const text = stripBom(res.body).trim();
  // The gateway's refusals say who they are in headers too, whatever the body.
  const headerCode = Number(res.headers['x-bkapi-error-code'] ?? Number.NaN);
  if (text.startsWith('{')) {
    try {
      const parsed = errorBody.safeParse(JSON.parse(text));
      if (parsed.success && parsed.data.code_name !== undefined && parsed.data.code !== undefined)
        return {
          message: cut(scrub(gatewayRefusal(parsed.data.code, parsed.data.code_name, parsed.data.message ?? '', gateway)), 600),
          serverStatus: parsed.data.code,
          misdirected: gatewaysOwn(res.status, gateway),
        };
      // Only bk-ci's nginx writes this page; bk-ci's services behind the gateway answer a missing
      // resource without `result` (a Jersey 404), which is an answer about the resource.
      const nginxPage = parsed.success && parsed.data.status !== undefined && parsed.data.result !== undefined && parsed.data.data === '';
      if (nginxPage && gateway === 'bk-apigateway' && res.status === 404)
        return { message: cut(scrub(wrongDoorForGateway(parsed.data.message ?? '')), 600), serverStatus: 404, misdirected: true };
      if (nginxPage && res.status === 404)
        return { message: cut(scrub(noSuchPath(parsed.data.message ?? '')), 600), serverStatus: 404, misdirected: true };
      if (parsed.success) {
        const serverStatus = parsed.data.code ?? parsed.data.status;
        return {
          message: cut(scrub(readableMessage(parsed.data.message ?? '')), 500),
          ...(serverStatus === undefined ? {} : { serverStatus }),
        };
      }
    } catch {
      // not JSON after all: shown as text
    }
  }
  if (Number.isInteger(headerCode))
    return {
      message: cut(
        scrub(gatewayRefusal(headerCode, 'gateway error', res.headers['x-bkapi-error-message'] ?? collapse(text), gateway)),
        600,
      ),
      serverStatus: headerCode,
      misdirected: gatewaysOwn(res.status, gateway),
    };
  return { message: cut(scrub(collapse(text)), 300) };
}

/**
 * bk-ci's message made readable: an unfilled placeholder (`参数校验失败:{0} Invalid buildId…`)
 * never shown as `{0}`, and a missing user said as the input to set (behind the BlueKing API
 * Gateway with only a ticket, the action does not know the user; stock bk-ci needs it).
 */
export const readableMessage = (message: string): string => {
  const filled = message.replace(/\{\d+\}\s*/g, '').trim();
  if (/request param userId cannot be empty/i.test(filled)) return `${filled}; set user-id, which is sent as X-DEVOPS-UID`;
  const words = IN_WORDS.find(([said]) => said.test(filled))?.[1];
  return words === undefined ? filled : `${filled} (${words})`;
};

/**
 * bk-ci's untranslated parameter checks (ApiAspect's ParamBlankException), told in words next to
 * its own text: the first that matches.
 */
const IN_WORDS: readonly [RegExp, string][] = [
  [
    /^参数校验失败[:：]\s*PipelineId is invalid/i,
    "bk-ci's parameter check failed: the build is not one of pipeline-id's builds; check pipeline-id, or leave it out",
  ],
  [/^参数校验失败[:：]\s*request param (\w+) cannot be empty/i, "bk-ci's parameter check failed: a parameter it needs is empty"],
  [/^参数校验失败/, "bk-ci's parameter check failed"],
];
