// A TCP proxy between a client under test and the real kube-apiserver, for network failures on
// cue. It forwards bytes and nothing else (no HTTP, no TLS: the client's TLS session is with the
// apiserver itself, whose certificate names 127.0.0.1, so a kubeconfig pointing at
// https://127.0.0.1:<proxy port> with the cluster's CA verifies as before). The test can cut
// every live connection, cut them part-way through what the server sends next, or have new
// connections closed as soon as they are accepted.

import net from 'node:net';

export interface TcpProxy {
  /** https://127.0.0.1:PORT: the server to put in a kubeconfig */
  readonly url: string;
  /** connections accepted so far, refused ones included */
  readonly accepted: number;
  /** connections being forwarded now */
  readonly live: number;
  /** bytes the server has sent so far, over every connection (TLS records included) */
  readonly serverBytes: number;
  /** on: every new connection is closed as soon as it is accepted; live ones carry on */
  refuse(on: boolean): void;
  /** destroys every live connection (both sides) at once; returns how many there were */
  cutAll(): number;
  /**
   * Once the server has sent `bytes` more bytes (over any connection), forwards only up to that
   * byte and cuts every live connection: a connection that dies in the middle of a response.
   * Resolves with how many connections were cut.
   */
  cutAfterServerBytes(bytes: number): Promise<number>;
  /**
   * Once the server has sent `bytes` more bytes, forwards only up to that byte and holds the rest
   * (connections stay open, the client waits mid-response) until release(). Resolves when holding.
   */
  holdAfterServerBytes(bytes: number): Promise<void>;
  /** Forwards what was held, in order, and carries on as before. */
  release(): void;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
}

/** `to` forwards what `from` reads, pausing `from` while `to` is full. */
function forward(from: net.Socket, to: net.Socket, chunk: Buffer): void {
  if (!to.write(chunk)) {
    from.pause();
    to.once('drain', () => from.resume());
  }
}

/** Starts a proxy on a free loopback port to `server` (https://HOST:PORT). */
export async function startTcpProxy(server: string): Promise<TcpProxy> {
  const target = new URL(server);
  const targetPort = Number(target.port || 443);
  const pairs = new Set<Pair>();
  let accepted = 0;
  let serverBytes = 0;
  let refusing = false;
  let cut: { remaining: number; done(n: number): void } | undefined;
  /** set between the last forwarded byte of a cut and the cut itself: nothing more goes through */
  let cutting = false;
  let hold: { remaining: number; done(): void } | undefined;
  /** while holding: what the server sent since, per connection, in order */
  let held: Array<{ pair: Pair; chunk: Buffer }> | undefined;

  const cutAll = (): number => {
    const n = pairs.size;
    for (const { client, upstream } of pairs) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
    return n;
  };

  const onServerBytes = (pair: Pair, chunk: Buffer): void => {
    serverBytes += chunk.length;
    if (cutting) return;
    if (held !== undefined) {
      held.push({ pair, chunk });
      pair.upstream.pause();
      return;
    }
    if (hold !== undefined) {
      if (chunk.length < hold.remaining) {
        hold.remaining -= chunk.length;
      } else {
        const { remaining, done } = hold;
        hold = undefined;
        held = [{ pair, chunk: chunk.subarray(remaining) }];
        for (const p of pairs) p.upstream.pause();
        forward(pair.upstream, pair.client, chunk.subarray(0, remaining));
        done();
        return;
      }
    }
    if (cut === undefined || chunk.length < cut.remaining) {
      if (cut) cut.remaining -= chunk.length;
      forward(pair.upstream, pair.client, chunk);
      return;
    }
    const { remaining, done } = cut;
    cut = undefined;
    cutting = true;
    for (const p of pairs) p.upstream.pause();
    // Cut only once the last forwarded byte is with the kernel, so the client receives it.
    pair.client.write(chunk.subarray(0, remaining), () => {
      cutting = false;
      done(cutAll());
    });
  };

  const listener = net.createServer((client) => {
    accepted += 1;
    client.on('error', () => {});
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, target.hostname);
    upstream.on('error', () => {});
    const pair: Pair = { client, upstream };
    pairs.add(pair);
    client.on('data', (chunk: Buffer) => forward(client, upstream, chunk));
    upstream.on('data', (chunk: Buffer) => onServerBytes(pair, chunk));
    const end = (): void => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = listener.address() as net.AddressInfo;

  return {
    url: `https://127.0.0.1:${port}`,
    get accepted() {
      return accepted;
    },
    get live() {
      return pairs.size;
    },
    get serverBytes() {
      return serverBytes;
    },
    refuse(on: boolean) {
      refusing = on;
    },
    cutAll,
    cutAfterServerBytes(bytes: number) {
      return new Promise<number>((resolve) => {
        cut = { remaining: bytes, done: resolve };
      });
    },
    holdAfterServerBytes(bytes: number) {
      return new Promise<void>((resolve) => {
        hold = { remaining: bytes, done: resolve };
      });
    },
    release() {
      const queued = held ?? [];
      held = undefined;
      for (const { pair, chunk } of queued) if (!pair.client.destroyed) forward(pair.upstream, pair.client, chunk);
      for (const p of pairs) p.upstream.resume();
    },
    close() {
      refusing = true;
      cutAll();
      return new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
}
