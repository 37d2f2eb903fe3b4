// A Deployment's namespace at any size, for the story told owner first: the Deployment scales its
// ReplicaSets, each ReplicaSet creates its Pods, the Pods report as the scheduler and the kubelet do,
// the last Pod of every ReplicaSet is gone (known only by its owner's "Created pod" message). Raw
// events as the API server returns them (builders.ts) and the tree a --tree read would give (trees.ts).
import { ev } from './builders.ts';
import type { TreeSpec } from './trees.ts';

// apimachinery's rand alphabet (no vowels, no 0, 1, 3): names the templates recognise as generated.
const SAFE = 'bcdfghjklmnpqrstvwxz2456789';

/** `length` characters of the alphabet, spread by a multiplicative hash of n (deterministic). */
function generated(n: number, length: number): string {
  let out = '';
  let v = (n + 1) * 2654435761;
  for (let i = 0; i < length; i += 1) {
    out += SAFE[v % SAFE.length];
    v = Math.floor(v / SAFE.length) + (i + 1) * 40503;
  }
  return out;
}

/** A pod-template-hash: always holds a digit, as nameTemplate requires of a bare hash. */
const hashOf = (r: number): string => `${'2456789'[r % 7]}${generated(r + 7919, 8)}`;

const POD_REASONS: [type: string, reason: string, component: string, message: string][] = [
  ['Warning', 'FailedScheduling', 'default-scheduler', '0/{n} nodes are available: {n} Insufficient cpu.'],
  ['Normal', 'Scheduled', 'default-scheduler', 'Successfully assigned op-events/{pod} to node-{n}'],
  ['Normal', 'Pulled', 'kubelet', 'Container image "registry.example/web:1.{n}" already present on machine'],
  ['Warning', 'BackOff', 'kubelet', 'Back-off {n}m0s restarting failed container web in pod {pod}'],
  ['Warning', 'Unhealthy', 'kubelet', 'Readiness probe failed: Get "http://10.0.{n}.7:8080/healthz": connection refused'],
];

export interface OwnedNamespace {
  items: Record<string, unknown>[];
  tree: TreeSpec;
}

/**
 * `events` events about one Deployment `web`, `replicaSets` ReplicaSets and `pods` Pods each: the
 * Deployment's and ReplicaSets' own reports first, the rest spread over the Pods, five reasons, over the
 * last 50 minutes before NOW.
 */
export function ownedNamespace(o: { events: number; replicaSets: number; pods: number }): OwnedNamespace {
  const items: Record<string, unknown>[] = [];
  const sets: TreeSpec[] = [];
  const start = 3000;
  for (let r = 0; r < o.replicaSets; r += 1) {
    const rs = `web-${hashOf(r)}`;
    const pods: TreeSpec[] = [];
    items.push(ev({ kind: 'Deployment', apiVersion: 'apps/v1', objectName: 'web', objectUid: 'uid-web', component: 'deployment-controller', reason: 'ScalingReplicaSet', message: `Scaled up replica set ${rs} from 0 to ${o.pods}`, first: start - r }));
    for (let p = 0; p < o.pods; p += 1) {
      const pod = `${rs}-${generated(r * o.pods + p, 5)}`;
      const gone = p === o.pods - 1;
      pods.push({ kind: 'Pod', name: pod, ...(gone ? { uid: '', gone: true } : {}) });
      items.push(ev({ kind: 'ReplicaSet', apiVersion: 'apps/v1', objectName: rs, objectUid: `uid-${rs}`, component: 'replicaset-controller', reason: 'SuccessfulCreate', message: `Created pod: ${pod}`, first: start - r - 1 }));
    }
    sets.push({ kind: 'ReplicaSet', name: rs, children: pods });
  }
  const owners = items.length;
  const allPods = sets.flatMap((s) => s.children ?? []);
  for (let i = 0; i < o.events - owners; i += 1) {
    const pod = allPods[i % allPods.length] as TreeSpec;
    const [type, reason, component, message] = POD_REASONS[(i + Math.floor(i / allPods.length)) % POD_REASONS.length] as [string, string, string, string];
    const at = start - 10 - Math.floor((i * (start - 20)) / o.events);
    items.push(
      ev({
        name: `${pod.name}.${i.toString(16)}`,
        kind: 'Pod',
        apiVersion: 'v1',
        objectName: pod.name,
        // The gone Pod's events still name its uid; the tree knows it only by name.
        objectUid: `uid-${pod.name}`,
        type,
        reason,
        component,
        message: message.replaceAll('{pod}', pod.name).replaceAll('{n}', String(i % 97)),
        count: 1 + (i % 3),
        first: at,
        last: at,
      }),
    );
  }
  return { items, tree: { kind: 'Deployment', name: 'web', children: sets } };
}
