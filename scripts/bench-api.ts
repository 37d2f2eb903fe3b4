// What the benchmarks that write to a control plane share: its API server straight over HTTPS with
// the admin token (parallel, bounded, never throttled, unlike kubectl), and running a command for
// its output.
import { execFile } from 'node:child_process';
import { Agent, request } from 'node:https';
import { WRITE_CONCURRENCY } from './bench-events.ts';
import type { ControlPlane } from '../test/harness/controlplane.ts';

/** The plugin's and kubectl's list page size (src/kube/events-api.ts PAGE_SIZE, kubectl --chunk-size). */
export const PAGE_SIZE = 500;

export class Api {
  private readonly agent: Agent;
  private readonly base: URL;

  constructor(private readonly cp: ControlPlane) {
    this.agent = new Agent({ ca: cp.ca, keepAlive: true, maxSockets: WRITE_CONCURRENCY });
    this.base = new URL(cp.server);
  }

  call(method: string, path: string, body?: unknown): Promise<any> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolvePromise, reject) => {
      const req = request(
        {
          agent: this.agent,
          hostname: this.base.hostname,
          port: this.base.port,
          method,
          path,
          headers: {
            authorization: `Bearer ${this.cp.token}`,
            accept: 'application/json',
            ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
          },
          timeout: 60_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if ((res.statusCode ?? 0) >= 300) reject(new Error(`${method} ${path}: HTTP ${res.statusCode}: ${text.slice(0, 500)}`));
            else resolvePromise(text === '' ? null : JSON.parse(text));
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timed out`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  /**
   * Every item of a list (or what `pick` keeps of each: 200,000 whole events would hold about a
   * GB here), in pages of PAGE_SIZE, and how many pages that took.
   */
  async listAll<T = any>(path: string, pick: (item: any) => T = (item) => item as T): Promise<{ items: T[]; pages: number }> {
    const items: T[] = [];
    let pages = 0;
    let next = '';
    do {
      const query = `limit=${PAGE_SIZE}${next ? `&continue=${encodeURIComponent(next)}` : ''}`;
      const page = await this.call('GET', `${path}?${query}`);
      pages += 1;
      for (const item of page.items ?? []) items.push(pick(item));
      next = page.metadata?.continue ?? '';
    } while (next);
    return { items, pages };
  }

  close(): void {
    this.agent.destroy();
  }
}

/** A command's stdout; rejects with its stderr when it fails. */
export function capture(command: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile(command[0] as string, command.slice(1), { env, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command.join(' ')} failed: ${stderr.trim() || error.message}`));
      else resolvePromise(stdout);
    });
  });
}
