import { describe, expect, it } from 'vitest';
import { readError } from '../../src/bkci/error-body.ts';
import type { Gateway } from '../../src/bkci/routes.ts';

const gatewayBody = (code: number, codeName: string) =>
  JSON.stringify({ code, code_name: codeName, message: 'm', result: false, data: null });
const nginxPage = JSON.stringify({ status: 404, data: '', result: true, message: '请求资源不存在。' });
const jersey404 = JSON.stringify({ status: 404, message: '请求的资源不存在' });

describe('which front door answered, as readError tells it', () => {
  it.each<[string, Gateway, number, string, Record<string, string>, RegExp, boolean]>([
    [
      'the gateway, to a bk-ci step',
      'bk-ci',
      404,
      gatewayBody(1640401, 'API_NOT_FOUND'),
      {},
      /^base-url answers as the BlueKing API Gateway \(API_NOT_FOUND \(1640401\), "m"\), but gateway is bk-ci .*set gateway: bk-apigateway/,
      true,
    ],
    [
      'the gateway refusing the user, to a bk-ci step',
      'bk-ci',
      401,
      gatewayBody(1640102, 'USER_VERIFY_FAILED'),
      {},
      /^base-url answers as the BlueKing API Gateway \(USER_VERIFY_FAILED/,
      true,
    ],
    [
      'the gateway by its header alone, to a bk-ci step',
      'bk-ci',
      404,
      '<html>not found</html>',
      { 'x-bkapi-error-code': '1640401' },
      /set gateway: bk-apigateway/,
      true,
    ],
    [
      'the gateway, to a gateway step',
      'bk-apigateway',
      404,
      gatewayBody(1640401, 'API_NOT_FOUND'),
      {},
      /^the BlueKing API Gateway refused the call: API_NOT_FOUND \(1640401\), "m"; the gateway publishes no such resource/,
      true,
    ],
    [
      "the gateway's rate limit, to a gateway step (an ordinary answer, retried)",
      'bk-apigateway',
      429,
      gatewayBody(1642901, 'RATE_LIMIT_RESTRICTION'),
      {},
      /^the BlueKing API Gateway refused the call: RATE_LIMIT_RESTRICTION \(1642901\)/,
      false,
    ],
    [
      "bk-ci's nginx, to a gateway step",
      'bk-apigateway',
      404,
      nginxPage,
      {},
      /^base-url answers as bk-ci's own gateway \("请求资源不存在。"\).*leave gateway out/,
      true,
    ],
    [
      "bk-ci's nginx, to a bk-ci step (a path it does not route)",
      'bk-ci',
      404,
      nginxPage,
      {},
      /^bk-ci's gateway has no such path \("请求资源不存在。"\), so base-url is not bk-ci's address: give the address the console is served from/,
      true,
    ],
    [
      'a resource bk-ci does not have, behind the gateway (an answer about it)',
      'bk-apigateway',
      404,
      jersey404,
      {},
      /^请求的资源不存在$/,
      false,
    ],
  ])('%s', (_, gateway, status, body, headers, message, misdirected) => {
    const said = readError({ status, headers, body }, (t) => t, gateway);
    expect(said.message).toMatch(message);
    expect(said.misdirected ?? false).toBe(misdirected);
  });
});
