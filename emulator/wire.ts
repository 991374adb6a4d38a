// How the emulated bk-ci puts an answer on the wire: a Reply (status, body, content type), the
// flavour's wrappers and error texts, and sending one.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

export type Flavour = 'spec' | 'bkci';

export interface Reply {
  status: number;
  body: string;
  contentType: string;
  headers?: Record<string, string>;
}

export const json = (status: number, value: unknown, headers?: Record<string, string>): Reply => ({
  status,
  body: JSON.stringify(value),
  contentType: 'application/json',
  ...(headers === undefined ? {} : { headers }),
});

const text = (status: number, body: string): Reply => ({ status, body, contentType: 'text/plain' });

export const html = (status: number, title: string): Reply => ({
  status,
  contentType: 'text/html',
  body: `<html>\r\n<head><title>${status} ${title}</title></head>\r\n<body>\r\n<center><h1>${status} ${title}</h1></center>\r\n<hr><center>openresty</center>\r\n</body>\r\n</html>\r\n`,
});

/** Sends the reply whole, its content type in UTF-8. */
export function sendReply(res: ServerResponse, reply: Reply): void {
  res.writeHead(reply.status, { 'content-type': `${reply.contentType};charset=utf-8`, ...reply.headers });
  res.end(reply.body);
}

/**
 * How one flavour puts things on the wire. `spec` is the API specification read literally; `bkci` is
 * what open-source bk-ci does (docs/bkci/wrappers-and-errors.md; docs/bkci/README.md#the-emulator).
 */
export class Wire {
  readonly flavour: Flavour;

  constructor(flavour: Flavour) {
    this.flavour = flavour;
  }

  /** The common `Result`: null fields are omitted, as bk-ci's NON_NULL mapper does. */
  ok(data: unknown, status = 200): Reply {
    return json(status, data === undefined ? { status: 0 } : { status: 0, data });
  }

  /** bk-ci's project endpoints use the project `Result` with `code`; the spec knows one wrapper. */
  projectOk(data: unknown, status = 200): Reply {
    if (this.flavour === 'spec') return this.ok(data, status);
    const body: Record<string, unknown> = { code: 0, request_id: randomUUID().replaceAll('-', ''), result: true };
    if (data !== undefined) body.data = data;
    return json(200, body);
  }

  /** Error bodies come from the exception mappers: the common wrapper with `status`. */
  error(httpStatus: number, status: number, message: string, data?: unknown): Reply {
    return json(httpStatus, data === undefined ? { status, message } : { status, message, data });
  }

  /** The gateway's own error page (error.json.handler.conf). bk-ci says `result: true`, really. */
  gatewayError(httpStatus: number, message: string): Reply {
    return json(httpStatus, { status: httpStatus, data: '', result: this.flavour === 'bkci', message });
  }

  tokenEmpty(): Reply {
    return this.flavour === 'spec' ? this.gatewayError(401, 'Request accessToken is empty.') : text(400, 'Request accessToken is empty.');
  }

  tokenIllegal(): Reply {
    return this.flavour === 'spec'
      ? this.gatewayError(401, 'token illegal parameter error: Access token illegal')
      : text(
          400,
          'Verification failed : com.tencent.devops.common.api.exception.RemoteServiceException: token参数非法错误: Access token illegal',
        );
  }

  tokenExpired(at: number): Reply {
    return this.flavour === 'spec'
      ? this.gatewayError(401, `Access token expired in: ${at}`)
      : text(
          400,
          `Verification failed : com.tencent.devops.common.api.exception.RemoteServiceException: tokentoken过期错误: Access token expired in: ${at}`,
        );
  }

  notFound(): Reply {
    return this.error(404, 404, '请求的资源不存在');
  }

  /** bk-ci reports a domain error code with HTTP 400; the spec has HTTP codes of its own. */
  domain(specHttp: number, bkciCode: number, message: string): Reply {
    return this.flavour === 'spec' ? this.error(specHttp, specHttp, message) : this.error(400, bkciCode, message);
  }
}
