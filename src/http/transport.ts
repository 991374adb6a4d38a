import { type Dispatcher, request } from 'undici';

export interface WireRequest {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  maxBodyBytes: number;
}

export interface WireResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  contentType: string;
  body: string;
}

export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
}

/** One HTTP exchange through the injected dispatcher, the whole body read under the same signal. */
export async function exchange(dispatcher: Dispatcher, req: WireRequest): Promise<WireResponse> {
  const res = await request(req.url, {
    method: req.method,
    headers: req.headers,
    body: req.body ?? null,
    dispatcher,
    signal: req.signal,
  });
  const declared = Number(res.headers['content-length']);
  if (declared > req.maxBodyBytes) {
    res.body.destroy();
    throw new BodyTooLargeError(`the response body of ${declared} bytes exceeds the limit of ${req.maxBodyBytes} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > req.maxBodyBytes) {
      res.body.destroy();
      throw new BodyTooLargeError(`the response body exceeds the limit of ${req.maxBodyBytes} bytes`);
    }
    chunks.push(buf);
  }
  const ct = res.headers['content-type'];
  return {
    status: res.statusCode,
    headers: res.headers,
    contentType: (Array.isArray(ct) ? ct[0] : ct) ?? '',
    body: Buffer.concat(chunks).toString('utf8'),
  };
}
