// Status documents as the kubelet, scheduler and controllers write them (k8s.io/kubernetes v1.36.3;
// the shapes of shared/KUBELET.md §3, seen on the real node), and kubelet events with the fieldPath
// it sets (`spec.containers{app}`), built around the fixed clock of test/support/builders.ts.
import { normaliseEvent } from '../../src/core/event.ts';
import type { Event } from '../../src/core/event.ts';
import { ago } from './builders.ts';

type Json = Record<string, unknown>;

export interface ContainerOptions {
  name?: string;
  image?: string;
  requests?: Record<string, string>;
  limits?: Record<string, string>;
  state?: Json;
  lastState?: Json;
  restartCount?: number;
  ready?: boolean;
  livenessProbe?: Json;
  readinessProbe?: Json;
  startupProbe?: Json;
}

export interface PodOptions {
  name?: string;
  namespace?: string;
  uid?: string;
  nodeName?: string;
  phase?: string;
  owner?: { kind: string; name: string };
  containers?: ContainerOptions[];
  initContainers?: ContainerOptions[];
  tolerations?: Json[];
  volumes?: Json[];
  deleting?: boolean;
  conditions?: Json[];
}

function spec(c: ContainerOptions): Json {
  const out: Json = { name: c.name ?? 'app', image: c.image ?? 'docker.io/library/busybox:local1', resources: { ...(c.requests ? { requests: c.requests } : {}), ...(c.limits ? { limits: c.limits } : {}) } };
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) if (c[probe] !== undefined) out[probe] = c[probe];
  return out;
}

function status(c: ContainerOptions): Json {
  return {
    name: c.name ?? 'app',
    image: c.image ?? 'docker.io/library/busybox:local1',
    imageID: '',
    containerID: 'containerd://0123456789abcdef',
    started: false,
    ready: c.ready ?? false,
    restartCount: c.restartCount ?? 0,
    state: c.state ?? { running: { startedAt: ago(30) } },
    lastState: c.lastState ?? {},
  };
}

/** A Pod as the API server returns it, status written by the kubelet. */
export function pod(o: PodOptions = {}): Json {
  const containers = o.containers ?? [{}];
  const metadata: Json = { name: o.name ?? 'web-1', namespace: o.namespace ?? 'shop', uid: o.uid ?? `uid-${o.name ?? 'web-1'}`, creationTimestamp: ago(600) };
  if (o.owner) metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: o.owner.kind, name: o.owner.name, uid: `uid-${o.owner.name}`, controller: true, blockOwnerDeletion: true }];
  if (o.deleting) metadata.deletionTimestamp = ago(10);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata,
    spec: {
      containers: containers.map(spec),
      ...(o.initContainers ? { initContainers: o.initContainers.map(spec) } : {}),
      ...(o.nodeName === undefined ? {} : { nodeName: o.nodeName }),
      tolerations: o.tolerations ?? [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
      ...(o.volumes ? { volumes: o.volumes } : {}),
    },
    status: {
      phase: o.phase ?? 'Running',
      qosClass: 'Burstable',
      conditions: o.conditions ?? [],
      containerStatuses: containers.map(status),
      ...(o.initContainers ? { initContainerStatuses: o.initContainers.map(status) } : {}),
    },
  };
}

export function terminated(reason: string, exitCode: number, secondsAgo = 20, message?: string): Json {
  return { terminated: { exitCode, reason, startedAt: ago(secondsAgo + 2), finishedAt: ago(secondsAgo), containerID: 'containerd://0123', ...(message === undefined ? {} : { message }) } };
}

export function waiting(reason: string, message: string): Json {
  return { waiting: { reason, message } };
}

export interface NodeOptions {
  name?: string;
  ready?: 'True' | 'False' | 'Unknown';
  readyReason?: string;
  since?: number;
  taints?: Json[];
  allocatable?: Record<string, string>;
  unschedulable?: boolean;
}

/** A Node as the kubelet and the node lifecycle controller leave it. */
export function node(o: NodeOptions = {}): Json {
  const ready = o.ready ?? 'True';
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: o.name ?? 'node-1', uid: `uid-${o.name ?? 'node-1'}`, creationTimestamp: ago(3600) },
    spec: { ...(o.taints ? { taints: o.taints } : {}), ...(o.unschedulable ? { unschedulable: true } : {}) },
    status: {
      allocatable: o.allocatable ?? { cpu: '2', memory: '8Gi', pods: '110', 'ephemeral-storage': '100Gi' },
      conditions: [
        {
          type: 'Ready',
          status: ready,
          reason: o.readyReason ?? (ready === 'True' ? 'KubeletReady' : ready === 'Unknown' ? 'NodeStatusUnknown' : 'KubeletNotReady'),
          message: ready === 'Unknown' ? 'Kubelet stopped posting node status.' : 'kubelet is posting ready status',
          lastHeartbeatTime: ago(o.since ?? 900),
          lastTransitionTime: ago(o.since ?? 900),
        },
      ],
    },
  };
}

export interface KubeletEventOptions {
  reason: string;
  message: string;
  pod?: string;
  namespace?: string;
  container?: string;
  type?: string;
  count?: number;
  first?: number;
  last?: number;
  component?: string;
  kind?: string;
  name?: string;
}

let serial = 0;

/** An event about a Pod's container as the kubelet writes it (involvedObject.fieldPath `spec.containers{app}`). */
export function kubeletEvent(o: KubeletEventOptions): Event {
  serial += 1;
  const namespace = o.namespace ?? 'shop';
  const kind = o.kind ?? 'Pod';
  const name = o.name ?? o.pod ?? 'web-1';
  return normaliseEvent({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${name}.${String(serial).padStart(16, '0')}`, namespace, uid: `ev-${serial}`, resourceVersion: String(serial) },
    involvedObject: { apiVersion: kind === 'Pod' || kind === 'Node' ? 'v1' : kind === 'Job' ? 'batch/v1' : 'apps/v1', kind, name, namespace: kind === 'Node' ? '' : namespace, uid: kind === 'Pod' ? `uid-${name}` : '', ...(o.container ? { fieldPath: `spec.containers{${o.container}}` } : {}) },
    type: o.type ?? 'Warning',
    reason: o.reason,
    message: o.message,
    source: { component: o.component ?? 'kubelet', host: 'node-1' },
    firstTimestamp: ago(o.first ?? 60),
    lastTimestamp: ago(o.last ?? o.first ?? 60),
    count: o.count ?? 1,
  });
}
