import { createServer, request } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

export interface ProxyLog {
  method: string;
  /** `host:port` for CONNECT, the absolute URL otherwise. */
  target: string;
}

/** A forward proxy on loopback: absolute-form requests for http, CONNECT tunnels for https. */
export async function startProxy(): Promise<{ url: string; log: ProxyLog[]; close: () => Promise<void> }> {
  const log: ProxyLog[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    log.push({ method: req.method ?? '', target: req.url ?? '' });
    const target = new URL(req.url ?? '');
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: `${target.pathname}${target.search}`, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    log.push({ method: 'CONNECT', target: req.url ?? '' });
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    sockets.add(upstream);
  });
  server.on('connection', (s) => sockets.add(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
