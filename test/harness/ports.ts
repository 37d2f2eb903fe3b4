// A free loopback port for a child process the test starts (a collector, a second apiserver).
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A free loopback port, closed again: the caller binds it (a race the callers retry or accept). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
