// A Pod list in Protobuf (src/kube/pod-proto.ts) gives the facts and the lookups the same Pods as
// the JSON of the same list: Pods written here as the API server writes them in both encodings
// (field numbers from k8s.io/api core/v1/generated.proto and k8s.io/apimachinery
// pkg/apis/meta/v1/generated.proto, the runtime.Unknown envelope after "k8s\0"), with what the
// reader never reads (managedFields, env, annotations, fields of later versions of every wire
// type) around what it does, hostile text in every string, and zeros where JSON omits them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { podListFromProtobuf, statusTextFromProtobuf } from '../../../src/kube/pod-proto.ts';
import { podFacts } from '../../../src/core/facts.ts';
import { objectMetaOf } from '../../../src/core/object-meta.ts';

// -- A Protobuf writer: what the API server's generated Marshal writes -----------------------------

function varint(value: number | bigint): number[] {
  // Negative int32/int64 are ten bytes of two's complement (protobuf's encoding of int32 -1).
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v === 0n ? b : b | 0x80);
  } while (v !== 0n);
  return out;
}
const key = (field: number, wire: number) => varint(field * 8 + wire);
const bytes = (field: number, body: Buffer | number[]) => [...key(field, 2), ...varint(body.length), ...body];
const str = (field: number, s: string | undefined) => (s === undefined ? [] : bytes(field, Buffer.from(s, 'utf8')));
const num = (field: number, n: number | undefined) => (n === undefined ? [] : [...key(field, 0), ...varint(n)]);
const bool = (field: number, b: boolean | undefined) => (b === undefined ? [] : [...key(field, 0), b ? 1 : 0]);
const msg = (field: number, parts: number[] | undefined) => (parts === undefined ? [] : bytes(field, parts));
/** metav1.Time: seconds and nanos; the zero time an empty message (apimachinery time_proto.go). */
const time = (field: number, iso: string | null | undefined) => (iso === undefined ? [] : msg(field, iso === null ? [] : [...num(1, Date.parse(iso) / 1000), ...num(2, 123)]));
const map = (field: number, m: Record<string, string> | undefined, quantity: boolean) =>
  Object.entries(m ?? {}).flatMap(([k, v]) => msg(field, [...str(1, k), ...(quantity ? msg(2, str(1, v)) : str(2, v))]));
/** Fields of other versions, of every wire type: a reader of this version steps over them. */
const unknown = [...num(900, 7), ...key(901, 1), 1, 2, 3, 4, 5, 6, 7, 8, ...key(902, 5), 1, 2, 3, 4, ...bytes(903, [0x0a, 0x02, 0x68, 0x69])];
/** A managedFields entry, in its own bytes: a field set that the reader never opens. */
const managed = msg(17, [...str(1, 'kubectl'), ...str(2, 'Update'), ...msg(7, str(1, '{"f:metadata":{"f:labels":{}}}'))]);

type J = Record<string, any>;

function objectMeta(m: J): number[] {
  return [
    ...str(1, m.name),
    ...str(2, 'gen-'),
    ...str(3, m.namespace),
    ...str(5, m.uid),
    ...str(6, '42'),
    ...num(7, 1),
    ...time(8, m.creationTimestamp ?? null),
    ...time(9, m.deletionTimestamp),
    ...map(11, m.labels, false),
    ...map(12, { note: 'not read' }, false),
    ...(m.ownerReferences ?? []).flatMap((o: J) => msg(13, [...str(1, o.kind), ...str(3, o.name), ...str(4, o.uid), ...str(5, o.apiVersion), ...bool(6, o.controller), ...bool(7, true)])),
    ...str(14, 'a-finalizer'),
    ...managed,
    ...unknown,
  ];
}
const probeProto = (p: J | undefined) => (p === undefined ? undefined : [...msg(1, msg(1, str(1, '/healthz'))), ...num(2, p.initialDelaySeconds ?? 0), ...num(3, 1), ...num(4, p.periodSeconds ?? 0), ...num(5, 1), ...num(6, p.failureThreshold ?? 0)]);
const container = (c: J) => [
  ...str(1, c.name),
  ...str(2, c.image),
  ...str(3, 'sh'),
  ...msg(7, [...str(1, 'ENV'), ...str(2, '"},{"metadata":')]),
  ...msg(8, [...map(1, c.resources?.limits, true), ...map(2, c.resources?.requests, true)]),
  ...msg(10, probeProto(c.livenessProbe)),
  ...msg(11, probeProto(c.readinessProbe)),
  ...msg(22, probeProto(c.startupProbe)),
  ...str(13, '/dev/termination-log'),
  ...unknown,
];
const state = (s: J | undefined): number[] => {
  if (s === undefined) return [];
  if (s.waiting) return msg(1, [...str(1, s.waiting.reason), ...str(2, s.waiting.message)]);
  if (s.running) return msg(2, time(1, s.running.startedAt ?? null));
  if (s.terminated) {
    const t = s.terminated;
    return msg(3, [...num(1, t.exitCode), ...num(2, t.signal ?? 0), ...str(3, t.reason), ...str(4, t.message), ...time(5, t.startedAt ?? null), ...time(6, t.finishedAt ?? null), ...str(7, 'containerd://x')]);
  }
  return [];
};
const containerStatus = (s: J) => [...str(1, s.name), ...msg(2, state(s.state)), ...msg(3, state(s.lastState)), ...bool(4, s.ready), ...num(5, s.restartCount), ...str(6, 'img'), ...bool(9, true), ...unknown];

function podProto(p: J): number[] {
  const spec = p.spec;
  const status = p.status;
  return [
    ...msg(1, objectMeta(p.metadata)),
    ...msg(2, [
      ...(spec.volumes ?? []).flatMap((v: J) => msg(1, [...str(1, v.name), ...msg(2, v.persistentVolumeClaim ? msg(10, [...str(1, v.persistentVolumeClaim.claimName), ...bool(2, false)]) : msg(2, []))])),
      ...(spec.containers ?? []).flatMap((c: J) => msg(2, container(c))),
      ...str(3, 'Always'),
      ...str(10, spec.nodeName ?? ''),
      ...(spec.initContainers ?? []).flatMap((c: J) => msg(20, container(c))),
      ...(spec.tolerations ?? []).flatMap((t: J) => msg(22, [...str(1, t.key), ...str(2, t.operator), ...str(3, t.value), ...str(4, t.effect), ...num(5, 300)])),
      ...(spec.ephemeralContainers ?? []).flatMap((c: J) => msg(34, [...msg(1, container(c)), ...str(2, 'target')])),
      ...unknown,
    ]),
    ...msg(3, [
      ...str(1, status.phase ?? ''),
      ...(status.conditions ?? []).flatMap((c: J) => msg(2, [...str(1, c.type), ...str(2, c.status), ...time(3, null), ...time(4, c.lastTransitionTime ?? null), ...str(5, c.reason), ...str(6, c.message)])),
      ...str(3, status.message ?? ''),
      ...str(4, status.reason ?? ''),
      ...str(5, '10.0.0.1'),
      ...(status.containerStatuses ?? []).flatMap((s: J) => msg(8, containerStatus(s))),
      ...str(9, status.qosClass ?? ''),
      ...(status.initContainerStatuses ?? []).flatMap((s: J) => msg(10, containerStatus(s))),
      ...(status.ephemeralContainerStatuses ?? []).flatMap((s: J) => msg(13, containerStatus(s))),
      ...unknown,
    ]),
  ];
}

/** The whole answer: magic, runtime.Unknown { typeMeta, raw: PodList }. */
function podListAnswer(pods: J[], meta: { resourceVersion: string; continue: string }, kind = 'PodList'): Buffer {
  const list = [...msg(1, [...str(1, ''), ...str(2, meta.resourceVersion), ...str(3, meta.continue), ...num(4, 3)]), ...pods.flatMap((p) => msg(2, podProto(p)))];
  return Buffer.from([0x6b, 0x38, 0x73, 0x00, ...msg(1, [...str(1, 'v1'), ...str(2, kind)]), ...bytes(2, list), ...str(3, ''), ...str(4, '')]);
}

// -- Pods as JSON, as the API server writes them ---------------------------------------------------

const tricky = fc.constantFrom('"', '\\', '\u001b[31m', '\r\n', '},{"metadata":', 'é', '日本', '😀', '\u2028', '', ' ', '\u0000');
const text = fc.oneof(fc.string({ maxLength: 6 }), tricky, fc.array(tricky, { maxLength: 4 }).map((p) => p.join('')));
const when = fc.integer({ min: 1, max: 4_102_444_800 }).map((s) => new Date(s * 1000).toISOString().replace('.000Z', 'Z'));
const quantity = fc.constantFrom('100m', '1', '64Mi', '1Gi', '0', '1500m', '2k', '1e3');
const resources = fc.record({ requests: fc.dictionary(fc.constantFrom('cpu', 'memory', 'nvidia.com/gpu', 'ephemeral-storage'), quantity), limits: fc.dictionary(fc.constantFrom('cpu', 'memory'), quantity) }, { requiredKeys: [] });
const probe = fc.record({ initialDelaySeconds: fc.integer({ min: 1, max: 600 }), periodSeconds: fc.integer({ min: 1, max: 600 }), failureThreshold: fc.integer({ min: 1, max: 30 }) }, { requiredKeys: [] });
const containerJson = fc.record({ name: text, image: text, resources, livenessProbe: probe, readinessProbe: probe, startupProbe: probe }, { requiredKeys: ['name', 'image', 'resources'] });
const stateJson = fc.oneof(
  fc.constant({}),
  fc.record({ waiting: fc.record({ reason: text, message: text }, { requiredKeys: [] }) }),
  fc.record({ running: fc.record({ startedAt: when }, { requiredKeys: [] }) }),
  fc.record({
    terminated: fc.record(
      { exitCode: fc.oneof(fc.integer({ min: -2_147_483_648, max: 2_147_483_647 }), fc.constantFrom(0, 1, 137, 143, -1)), signal: fc.integer({ min: 1, max: 64 }), reason: text, message: text, startedAt: when, finishedAt: when },
      { requiredKeys: ['exitCode'] },
    ),
  }),
);
const statusJson = fc.record({ name: text, state: stateJson, lastState: stateJson, ready: fc.boolean(), restartCount: fc.oneof(fc.nat(5), fc.nat(2_147_483_647)) });
const podJson = fc.record({
  metadata: fc.record(
    {
      name: text,
      namespace: text,
      uid: fc.oneof(fc.uuid(), text),
      creationTimestamp: when,
      deletionTimestamp: when,
      labels: fc.dictionary(text, text, { maxKeys: 3 }),
      ownerReferences: fc.array(fc.record({ apiVersion: fc.constantFrom('apps/v1', 'batch/v1', 'x.io/v1'), kind: text, name: text, uid: text, controller: fc.boolean() }, { requiredKeys: ['apiVersion', 'kind', 'name', 'uid'] }), { maxLength: 2 }),
    },
    { requiredKeys: ['name', 'namespace', 'uid', 'creationTimestamp'] },
  ),
  spec: fc.record(
    {
      nodeName: text,
      containers: fc.array(containerJson, { minLength: 1, maxLength: 3 }),
      initContainers: fc.array(containerJson, { maxLength: 2 }),
      ephemeralContainers: fc.array(containerJson, { maxLength: 1 }),
      tolerations: fc.array(fc.record({ key: text, operator: fc.constantFrom('Exists', 'Equal'), value: text, effect: fc.constantFrom('NoSchedule', 'NoExecute', '') }, { requiredKeys: [] }), { maxLength: 3 }),
      volumes: fc.array(fc.oneof(fc.record({ name: text, persistentVolumeClaim: fc.record({ claimName: text }) }), fc.record({ name: text, emptyDir: fc.constant({}) })), { maxLength: 3 }),
    },
    { requiredKeys: ['containers'] },
  ),
  status: fc.record(
    {
      phase: fc.constantFrom('Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'),
      reason: text,
      message: text,
      qosClass: fc.constantFrom('Guaranteed', 'Burstable', 'BestEffort'),
      conditions: fc.array(fc.record({ type: text, status: fc.constantFrom('True', 'False', 'Unknown'), reason: text, message: text, lastTransitionTime: when }, { requiredKeys: ['type', 'status'] }), { maxLength: 4 }),
      containerStatuses: fc.array(statusJson, { maxLength: 3 }),
      initContainerStatuses: fc.array(statusJson, { maxLength: 2 }),
      ephemeralContainerStatuses: fc.array(statusJson, { maxLength: 1 }),
    },
    { requiredKeys: [] },
  ),
});

/** Container statuses name the Pod's containers (the kubelet writes one per container). */
const named = podJson.map((p) => {
  const names = (list: J[] | undefined, statuses: J[] | undefined) => (statuses ?? []).map((s, i) => ({ ...s, name: list?.[i]?.name ?? s.name }));
  return {
    ...p,
    status: {
      ...p.status,
      containerStatuses: names(p.spec.containers, p.status.containerStatuses),
      initContainerStatuses: names(p.spec.initContainers, p.status.initContainerStatuses),
      ephemeralContainerStatuses: names(p.spec.ephemeralContainers, p.status.ephemeralContainerStatuses),
    },
  };
});

const POD_TYPE = { apiVersion: 'v1', kind: 'Pod' };

test('every Pod read from Protobuf gives the facts and the lookups what its JSON gives them', () => {
  fc.assert(
    fc.property(fc.array(named, { maxLength: 4 }), text, (pods, token) => {
      // JSON.parse(JSON.stringify()) is the JSON the server wrote for these objects.
      const json = JSON.parse(JSON.stringify(pods)) as J[];
      const read = podListFromProtobuf(podListAnswer(json, { resourceVersion: '17', continue: token }));
      assert.equal(read.items.length, json.length);
      assert.equal((read.metadata as J).continue, token, 'the continue token of a page, for the next');
      json.forEach((pod, i) => {
        assert.deepEqual(podFacts(read.items[i] as J), podFacts(pod));
        assert.deepEqual(objectMetaOf((read.items[i] as J).metadata, POD_TYPE), objectMetaOf(pod.metadata, POD_TYPE));
      });
    }),
    { numRuns: 200 },
  );
});

test('what the facts never read is stepped over: managedFields, env, annotations, fields of later versions', () => {
  const pod = { metadata: { name: 'web-1', namespace: 'ns', uid: 'u1', creationTimestamp: '2026-12-02T03:47:56Z' }, spec: { containers: [{ name: 'app', image: 'nginx', resources: {} }] }, status: { phase: 'Running' } };
  const read = podListFromProtobuf(podListAnswer([pod], { resourceVersion: '1', continue: '' })).items[0] as J;
  assert.deepEqual(Object.keys(read.metadata).sort(), ['creationTimestamp', 'generateName', 'name', 'namespace', 'resourceVersion', 'uid']);
  assert.equal(read.metadata.managedFields, undefined);
  assert.deepEqual(Object.keys(read.spec.containers[0]).sort(), ['image', 'name', 'resources']);
});

test('zeros JSON omits are omitted: a probe without numbers takes the defaults, a signal of 0 says nothing', () => {
  const pod = {
    metadata: { name: 'p', namespace: 'ns', uid: 'u', creationTimestamp: '2026-12-02T03:47:56Z' },
    spec: { containers: [{ name: 'app', image: 'i', resources: {}, livenessProbe: {} }] },
    status: { containerStatuses: [{ name: 'app', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } }, lastState: {} }] },
  };
  const facts = podFacts(podListFromProtobuf(podListAnswer([pod], { resourceVersion: '1', continue: '' })).items[0] as J);
  assert.deepEqual(facts.containers[0]?.probes, [{ kind: 'liveness', failureThreshold: 3, periodSeconds: 10, initialDelaySeconds: 0 }]);
  assert.equal(facts.containers[0]?.state?.exitCode, 0);
  assert.equal(facts.containers[0]?.state?.signal, null);
  assert.equal(facts.containers[0]?.lastState, null, 'an empty lastState is no state, as in JSON');
  assert.equal(facts.containers[0]?.ready, false);
});

test('a cut answer, another Kind, a body that is not Protobuf: an error, never part of a list', () => {
  const whole = podListAnswer([{ metadata: { name: 'p', namespace: 'n', uid: 'u' }, spec: { containers: [] }, status: {} }], { resourceVersion: '1', continue: 'abc' });
  const full = podListFromProtobuf(whole);
  for (let cut = 0; cut < whole.length; cut += 1) {
    // A cut past the list's own bytes loses only the envelope's empty contentEncoding and contentType: the list is whole.
    let read: unknown;
    try {
      read = podListFromProtobuf(whole.subarray(0, cut));
    } catch {
      continue;
    }
    assert.deepEqual(read, full, `cut at ${cut} of ${whole.length}`);
    assert.ok(cut >= whole.length - 4, `cut at ${cut} read as a list`);
  }
  assert.throws(() => podListFromProtobuf(podListAnswer([], { resourceVersion: '1', continue: '' }, 'NodeList')), /not a PodList \(NodeList\)/);
  assert.throws(() => podListFromProtobuf(Buffer.from('{"kind":"PodList","items":[]}')), /no envelope/);
});

test("an error answered in Protobuf reads as the Status's JSON (its message and reason for the error the user sees)", () => {
  const status = Buffer.from([0x6b, 0x38, 0x73, 0x00, ...msg(1, [...str(1, 'v1'), ...str(2, 'Status')]), ...bytes(2, [...msg(1, []), ...str(2, 'Failure'), ...str(3, 'The provided continue parameter is too old to display a consistent list result.\u001b[31m'), ...str(4, 'Expired'), ...num(6, 410)])]);
  assert.deepEqual(JSON.parse(statusTextFromProtobuf(status) ?? ''), { kind: 'Status', status: 'Failure', message: 'The provided continue parameter is too old to display a consistent list result.\u001b[31m', reason: 'Expired', code: 410 });
  assert.equal(statusTextFromProtobuf(Buffer.from('{"kind":"Status"}')), null);
});
