// A unit test's own HTTP server on loopback, and a kubeconfig whose current context points at it
// (namespace shop, no credentials): for the kube layer's handling of answers a test scripts.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';

/** Starts `server` on a free loopback port and writes the kubeconfig for it to `path`. */
export async function listenWithKubeconfig(server: Server, path: string): Promise<void> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  writeFileSync(
    path,
    `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: http://127.0.0.1:${port}\nusers:\n- name: u\n  user: {}\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: u\n    namespace: shop\ncurrent-context: x\n`,
  );
}
