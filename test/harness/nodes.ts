// Nodes of the test control plane and their heartbeats, through the supervisor's control socket
// (test/controlplane/control.go; the same as `controlplane node --dir DIR stop node-1`). A node
// whose heartbeat stops is a node whose kubelet died: the node lifecycle controller marks it
// Unknown after --node-monitor-grace-period and taints it, the taint eviction controller evicts
// its pods after their toleration seconds (see nodeagent.go for what the heartbeat covers).
import { request } from 'node:http';
import type { ControlPlane } from './controlplane.ts';

export interface NodeState {
  name: string;
  heartbeat: boolean;
  podStatus: boolean;
}

function control<T>(cp: ControlPlane, method: 'GET' | 'POST', path: string): Promise<T> {
  if (!cp.controlSocket) {
    return Promise.reject(
      new Error('this control plane has no control socket (set EVTIMELINE_TEST_CONTROL_SOCKET to the one `npm run cluster` prints)'),
    );
  }
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: cp.controlSocket, method, path, timeout: 60_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${method} ${path}: ${res.statusCode} ${body.trim()}`));
        else resolve(JSON.parse(body) as T);
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer from ${cp.controlSocket}`)));
    req.on('error', reject);
    req.end();
  });
}

export const listNodes = (cp: ControlPlane): Promise<NodeState[]> => control(cp, 'GET', '/nodes');

/** Registers another node (Node object, Lease, heartbeat) while the cluster runs. */
export const addNode = (cp: ControlPlane, name: string): Promise<NodeState> => control(cp, 'POST', `/nodes/${encodeURIComponent(name)}`);

/** The node's kubelet "dies": no more Lease renewals, Ready posts or pod status. */
export const stopHeartbeat = (cp: ControlPlane, node = 'node-1'): Promise<NodeState> =>
  control(cp, 'POST', `/nodes/${encodeURIComponent(node)}/heartbeat/stop`);

/** The node's kubelet is back: it posts Ready at once and renews its Lease again. */
export const startHeartbeat = (cp: ControlPlane, node = 'node-1'): Promise<NodeState> =>
  control(cp, 'POST', `/nodes/${encodeURIComponent(node)}/heartbeat/start`);
