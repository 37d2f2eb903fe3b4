// The events the timeline benchmark reads: what a busy web app's namespaces look like after an
// hour, written to a real API server (in parallel, bounded), or to a record file as the record
// verb would have written it.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { RECORD_KIND } from '../src/core/record.ts';
import { eachLimited } from '../src/core/bounded.ts';

/** POSTs in flight while writing: enough to keep a 2-core API server busy, never throttled. */
export const WRITE_CONCURRENCY = 32;

export interface Subject {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
  uid: string;
  component: string;
}

/** Whatever sends a request: the benchmark's HTTPS client. */
export type Call = (method: string, path: string, body?: unknown) => Promise<any>;

const NORMAL_REASONS: [string, string][] = [
  ['Scheduled', 'Successfully assigned {ns}/{obj} to node-1'],
  ['Pulling', 'Pulling image "registry.example/web:1.4.{i}"'],
  ['Pulled', 'Successfully pulled image "registry.example/web:1.4.{i}" in 812ms (812ms including waiting)'],
  ['Created', 'Created container web'],
  ['Started', 'Started container web'],
  ['Killing', 'Stopping container web'],
];
const WARNING_REASONS: [string, string][] = [
  ['BackOff', 'Back-off restarting failed container web in pod {obj}'],
  ['Unhealthy', 'Readiness probe failed: Get "http://10.0.0.{i}:8080/healthz": dial tcp 10.0.0.{i}:8080: connect: connection refused'],
  ['FailedMount', 'MountVolume.SetUp failed for volume "config" : configmap "web-config-{i}" not found'],
];

// The same reasons with every message its own, as real messages are (pod names, numbers,
// durations): {i} is the event's index, never repeated, so no two messages share their text.
const DISTINCT_NORMAL: [string, string][] = [
  ['Scheduled', 'Successfully assigned {ns}/{obj}-{i} to node-{i}'],
  ['Pulling', 'Pulling image "registry.example/web:1.{i}"'],
  ['Pulled', 'Successfully pulled image "registry.example/web:1.{i}" in {i}ms ({i}ms including waiting). Image size: {i}42 bytes.'],
  ['Created', 'Created container web-{i}'],
  ['Started', 'Started container web-{i}'],
  ['Killing', 'Stopping container web-{i} after {i}s'],
];
const DISTINCT_WARNING: [string, string][] = [
  ['BackOff', 'Back-off {i}s restarting failed container web in pod {obj}-{i}'],
  ['Unhealthy', 'Readiness probe failed: Get "http://10.{i}:8080/healthz": dial tcp 10.{i}:8080: connect: connection refused'],
  ['FailedMount', 'MountVolume.SetUp failed for volume "config-{i}" : configmap "web-config-{i}" not found'],
];

/** What the messages look like: a few hundred texts repeated (the default), or every one different. */
export type Messages = 'repeated' | 'distinct';

function fill(template: string, ns: string, obj: string, i: number, messages: Messages): string {
  return template.replaceAll('{ns}', ns).replaceAll('{obj}', obj).replaceAll('{i}', String(messages === 'distinct' ? i : i % 250));
}

const rfc3339 = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const micro = (ms: number, i: number): string => new Date(Math.floor(ms)).toISOString().replace(/\.(\d{3})Z$/, `.$1${String(i % 1000).padStart(3, '0')}Z`);
const fakeUid = (k: number): string => `0b5e7a11-0000-4000-8000-${k.toString(16).padStart(12, '0')}`;

export interface Planned {
  /** the collection to POST to */
  path: string;
  body: Record<string, any>;
}

/**
 * N event bodies about the subjects, round robin: every tenth through events.k8s.io/v1 (a third of
 * those with a series), the rest core/v1; a quarter Warning, exactly one Critical (core/v1:
 * events.k8s.io/v1 checks type), every seventh core event with count > 1. Times spread over the
 * last 50 minutes (inside the 1 h TTL). `messages: 'distinct'` makes every message its own.
 */
export function planEvents(n: number, subjects: Subject[], now: number, messages: Messages = 'repeated'): Planned[] {
  const [normal, warnings] = messages === 'distinct' ? [DISTINCT_NORMAL, DISTINCT_WARNING] : [NORMAL_REASONS, WARNING_REASONS];
  const planned: Planned[] = [];
  const span = 50 * 60 * 1000;
  const critical = Math.floor(n / 2) | 1; // odd, so a core/v1 event
  for (let i = 0; i < n; i += 1) {
    const subject = subjects[i % subjects.length] as Subject;
    const ns = subject.namespace;
    const at = now - span + Math.floor((span * i) / n);
    const warning = i % 4 === 3;
    const [reason, template] = warning
      ? (warnings[i % warnings.length] as [string, string])
      : (normal[i % normal.length] as [string, string]);
    const message = fill(template, ns, subject.name, i, messages);
    const name = `${subject.name}.${(0x17f0000000 + i).toString(16)}`;
    const regarding = { apiVersion: subject.apiVersion, kind: subject.kind, name: subject.name, namespace: ns, uid: subject.uid };
    if (i % 10 === 0 && i !== critical) {
      const series = i % 30 === 0 ? { series: { count: 2 + (i % 9), lastObservedTime: micro(at, i) } } : {};
      planned.push({
        path: `/apis/events.k8s.io/v1/namespaces/${ns}/events`,
        body: {
          apiVersion: 'events.k8s.io/v1',
          kind: 'Event',
          metadata: { name, namespace: ns },
          regarding,
          reason,
          note: message,
          type: warning ? 'Warning' : 'Normal',
          eventTime: micro(at - (i % 30 === 0 ? 120_000 : 0), i),
          reportingController: subject.component,
          reportingInstance: `${subject.component}-node-1`,
          action: warning ? 'Failing' : 'Reconciling',
          ...series,
        },
      });
      continue;
    }
    const repeated = i % 7 === 0 ? 2 + (i % 13) : 1;
    planned.push({
      path: `/api/v1/namespaces/${ns}/events`,
      body: {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace: ns },
        involvedObject: { ...regarding, ...(subject.kind === 'Pod' ? { fieldPath: 'spec.containers{web}' } : {}) },
        reason: i === critical ? 'StageUnknown' : reason,
        message: i === critical ? `Pipeline build-${i} names a stage the operator does not know.` : message,
        type: i === critical ? 'Critical' : warning ? 'Warning' : 'Normal',
        firstTimestamp: rfc3339(at - (repeated - 1) * 30_000),
        lastTimestamp: rfc3339(at),
        count: repeated,
        source: { component: subject.component, ...(subject.kind === 'Pod' ? { host: 'node-1' } : {}) },
        reportingComponent: subject.component,
        reportingInstance: subject.kind === 'Pod' ? 'node-1' : '',
      },
    });
  }
  return planned;
}

/**
 * `perNamespace` objects in each namespace: one Deployment (real, `deploymentUid`; the others are
 * not on the server, so the lookups find some objects and miss others), a few ReplicaSets, and Pods.
 */
export function subjectsIn(ns: string, perNamespace: number, deploymentUid: string, offset: number): Subject[] {
  const hashes = ['5d9f7c8b4', '6c4b9d7f8', '7f8d6b5c9'];
  const replicaSets = perNamespace >= 40 ? 3 : 1;
  const subjects: Subject[] = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: ns, uid: deploymentUid, component: 'deployment-controller' }];
  for (let k = 0; k < replicaSets; k += 1) {
    subjects.push({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `web-${hashes[k]}`, namespace: ns, uid: fakeUid(offset + k), component: 'replicaset-controller' });
  }
  for (let k = 0; subjects.length < perNamespace; k += 1) {
    const suffix = createHash('sha1').update(String(k)).digest('hex').slice(0, 5);
    subjects.push({ apiVersion: 'v1', kind: 'Pod', name: `web-${hashes[k % replicaSets]}-${suffix}`, namespace: ns, uid: fakeUid(offset + 100 + k), component: 'kubelet' });
  }
  return subjects;
}

/** Writes planned events: by default one POST each, WRITE_CONCURRENCY at a time (scripts/bench-etcd.ts is faster). */
export type WriteEvents = (planned: Planned[]) => Promise<unknown>;

/**
 * Creates the namespaces, a Deployment in each, and N events about `objects` objects spread over
 * them, written by `write` (POSTs unless given).
 */
export async function populate(call: Call, namespaces: string[], n: number, objects: number, messages: Messages = 'repeated', write?: WriteEvents): Promise<{ subjects: number }> {
  const perNamespace = Math.max(1, Math.round(objects / namespaces.length));
  const subjects: Subject[] = [];
  const labels = { app: 'web' };
  await eachLimited(namespaces, WRITE_CONCURRENCY, async (ns) => {
    await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    // No replicas: the control plane runs kube-controller-manager, whose ScalingReplicaSet,
    // SuccessfulCreate and Scheduled events would join the N written here (the bench checks that
    // every output returns exactly N). The Deployment is there for its uid and the lookups.
    const deployment = await call('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: ns },
      spec: { replicas: 0, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'web', image: 'registry.example/web:1.4' }] } } },
    });
    subjects.push(...subjectsIn(ns, perNamespace, deployment.metadata.uid, namespaces.indexOf(ns) * 10_000));
  });
  subjects.sort((a, b) => (a.namespace + a.name < b.namespace + b.name ? -1 : 1));
  const planned = planEvents(n, subjects, Date.now(), messages);
  if (write) await write(planned);
  else await eachLimited(planned, WRITE_CONCURRENCY, async (p) => {
    await call('POST', p.path, p.body);
  });
  return { subjects: subjects.length };
}

/** What the API server adds to a stored event: identity, version and managedFields (most of the bytes). */
function asStored(p: Planned, i: number, resourceVersion: number): Record<string, any> {
  const body = structuredClone(p.body);
  const time = body.eventTime ?? body.lastTimestamp;
  const fields = Object.fromEntries(Object.keys(body).filter((k) => !['apiVersion', 'kind', 'metadata'].includes(k)).map((k) => [`f:${k}`, {}]));
  body.metadata = {
    ...body.metadata,
    uid: fakeUid(0x100000000 + i),
    resourceVersion: String(resourceVersion),
    creationTimestamp: rfc3339(Date.parse(time)),
    managedFields: [{ manager: 'bench-timeline', operation: 'Update', apiVersion: body.apiVersion, time: rfc3339(Date.parse(time)), fieldsType: 'FieldsV1', fieldsV1: fields }],
  };
  return body;
}

/**
 * A record of N events (the record verb's JSON Lines: a header, then one observation per line),
 * every tenth event observed twice (a MODIFIED line with its count bumped and a higher
 * resourceVersion), about 400 objects in 50 namespaces.
 */
export async function writeRecord(path: string, n: number): Promise<{ lines: number }> {
  const namespaces = Array.from({ length: 50 }, (_, k) => `bench-record-${k}`);
  const subjects = namespaces.flatMap((ns, k) => subjectsIn(ns, 8, fakeUid(k), k * 10_000));
  const start = Date.now() - 50 * 60 * 1000;
  const out = createWriteStream(path);
  const write = async (line: string): Promise<void> => {
    if (!out.write(line)) await once(out, 'drain');
  };
  const header = { kind: RECORD_KIND, version: 1, context: 'bench', server: 'https://127.0.0.1:6443', namespace: null, filter: {}, startedAt: new Date(start).toISOString() };
  await write(`${JSON.stringify(header)}\n`);
  let lines = 1;
  let rv = 1000;
  const planned = planEvents(n, subjects, Date.now());
  for (const [i, p] of planned.entries()) {
    const observedAt = new Date(start + Math.floor((i * 50 * 60 * 1000) / n)).toISOString();
    const event = asStored(p, i, (rv += 1));
    await write(`${JSON.stringify({ observedAt, type: 'ADDED', event })}\n`);
    lines += 1;
    if (i % 10 === 5) {
      if (event.series) event.series.count += 1;
      else if (event.count) event.count += 1;
      event.metadata.resourceVersion = String((rv += 1));
      await write(`${JSON.stringify({ observedAt, type: 'MODIFIED', event })}\n`);
      lines += 1;
    }
  }
  out.end();
  await once(out, 'close');
  return { lines };
}
