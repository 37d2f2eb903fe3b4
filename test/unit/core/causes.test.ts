import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { findCauses } from '../../../src/core/causes.ts';
import { containerOfEvent } from '../../../src/core/causes-pod.ts';
import { parseFailedScheduling } from '../../../src/core/causes-nodes.ts';
import { factsOf, lastExit, nodeFacts, podFacts } from '../../../src/core/facts.ts';
import type { FactSet, ObjectFacts } from '../../../src/core/facts.ts';
import type { Event } from '../../../src/core/event.ts';
import { parseQuantity, formatQuantity } from '../../../src/core/quantity.ts';
import { causeLine, renderWhy } from '../../../src/render/causes-text.ts';
import { plainPalette } from '../../../src/render/color.ts';
import { kubeletEvent, node, pod, terminated, waiting } from '../../support/status-objects.ts';

const facts = (...objects: ObjectFacts[]): FactSet => ({ objects, gaps: [], readAt: null });

function lines(set: FactSet, events: Event[]): string[] {
  return findCauses(set, events).causes.map(causeLine);
}

test('an OOMKilled container is named with its exit code, memory limit and restarts, though no event says OOM', () => {
  const p = pod({ containers: [{ limits: { memory: '20Mi' }, restartCount: 5, lastState: terminated('OOMKilled', 137), state: waiting('CrashLoopBackOff', 'back-off 40s restarting failed container=app pod=web-1_shop(uid-web-1)') }] });
  const backOff = kubeletEvent({ reason: 'BackOff', message: 'Back-off restarting failed container app in pod web-1_shop(uid-web-1)', container: 'app', count: 4 });
  const { causes } = findCauses(facts(podFacts(p)), [backOff]);
  assert.deepEqual(causes.map(causeLine), ['Pod/web-1: container app was killed for using more memory than its limit (OOMKilled, exit code 137, limits.memory 20Mi), restarted 5 times.']);
  const paths = causes[0]?.evidence.map((e) => `${e.path}=${e.from === 'event' ? 'event' : e.value}`);
  assert.deepEqual(paths?.slice(0, 4), [
    'status.containerStatuses[app].lastState.terminated.reason=OOMKilled',
    'status.containerStatuses[app].lastState.terminated.exitCode=137',
    'spec.containers[app].resources.limits.memory=20Mi',
    'status.containerStatuses[app].restartCount=5',
  ]);
  assert.deepEqual(causes[0]?.events, [backOff.name]);
});

test('an OOMKilled container without a limit says the node ran out', () => {
  const p = pod({ phase: 'Failed', containers: [{ state: terminated('OOMKilled', 137) }] });
  assert.match(lines(facts(podFacts(p)), [])[0] ?? '', /no memory limit in its spec: the node ran out\), not restarted\.$/);
});

test('a container that keeps exiting says its code, termination message and last words', () => {
  const c = podFacts(pod({ containers: [{ restartCount: 3, lastState: terminated('Error', 1, 20, 'config file /etc/app.yaml: parse error'), state: waiting('CrashLoopBackOff', 'back-off 20s restarting failed container=app') }] }));
  const app = c.containers[0];
  if (app !== undefined) app.lastWords = ['starting', 'fatal: cannot connect to db:5432'];
  assert.deepEqual(lines(facts(c), []), [
    'Pod/web-1: container app keeps exiting with code 1 (Error), restarted 3 times, now in CrashLoopBackOff; its termination message: "config file /etc/app.yaml: parse error"; its last words: "starting\\nfatal: cannot connect to db:5432".',
  ]);
  const evidence = findCauses(facts(c), []).causes[0]?.evidence.map((e) => e.path);
  assert.ok(evidence?.includes('pods/log?container=app&previous=true'));
  assert.ok(evidence?.includes('status.containerStatuses[app].lastState.terminated.message'));
});

test('a container that has just exited again, waiting out its back-off: its exit and its words are the current instance\'s (pods/log without previous)', () => {
  // What the kubelet writes between an exit and the next sync (pkg/kubelet/kubelet_pods.go
  // convertToAPIContainerStatuses): state terminated (the instance that just exited), lastState the
  // one before, which the kubelet has already removed (pod_container_deletor.go keeps one dead container).
  const c = podFacts(pod({ containers: [{ restartCount: 2, lastState: terminated('Error', 1, 40), state: terminated('Error', 3, 5) }] }));
  const exit = c.containers[0] === undefined ? null : lastExit(c.containers[0]);
  assert.equal(exit?.which, 'state');
  assert.equal(exit?.state.exitCode, 3);
  const app = c.containers[0];
  if (app !== undefined) app.lastWords = ['fatal: cannot reach db:5432'];
  assert.deepEqual(lines(facts(c), []), ['Pod/web-1: container app keeps exiting with code 3 (Error), restarted 2 times; its last words: "fatal: cannot reach db:5432".']);
  const evidence = findCauses(facts(c), []).causes[0]?.evidence.map((e) => e.path);
  assert.ok(evidence?.includes('pods/log?container=app&previous=false'), (evidence ?? []).join('\n'));
  assert.ok(!evidence?.some((e) => e.includes('previous=true')), (evidence ?? []).join('\n'));
});

test('an exit code above 128 names the signal it probably stands for; a written signal is stated', () => {
  const p = podFacts(pod({ phase: 'Failed', containers: [{ state: terminated('Error', 143) }] }));
  assert.match(lines(facts(p), [])[0] ?? '', /exited with code 143 \(Error, probably SIGTERM\), not restarted\.$/);
  const raw = pod({ phase: 'Failed', containers: [{ state: { terminated: { exitCode: 139, signal: 11, reason: 'Error', finishedAt: '2026-11-30T11:59:00Z' } } }] });
  assert.match(lines(facts(podFacts(raw)), [])[0] ?? '', /\(Error, signal SIGSEGV\)/);
});

test('a Job-style exit 0 is no cause', () => {
  const p = podFacts(pod({ phase: 'Succeeded', containers: [{ state: terminated('Completed', 0) }] }));
  assert.deepEqual(lines(facts(p), []), []);
});

test('an image that cannot be pulled names the image and the kubelet message', () => {
  const p = podFacts(pod({ containers: [{ image: 'registry.example/shop/web:v9', state: waiting('ImagePullBackOff', 'Back-off pulling image "registry.example/shop/web:v9"') }] }));
  const failed = kubeletEvent({ reason: 'Failed', container: 'app', message: 'Failed to pull image "registry.example/shop/web:v9": rpc error: code = NotFound desc = failed to pull and unpack image "registry.example/shop/web:v9": not found' });
  assert.deepEqual(lines(facts(p), [failed]), [
    'Pod/web-1: container app cannot pull image "registry.example/shop/web:v9" (ImagePullBackOff): Failed to pull image "registry.example/shop/web:v9": rpc error: code = NotFound desc = failed to pull and unpack image "registry.example/shop/web:v9": not found.',
  ]);
});

test('an image pull failure is told from the events alone when the Pod was not read', () => {
  const failed = kubeletEvent({ reason: 'Failed', container: 'app', message: 'Failed to pull image "nope:1": not found' });
  assert.match(lines(facts(), [failed])[0] ?? '', /^Pod\/web-1: container app cannot pull image "nope:1" \(ErrImagePull\)/);
});

test('a missing ConfigMap, a missing Secret and a missing key are each named', () => {
  const cases: [string, string][] = [
    ['configmap "shop-config" not found', 'ConfigMap "shop-config" does not exist'],
    ['secret "db-password" not found', 'Secret "db-password" does not exist'],
    ["couldn't find key LOG_LEVEL in ConfigMap shop/shop-config", 'key "LOG_LEVEL" is missing from ConfigMap "shop-config"'],
  ];
  for (const [message, said] of cases) {
    const p = podFacts(pod({ containers: [{ state: waiting('CreateContainerConfigError', message) }] }));
    assert.deepEqual(lines(facts(p), []), [`Pod/web-1: container app cannot start: ${said}.`], message);
  }
});

test("a volume's missing ConfigMap is read from FailedMount", () => {
  const mount = kubeletEvent({ reason: 'FailedMount', message: 'MountVolume.SetUp failed for volume "cfg" : configmap "shop-config" not found', count: 6 });
  const p = podFacts(pod({ containers: [{ state: waiting('ContainerCreating', '') }] }));
  assert.deepEqual(lines(facts(p), [mount]), ['Pod/web-1: volume cfg cannot start: ConfigMap "shop-config" does not exist.']);
});

test('Unhealthy below the failure threshold while starting is expected; a liveness kill is the cause of the restarts', () => {
  const probe = { exec: { command: ['cat', '/tmp/ready'] }, failureThreshold: 3, periodSeconds: 10 };
  const starting = podFacts(pod({ containers: [{ readinessProbe: probe, ready: false }] }));
  const early = kubeletEvent({ reason: 'Unhealthy', container: 'app', message: "Readiness probe failed: cat: can't open '/tmp/ready': No such file or directory", count: 2 });
  const found = findCauses(facts(starting), [early]);
  assert.deepEqual(found.causes, []);
  assert.deepEqual(found.expected.map(causeLine), ["Pod/web-1: container app's readiness probe failed while it started (2 failures, threshold 3): expected, below the threshold."]);

  const killedPod = podFacts(pod({ containers: [{ livenessProbe: probe, restartCount: 4, lastState: terminated('Error', 137) }] }));
  const unhealthy = kubeletEvent({ reason: 'Unhealthy', container: 'app', message: 'Liveness probe failed: ', count: 12 });
  const killing = kubeletEvent({ reason: 'Killing', type: 'Normal', container: 'app', message: 'Container app failed liveness probe, will be restarted', count: 4 });
  assert.deepEqual(lines(facts(killedPod), [unhealthy, killing]), ['Pod/web-1: container app is restarted because its liveness probe fails (12 failures, threshold 3; restarted 4 times).']);
});

test('readiness failing past its threshold keeps the container not ready', () => {
  const p = podFacts(pod({ containers: [{ readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, failureThreshold: 3 }, ready: false }] }));
  const unhealthy = kubeletEvent({ reason: 'Unhealthy', container: 'app', message: 'Readiness probe failed: HTTP probe failed with statuscode: 503', count: 16 });
  const [cause] = findCauses(facts(p), [unhealthy]).causes;
  assert.equal(cause?.certainty, 'stated');
  assert.equal(causeLine(cause!), 'Pod/web-1: container app is not ready: its readiness probe fails (16 failures, threshold 3): "HTTP probe failed with statuscode: 503".');
});

test('the scheduler message is parsed into counts and reasons', () => {
  assert.deepEqual(parseFailedScheduling('0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had untolerated taint(s). preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.'), {
    nodes: 3,
    reasons: [
      { count: 1, text: 'Insufficient cpu' },
      { count: 2, text: 'node(s) had untolerated taint(s)' },
    ],
  });
  assert.deepEqual(parseFailedScheduling('0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.')?.reasons, [
    { count: null, text: 'pod has unbound immediate PersistentVolumeClaims' },
  ]);
  // v1.26 and older named the taint, with a comma inside the reason.
  assert.deepEqual(parseFailedScheduling("0/2 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.")?.reasons, [
    { count: 1, text: 'Insufficient memory' },
    { count: 1, text: 'node(s) had untolerated taint {node.kubernetes.io/unreachable: }' },
  ]);
  // As the v1.36 scheduler wrote it on the test control plane (README, the lab's Pod/hungry): PostFilter's DRA words before preemption's.
  assert.deepEqual(parseFailedScheduling('0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.')?.reasons, [{ count: 1, text: 'Insufficient cpu' }]);
  assert.deepEqual(parseFailedScheduling("0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.")?.reasons, [
    { count: 1, text: "node(s) didn't match Pod's node affinity/selector" },
    { count: 1, text: 'node(s) had untolerated taint(s)' },
  ]);
  assert.equal(parseFailedScheduling('skip schedule deleting pod: shop/web-1'), null);
});

test('FailedScheduling is read with the numbers: what the Pod requests and the most any node has free', () => {
  const hungry = podFacts(pod({ name: 'hungry', containers: [{ requests: { cpu: '64' } }] }));
  const busy = podFacts(pod({ name: 'busy', nodeName: 'node-1', containers: [{ requests: { cpu: '500m', memory: '1Gi' } }] }));
  const n1 = nodeFacts(node({ name: 'node-1' }), [busy]);
  const n2 = nodeFacts(node({ name: 'node-2', taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: '2026-11-30T11:50:00Z' }] }), []);
  const failed = kubeletEvent({ reason: 'FailedScheduling', pod: 'hungry', component: 'default-scheduler', message: '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint(s). preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.' });
  assert.deepEqual(lines(facts(hungry, busy, n1, n2), [failed]), [
    'Pod/hungry: cannot be scheduled: 0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint(s); requests cpu 64; the most any node has free is 2 of 2 (node-2); untolerated taints: node-2 node.kubernetes.io/unreachable:NoSchedule.',
  ]);
  // node-2 is the freest only because it runs nothing: without it, node-1's 1.5 of 2.
  assert.match(lines(facts(hungry, busy, n1), [failed])[0] ?? '', /the most any node has free is 1\.5 of 2 \(node-1\)/);
});

test('a Pod placed since its FailedScheduling has no scheduling cause', () => {
  const placed = podFacts(pod({ name: 'hungry', nodeName: 'node-1' }));
  const failed = kubeletEvent({ reason: 'FailedScheduling', pod: 'hungry', component: 'default-scheduler', message: '0/1 nodes are available: 1 Insufficient cpu.' });
  assert.deepEqual(lines(facts(placed), [failed]), []);
});

test('an unbound claim and cordoned nodes are named from their objects', () => {
  const p = podFacts(pod({ name: 'db-0', volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-db-0' } }] }));
  const pvc = factsOf('PersistentVolumeClaim', { metadata: { name: 'data-db-0', namespace: 'shop', uid: 'u' }, spec: { storageClassName: 'fast' }, status: { phase: 'Pending' } })!;
  const cordoned = nodeFacts(node({ name: 'node-1', unschedulable: true }));
  const failed = kubeletEvent({ reason: 'FailedScheduling', pod: 'db-0', message: '0/2 nodes are available: 1 node(s) were unschedulable, 1 pod has unbound immediate PersistentVolumeClaims.' });
  assert.match(lines(facts(p, pvc, cordoned), [failed])[0] ?? '', /; cordoned: node-1; PersistentVolumeClaim data-db-0 is Pending \(storage class fast\)\.$/);
});

test('a node that stopped reporting is joined to the Pods it lost, in every namespace, with its time and taint', () => {
  const lostNode = nodeFacts(
    node({ name: 'node-1', ready: 'Unknown', since: 300, taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2026-11-30T11:55:05Z' }, { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: '2026-11-30T11:55:00Z' }] }),
    [podFacts(pod({ name: 'cache-0', namespace: 'infra', nodeName: 'node-1', deleting: true }))],
  );
  const shopPod = podFacts(pod({ name: 'checkout-1', nodeName: 'node-1', deleting: true }));
  const notReady = kubeletEvent({ reason: 'NodeNotReady', pod: 'checkout-1', component: 'node-controller', message: 'Node is not ready' });
  const eviction = kubeletEvent({ reason: 'TaintManagerEviction', type: 'Normal', pod: 'checkout-1', component: 'taint-eviction-controller', message: 'Marking for deletion Pod shop/checkout-1' });
  const [cause] = findCauses(facts(lostNode, shopPod), [notReady, eviction]).causes;
  assert.equal(
    causeLine(cause!),
    'Node/node-1: stopped reporting at 2026-11-30T11:55:00Z, Ready=Unknown (NodeStatusUnknown); the taint node.kubernetes.io/unreachable:NoExecute evicts its Pods; Pods it lost: infra/cache-0, shop/checkout-1.',
  );
  assert.equal(cause?.certainty, 'stated');
});

test('without the Node, its Pods events make the lost node probable, through their Scheduled events', () => {
  const scheduled = kubeletEvent({ reason: 'Scheduled', type: 'Normal', pod: 'checkout-1', component: 'default-scheduler', message: 'Successfully assigned shop/checkout-1 to node-1', first: 600 });
  const notReady = kubeletEvent({ reason: 'NodeNotReady', pod: 'checkout-1', component: 'node-controller', message: 'Node is not ready', first: 120 });
  const [cause] = findCauses(facts(), [scheduled, notReady]).causes;
  assert.equal(cause?.certainty, 'probably');
  assert.equal(causeLine(cause!), 'Probably, Node/node-1: stopped reporting at 2026-11-30T11:58:00Z; Pods it lost: shop/checkout-1.');
});

test('a quota refusal names the quota with requested, used and limited, and its hard limits', () => {
  const quota = factsOf('ResourceQuota', { metadata: { name: 'pods-2', namespace: 'shop', uid: 'q' }, status: { hard: { pods: '2' }, used: { pods: '2' } } })!;
  const failed = kubeletEvent({ kind: 'ReplicaSet', name: 'web-5694fc8c57', component: 'replicaset-controller', reason: 'FailedCreate', message: 'Error creating: pods "web-5694fc8c57-x2x7q" is forbidden: exceeded quota: pods-2, requested: pods=1, used: pods=2, limited: pods=2' });
  assert.deepEqual(lines(facts(quota), [failed]), ['ReplicaSet/web-5694fc8c57: cannot create Pods: ResourceQuota "pods-2" refused them (requested pods=1, used pods=2, limited pods=2) (its hard limits: pods=2).']);
  const admission = kubeletEvent({ kind: 'ReplicaSet', name: 'web-2', reason: 'FailedCreate', message: 'Error creating: pods "web-2-abcde" is forbidden: violates PodSecurity "restricted:latest": privileged' });
  assert.deepEqual(lines(facts(), [admission]), ['ReplicaSet/web-2: cannot create Pods: pods "web-2-abcde" is forbidden: violates PodSecurity "restricted:latest": privileged.']);
});

test("a refusal the recorder combined after ten (\"(combined from similar events): \") is told as the admission's words alone", () => {
  // client-go's EventAggregator (tools/record/events_cache.go) combines a ReplicaSet's refusals once
  // each retry's Pod name made ten different messages; seen on the real control plane (why.test.ts, LimitRange).
  const combined = kubeletEvent({ kind: 'ReplicaSet', name: 'web-7c', component: 'replicaset-controller', reason: 'FailedCreate', message: '(combined from similar events): Error creating: pods "web-7c-ksmf4" is forbidden: maximum cpu usage per Pod is 100m.  No limit is specified' });
  assert.deepEqual(lines(facts(), [combined]), ['ReplicaSet/web-7c: cannot create Pods: pods "web-7c-ksmf4" is forbidden: maximum cpu usage per Pod is 100m.  No limit is specified.']);
  const quota = kubeletEvent({ kind: 'Job', name: 'migrate', component: 'job-controller', reason: 'FailedCreate', message: '(combined from similar events): Error creating: pods "migrate-x2x7q" is forbidden: exceeded quota: one, requested: pods=1, used: pods=1, limited: pods=1' });
  const [cause] = findCauses(facts(), [quota]).causes;
  assert.equal(cause?.detail.kind === 'create-refused' ? cause.detail.message : '', 'pods "migrate-x2x7q" is forbidden: exceeded quota: one, requested: pods=1, used: pods=1, limited: pods=1');
});

test('a rollout past its progress deadline and a Job past its back-off limit with its Pods exit codes', () => {
  const deploy = factsOf('Deployment', {
    metadata: { name: 'web', namespace: 'shop', uid: 'd' },
    spec: { replicas: 3, progressDeadlineSeconds: 60 },
    status: { conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'ReplicaSet "web-5694fc8c57" has timed out progressing.', lastTransitionTime: '2026-11-30T11:58:00Z' }] },
  })!;
  const job = factsOf('Job', {
    metadata: { name: 'migrate', namespace: 'shop', uid: 'j' },
    spec: { backoffLimit: 1 },
    status: { failed: 2, conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', lastTransitionTime: '2026-11-30T11:59:00Z' }] },
  })!;
  const jobPods = ['migrate-a', 'migrate-b'].map((name) => podFacts(pod({ name, phase: 'Failed', owner: { kind: 'Job', name: 'migrate' }, containers: [{ name: 'migrate', state: terminated('Error', 2) }] })));
  const found = lines(facts(deploy, job, ...jobPods), []);
  assert.ok(found.includes('Job/migrate: gave up: Job has reached the specified backoff limit (backoffLimit 1, 2 failed Pods); exit codes: migrate-a migrate exit 2 (Error), migrate-b migrate exit 2 (Error).'), found.join('\n'));
  assert.ok(found.includes('Deployment/web: is past its progress deadline (60s): ReplicaSet "web-5694fc8c57" has timed out progressing..'), found.join('\n'));
  // The Job is told before its Pods' exits, and before the rollout (a consequence).
  assert.equal(found[0]?.startsWith('Job/migrate'), true);
});

test('siblings of one owner with the same cause are one line', () => {
  const pods = ['web-a', 'web-b', 'web-c'].map((name) => podFacts(pod({ name, owner: { kind: 'ReplicaSet', name: 'web-1' }, containers: [{ limits: { memory: '20Mi' }, restartCount: 2, lastState: terminated('OOMKilled', 137) }] })));
  const found = lines(facts(...pods), []);
  assert.equal(found.length, 1);
  assert.match(found[0] ?? '', /^Pod\/web-a \(and Pod\/web-b, Pod\/web-c, alike\): container app was killed/);
});

test('hostile text in names, messages and last words is escaped before the terminal', () => {
  const p = podFacts(pod({ name: 'evil', containers: [{ name: 'a\u001b[31m', restartCount: 1, lastState: terminated('Error', 1, 5, 'bye\u001b]0;pwned\u0007'), state: waiting('CrashLoopBackOff', 'x') }] }));
  const c = p.containers[0];
  if (c !== undefined) c.lastWords = ['\u202eevil', 'line\r'];
  const text = renderWhy({ ...findCauses(facts(p), []), gaps: [], noStatus: false, detail: true }, plainPalette);
  assert.doesNotMatch(text, /[\u001b\u0007\u202e\r]/);
  assert.match(text, /container a\^\[\[31m keeps exiting/);
  assert.match(text, /its last words: "\\u202eevil\\nline\\r"/);
});

test('the Why says what could not be read instead of guessing', () => {
  const text = renderWhy({ causes: [], expected: [], gaps: [{ what: 'list', resource: 'pods', namespace: 'shop', reason: 'forbidden' }, { what: 'log', resource: 'pods/log', namespace: 'shop', reason: 'forbidden' }], noStatus: false, detail: false }, plainPalette);
  assert.equal(text, ['Why', '  Not read: pods in shop (forbidden): causes written in their status are not told.', '  Not read: pods/log in shop (forbidden): the last words of exiting containers are not told.'].join('\n'));
});

test('the default Why holds five causes and says how many more --detail shows', () => {
  const pods = Array.from({ length: 7 }, (_, i) => podFacts(pod({ name: `p${i}`, phase: 'Failed', containers: [{ state: terminated('Error', i + 1) }] })));
  const found = findCauses(facts(...pods), []);
  const text = renderWhy({ ...found, gaps: [], noStatus: false, detail: false }, plainPalette).split('\n');
  assert.equal(text.length, 1 + 5 * 2 + 1);
  assert.equal(text.at(-1), '  and 2 more causes (--detail shows all).');
});

test('quantities are read as apimachinery writes them', () => {
  const table: [string, number | null][] = [['1500m', 1.5], ['20Mi', 20 * 2 ** 20], ['1e3', 1000], ['2', 2], ['1.5Gi', 1.5 * 2 ** 30], ['100k', 1e5], ['x', null], ['', null]];
  for (const [text, value] of table) assert.equal(parseQuantity(text), value, text);
  assert.equal(formatQuantity('cpu', 1.5), '1.5');
  assert.equal(formatQuantity('cpu', 0.25), '250m');
  assert.equal(formatQuantity('memory', 20 * 2 ** 20), '20Mi');
});

test("a container is read from the kubelet's fieldPath as the pattern reads it, whatever the path", () => {
  const pattern = /^spec\.(?:initC|ephemeralC|c)ontainers\{(.*)\}$/;
  const path = fc.oneof(
    fc.string(),
    fc.tuple(fc.constantFrom('spec.containers{', 'spec.initContainers{', 'spec.ephemeralContainers{', 'spec.Containers{', 'xspec.containers{', ''), fc.string(), fc.constantFrom('}', '}}', '', '}\n', '\n}')).map((parts) => parts.join('')),
    fc.constantFrom('spec.containers{a\nb}', 'spec.containers{a\u2028b}', 'spec.containers{}', 'spec.containers{', 'spec.containers{a}b}'),
  );
  fc.assert(
    fc.property(path, (fieldPath) => {
      const event = { object: { fieldPath } } as Event;
      assert.equal(containerOfEvent(event), pattern.exec(fieldPath)?.[1] ?? null);
    }),
  );
});
