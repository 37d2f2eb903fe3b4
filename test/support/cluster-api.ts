// Helpers for integration tests: polling until something is true (test/harness/wait.ts: a hang
// guard, never a speed check), and a raw API call as the admin.
import https from 'node:https';
import { apiRequest } from '../harness/api-direct.ts';
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
export async function api(cp: ControlPlane, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Json> {
  const { status, text } = await apiRequest({ server: cp.server, agent: agentFor(cp), token: cp.token }, method, path, body, contentType);
  if (status >= 300) throw new Error(`${method} ${path}: ${status} ${text}`);
  return JSON.parse(text) as Json;
}
