// kubectl rollout status's judgement (rollout_status.go's three StatusViewers), Job, Pod and
// --for-condition, case by case: each row an object's status and kubectl's line for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeRollout, rolloutTarget } from '../../../src/core/rollout-status.ts';
import type { WaitTarget } from '../../../src/core/rollout-status.ts';

const deploy: WaitTarget = { kind: 'rollout', group: 'apps', objectKind: 'Deployment' };
const ds: WaitTarget = { kind: 'rollout', group: 'apps', objectKind: 'DaemonSet' };
const sts: WaitTarget = { kind: 'rollout', group: 'apps', objectKind: 'StatefulSet' };
const job: WaitTarget = { kind: 'rollout', group: 'batch', objectKind: 'Job' };
const pod: WaitTarget = { kind: 'rollout', group: '', objectKind: 'Pod' };

function obj(name: string, generation: number, spec: object, status: object) {
  return { metadata: { name, generation, uid: 'u1' }, spec, status };
}

const deployments: [string, object, string, string][] = [
  ['a spec not yet observed waits for it', obj('web', 2, { replicas: 3 }, { observedGeneration: 1 }), 'waiting', 'Waiting for deployment spec update to be observed...'],
  ['a progress deadline exceeded fails', obj('web', 2, { replicas: 3 }, { observedGeneration: 2, conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }] }), 'failed', 'deployment "web" exceeded its progress deadline'],
  ['fewer updated than desired', obj('web', 2, { replicas: 3 }, { observedGeneration: 2, updatedReplicas: 1, replicas: 3 }), 'waiting', 'Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...'],
  ['old replicas pending termination', obj('web', 2, { replicas: 3 }, { observedGeneration: 2, updatedReplicas: 3, replicas: 4 }), 'waiting', 'Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...'],
  ['updated but not available', obj('web', 2, { replicas: 3 }, { observedGeneration: 2, updatedReplicas: 3, replicas: 3, availableReplicas: 2 }), 'waiting', 'Waiting for deployment "web" rollout to finish: 2 of 3 updated replicas are available...'],
  ['all available is done', obj('web', 2, { replicas: 3 }, { observedGeneration: 2, updatedReplicas: 3, replicas: 3, availableReplicas: 3 }), 'done', 'deployment "web" successfully rolled out'],
  ['zero replicas is done at once', obj('none', 1, { replicas: 0 }, { observedGeneration: 1 }), 'done', 'deployment "none" successfully rolled out'],
];
for (const [name, o, state, message] of deployments) {
  test(`Deployment: ${name}`, () => assert.deepEqual(pick(judgeRollout(deploy, o as never)), { state, message }));
}

const daemonSets: [string, object, string, string][] = [
  ['OnDelete cannot be told', obj('agent', 1, { updateStrategy: { type: 'OnDelete' } }, {}), 'failed', 'rollout status is only available for RollingUpdate strategy type'],
  ['not observed', obj('agent', 2, { updateStrategy: { type: 'RollingUpdate' } }, { observedGeneration: 1 }), 'waiting', 'Waiting for daemon set spec update to be observed...'],
  ['pods not updated', obj('agent', 2, { updateStrategy: { type: 'RollingUpdate' } }, { observedGeneration: 2, desiredNumberScheduled: 2, updatedNumberScheduled: 1 }), 'waiting', 'Waiting for daemon set "agent" rollout to finish: 1 out of 2 new pods have been updated...'],
  ['pods not available', obj('agent', 2, { updateStrategy: { type: 'RollingUpdate' } }, { observedGeneration: 2, desiredNumberScheduled: 2, updatedNumberScheduled: 2, numberAvailable: 0 }), 'waiting', 'Waiting for daemon set "agent" rollout to finish: 0 of 2 updated pods are available...'],
  ['done', obj('agent', 2, { updateStrategy: { type: 'RollingUpdate' } }, { observedGeneration: 2, desiredNumberScheduled: 2, updatedNumberScheduled: 2, numberAvailable: 2 }), 'done', 'daemon set "agent" successfully rolled out'],
];
for (const [name, o, state, message] of daemonSets) {
  test(`DaemonSet: ${name}`, () => assert.deepEqual(pick(judgeRollout(ds, o as never)), { state, message }));
}

const rolling = (partition?: number) => ({ type: 'RollingUpdate', ...(partition === undefined ? {} : { rollingUpdate: { partition } }) });
const statefulSets: [string, object, string, string][] = [
  ['observedGeneration 0 is not observed', obj('db', 1, { replicas: 2, updateStrategy: rolling(0) }, {}), 'waiting', 'Waiting for statefulset spec update to be observed...'],
  ['pods not ready', obj('db', 1, { replicas: 3, updateStrategy: rolling(0) }, { observedGeneration: 1, readyReplicas: 1 }), 'waiting', 'Waiting for 2 pods to be ready...'],
  ['a partition not reached', obj('db', 2, { replicas: 3, updateStrategy: rolling(1) }, { observedGeneration: 2, readyReplicas: 3, updatedReplicas: 1 }), 'waiting', 'Waiting for partitioned roll out to finish: 1 out of 2 new pods have been updated...'],
  ['a partition reached (the API server defaults rollingUpdate.partition to 0)', obj('db', 2, { replicas: 3, updateStrategy: rolling(0) }, { observedGeneration: 2, readyReplicas: 3, updatedReplicas: 3 }), 'done', 'partitioned roll out complete: 3 new pods have been updated...'],
  ['no rollingUpdate: revisions differ', obj('db', 2, { replicas: 1, updateStrategy: rolling() }, { observedGeneration: 2, readyReplicas: 1, updatedReplicas: 0, updateRevision: 'db-2', currentRevision: 'db-1' }), 'waiting', 'waiting for statefulset rolling update to complete 0 pods at revision db-2...'],
  ['no rollingUpdate: one revision', obj('db', 2, { replicas: 1, updateStrategy: rolling() }, { observedGeneration: 2, readyReplicas: 1, currentReplicas: 1, updateRevision: 'db-2', currentRevision: 'db-2' }), 'done', 'statefulset rolling update complete 1 pods at revision db-2...'],
  ['OnDelete cannot be told', obj('db', 1, { updateStrategy: { type: 'OnDelete' } }, {}), 'failed', 'rollout status is only available for RollingUpdate strategy type'],
];
for (const [name, o, state, message] of statefulSets) {
  test(`StatefulSet: ${name}`, () => assert.deepEqual(pick(judgeRollout(sts, o as never)), { state, message }));
}

test('Job: Failed past its back-off limit fails with the reason and message of the condition', () => {
  const o = obj('once', 1, { completions: 1 }, { failed: 3, conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }] });
  assert.deepEqual(pick(judgeRollout(job, o as never)), { state: 'failed', message: 'job "once" failed: BackoffLimitExceeded: Job has reached the specified backoff limit' });
});
test('Job: Complete is done; a running Job waits', () => {
  assert.equal(judgeRollout(job, obj('once', 1, {}, { succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] }) as never).state, 'done');
  assert.equal(judgeRollout(job, obj('once', 1, {}, { active: 1 }) as never).message, 'Waiting for job "once" to complete: 0 of 1 succeeded, 1 active, 0 failed...');
});
test('Pod: Ready or Succeeded is done, Failed fails, anything else waits', () => {
  const p = (status: object) => ({ metadata: { name: 'p' }, spec: { containers: [{}, {}] }, status });
  assert.equal(judgeRollout(pod, p({ phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] }) as never).state, 'done');
  assert.equal(judgeRollout(pod, p({ phase: 'Succeeded' }) as never).message, 'pod "p" succeeded');
  assert.equal(judgeRollout(pod, p({ phase: 'Failed', reason: 'Evicted' }) as never).message, 'pod "p" failed: Evicted');
  assert.equal(judgeRollout(pod, p({ phase: 'Pending', containerStatuses: [{ ready: true }, { ready: false }] }) as never).message, 'Waiting for pod "p" to be ready: 1 of 2 containers ready (Pending)...');
});
test('Pod that runs to completion (restartPolicy Never or OnFailure): Ready while it runs is not done, Succeeded is', () => {
  const p = (restartPolicy: string, status: object) => ({ metadata: { name: 'once' }, spec: { restartPolicy, containers: [{}] }, status });
  const running = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
  assert.deepEqual(pick(judgeRollout(pod, p('Never', running) as never)), { state: 'waiting', message: 'Waiting for pod "once" to complete (Running)...' });
  assert.equal(judgeRollout(pod, p('OnFailure', running) as never).state, 'waiting');
  assert.equal(judgeRollout(pod, p('Always', running) as never).state, 'done');
  assert.equal(judgeRollout(pod, p('Never', { phase: 'Succeeded' }) as never).state, 'done');
});
test('--for-condition: the type in any case, the status asked for, not a condition of an older generation', () => {
  const c = (cond: object, generation = 3) => ({ metadata: { name: 'w', generation }, status: { conditions: [cond] } });
  const ready: WaitTarget = { kind: 'condition', type: 'Ready', status: 'True' };
  assert.equal(judgeRollout(ready, c({ type: 'ready', status: 'True' }) as never).state, 'done');
  assert.equal(judgeRollout(ready, c({ type: 'Ready', status: 'True', observedGeneration: 2 }) as never).message, 'Waiting for condition Ready=True: it is True for generation 2 of 3...');
  assert.equal(judgeRollout(ready, c({ type: 'Ready', status: 'False', reason: 'Pending' }) as never).message, 'Waiting for condition Ready=True: it is False (Pending)...');
  assert.equal(judgeRollout(ready, { metadata: { name: 'w' } } as never).message, 'Waiting for condition Ready=True: it is not set...');
  assert.equal(judgeRollout({ kind: 'condition', type: 'Ready', status: 'False' }, c({ type: 'Ready', status: 'False' }) as never).state, 'done');
});
test('rollout targets: the three workload Kinds of apps, Job of batch, the core Pod; nothing else', () => {
  assert.notEqual(rolloutTarget('apps', 'Deployment'), null);
  assert.notEqual(rolloutTarget('batch', 'Job'), null);
  assert.notEqual(rolloutTarget('', 'Pod'), null);
  assert.equal(rolloutTarget('example.com', 'Deployment'), null);
  assert.equal(rolloutTarget('apps', 'ReplicaSet'), null);
});

function pick(s: { state: string; message: string }) {
  return { state: s.state, message: s.message };
}
