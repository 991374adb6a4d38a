import { createServer, type Server, type Socket } from 'node:net';

export interface RawRequest {
  method: string;
  /** The request target as sent, query included. */
  target: string;
  head: string;
}

/**
 * A loopback server that answers each request with bytes written by hand: interim 1xx answers,
 * compressed bodies, a byte order mark, odd status lines. One request per connection.
 */
export async function rawServer(
  answer: (req: RawRequest) => Buffer | string,
): Promise<{ url: string; requests: RawRequest[]; close(): Promise<void> }> {
  const requests: RawRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = buffered.slice(0, end);
      const [method = '', target = ''] = head.split(' ');
      const req = { method, target, head };
      requests.push(req);
      socket.end(answer(req));
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An HTTP/1.1 answer with Content-Length (of the bytes given) and `connection: close`. */
export function httpAnswer(status: string, headers: Record<string, string>, body: Buffer | string): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const lines = [
    `HTTP/1.1 ${status}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    `content-length: ${bytes.length}`,
    'connection: close',
  ];
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), bytes]);
}
