// One real incident, written entirely by real controllers: a Deployment pinned to node-1 that
// asks for more CPU than node-1 has (one pod cannot be scheduled), then node-1's kubelet "dies"
// (its heartbeat stops): the node lifecycle controller marks node-1 Unknown, taints it and writes
// NodeNotReady about its pods, the taint eviction controller evicts them, the ReplicaSet
// controller replaces them and the scheduler cannot place the replacements. Used by the demo;
// reusable by tests. Needs a control plane with a second, healthy node (with one node a failure
// is a "full disruption" and nothing is evicted) and short node failure timings
// (FAST_NODE_FAILURE) unless the caller is prepared to wait five minutes.
import type { ControlPlane } from './controlplane.ts';
import { startHeartbeat, stopHeartbeat } from './nodes.ts';
import { waitFor } from './wait.ts';
import { createDeployment, listEvents, listObjects, waitForEvent, type CoreEvent } from './workloads.ts';

export interface StagedIncident {
  namespace: string;
  deployment: string;
  /** The failed node. */
  node: string;
  events: CoreEvent[];
}

export async function stageNodeFailure(
  cp: ControlPlane,
  namespace: string,
  log: (line: string) => void = () => {},
  deployment = 'checkout',
): Promise<StagedIncident> {
  log(`deployment ${deployment}: 3 replicas of 800m CPU pinned to node-1 (2 CPU): one cannot be scheduled`);
  await createDeployment(cp.kubeconfig, namespace, deployment, { replicas: 3, cpu: '800m', node: 'node-1' });
  await waitForEvent(cp.kubeconfig, namespace, 'FailedScheduling (Insufficient cpu)', (e) => e.reason === 'FailedScheduling' && /Insufficient cpu/.test(e.message));
  await waitFor('2 pods Running on node-1', async () => {
    const events = await listEvents(cp.kubeconfig, namespace);
    return events.filter((e) => e.reason === 'Scheduled').length >= 2;
  });
  log("node-1's heartbeat stops: its kubelet is gone");
  await stopHeartbeat(cp, 'node-1');
  const events = await waitFor('NodeNotReady, evictions and unschedulable replacements', async () => {
    const all = await listEvents(cp.kubeconfig, namespace);
    const evictions = all.filter((e) => e.reason === 'TaintManagerEviction').length;
    const tainted = all.some((e) => e.reason === 'FailedScheduling' && /untolerated taint/.test(e.message));
    return evictions >= 2 && tainted ? all : undefined;
  });
  log(`node-1 is Unknown and tainted; ${events.filter((e) => e.reason === 'TaintManagerEviction').length} pods evicted, replacements unschedulable`);
  return { namespace, deployment, node: 'node-1', events };
}

/**
 * The failed node's kubelet comes back: it posts Ready, the node lifecycle controller lifts its
 * taints, the evicted pods finish deleting (they are gone: only events name them now) and as many
 * replacements as fit are scheduled on it (two of the three: the third still does not fit).
 */
export async function healNodeFailure(cp: ControlPlane, incident: StagedIncident, log: (line: string) => void = () => {}): Promise<CoreEvent[]> {
  const evicted = new Set(incident.events.filter((e) => e.reason === 'TaintManagerEviction').map((e) => e.involvedObject.name));
  log(`${incident.node}'s heartbeat is back: its kubelet returns`);
  await startHeartbeat(cp, incident.node);
  const events = await waitFor('the evicted pods gone and their replacements scheduled', async () => {
    const pods = await listObjects(cp.kubeconfig, incident.namespace, 'pods', `app=${incident.deployment}`);
    if (pods.some((p) => evicted.has(p.metadata.name))) return undefined;
    const all = await listEvents(cp.kubeconfig, incident.namespace);
    const replaced = pods.filter((p) => all.some((e) => e.reason === 'Scheduled' && e.involvedObject.name === p.metadata.name && e.message.endsWith(`to ${incident.node}`)));
    return replaced.length >= evicted.size ? all : undefined;
  });
  log(`${evicted.size} evicted pods gone, ${evicted.size} replacements scheduled on ${incident.node}`);
  return events;
}
