// A small HTTP CONNECT proxy on loopback, as corporate networks put in front of API servers: it
// answers CONNECT host:port by opening that TCP connection and relaying bytes (the TLS session is
// the client's with the API server). Like a real proxy it resolves names itself: `hosts` maps a
// name to the address it resolves to, so a server URL the client cannot resolve still works
// through the proxy (and fails without it).
import http from 'node:http';
import net from 'node:net';

export interface ConnectProxy {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  /** the CONNECT targets asked for so far, host:port */
  readonly connects: string[];
  close(): Promise<void>;
}

export async function startConnectProxy(hosts: Record<string, string> = {}): Promise<ConnectProxy> {
  const connects: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_req, res) => {
    res.writeHead(405).end('this proxy only tunnels (CONNECT)\n');
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const target = req.url ?? '';
    connects.push(target);
    const colon = target.lastIndexOf(':');
    const host = target.slice(0, colon).replace(/^\[|\]$/g, '');
    const upstream = net.connect(Number(target.slice(colon + 1)), hosts[host] ?? host);
    sockets.add(client).add(upstream);
    upstream.on('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    upstream.on('error', () => {
      if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      end();
    });
    client.on('error', end);
    client.on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connects,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
