// Helpers for integration tests: polling until something is true (test/harness/wait.ts: a hang
// guard, never a speed check), and a raw API call as the admin.
import https from 'node:https';
import type { ControlPlane } from '../harness/controlplane.ts';

type Json = Record<string, any>;

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export { waitFor } from '../harness/wait.ts';

// One keep-alive agent per server: a test or benchmark writing thousands of events pays for TLS once per connection.
const agents = new Map<string, https.Agent>();

function agentFor(cp: ControlPlane): https.Agent {
  let agent = agents.get(cp.server);
  if (agent === undefined) {
    agent = new https.Agent({ ca: cp.ca, keepAlive: true, maxSockets: 32 });
    agents.set(cp.server, agent);
  }
  return agent;
}

/** A raw API call as the admin (the harness gives the token and CA). */
export function api(cp: ControlPlane, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Json> {
  return new Promise((resolvePromise, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = https.request(
      new URL(path, cp.server),
      {
        method,
        agent: agentFor(cp),
        headers: { Authorization: `Bearer ${cp.token}`, Accept: 'application/json', ...(payload ? { 'Content-Type': contentType } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          if ((res.statusCode ?? 0) >= 300) reject(new Error(`${method} ${path}: ${res.statusCode} ${text}`));
          else resolvePromise(JSON.parse(text) as Json);
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
