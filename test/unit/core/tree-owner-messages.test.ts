// The controllers' messages naming a child, as k8s.io/kubernetes v1.19 to v1.36 wrote them (core/tree-owner-messages.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { childNamedBy } from '../../../src/core/tree-owner-messages.ts';
import type { NamedChild } from '../../../src/core/tree-owner-messages.ts';

const pod = (name: string): NamedChild => ({ apiVersion: 'v1', kind: 'Pod', name });
const rs = (name: string): NamedChild => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name });
const job = (name: string): NamedChild => ({ apiVersion: 'batch/v1', kind: 'Job', name });

describe('childNamedBy', () => {
  const cases: [string, string, string, { kind: string; name: string }, NamedChild | null][] = [
    ['a ReplicaSet created a pod', 'SuccessfulCreate', 'Created pod: web-5d4b8-x2k9z', { kind: 'ReplicaSet', name: 'web-5d4b8' }, pod('web-5d4b8-x2k9z')],
    ['a ReplicaSet deleted a pod', 'SuccessfulDelete', 'Deleted pod: web-5d4b8-x2k9z', { kind: 'ReplicaSet', name: 'web-5d4b8' }, pod('web-5d4b8-x2k9z')],
    ['a Job created a pod (RealPodControl)', 'SuccessfulCreate', 'Created pod: pi-7xk2p', { kind: 'Job', name: 'pi' }, pod('pi-7xk2p')],
    ['a DaemonSet created a pod (RealPodControl)', 'SuccessfulCreate', 'Created pod: fluentd-8dk2l', { kind: 'DaemonSet', name: 'fluentd' }, pod('fluentd-8dk2l')],
    ['a ReplicationController deleted a pod', 'SuccessfulDelete', 'Deleted pod: old-rc-abcde', { kind: 'ReplicationController', name: 'old-rc' }, pod('old-rc-abcde')],
    [
      "the correlator's combined event names the latest pod",
      'SuccessfulCreate',
      '(combined from similar events): Created pod: web-5d4b8-zz9q1',
      { kind: 'ReplicaSet', name: 'web-5d4b8' },
      pod('web-5d4b8-zz9q1'),
    ],
    ['a Deployment scaled a new replica set up from 0', 'ScalingReplicaSet', 'Scaled up replica set web-5d4b8 from 0 to 3', { kind: 'Deployment', name: 'web' }, rs('web-5d4b8')],
    ['a Deployment scaled an old replica set down', 'ScalingReplicaSet', 'Scaled down replica set web-7f9c6 from 3 to 2', { kind: 'Deployment', name: 'web' }, rs('web-7f9c6')],
    ['an older release wrote "Scaled up replica set X to N"', 'ScalingReplicaSet', 'Scaled up replica set web-5d4b8 to 3', { kind: 'Deployment', name: 'web' }, rs('web-5d4b8')],
    ['a StatefulSet created its pod', 'SuccessfulCreate', 'Create Pod db-0 in StatefulSet db successful', { kind: 'StatefulSet', name: 'db' }, pod('db-0')],
    ['a StatefulSet deleted its pod', 'SuccessfulDelete', 'Delete Pod db-2 in StatefulSet db successful', { kind: 'StatefulSet', name: 'db' }, pod('db-2')],
    [
      'a StatefulSet failed to create its pod',
      'FailedCreate',
      'Create Pod db-1 in StatefulSet db failed error: pods "db-1" is forbidden: exceeded quota',
      { kind: 'StatefulSet', name: 'db' },
      pod('db-1'),
    ],
    ['a StatefulSet created a claim for a pod', 'SuccessfulCreate', 'Create Claim data-db-0 Pod db-0 in StatefulSet db success', { kind: 'StatefulSet', name: 'db' }, pod('db-0')],
    [
      'a StatefulSet failed a claim for a pod',
      'FailedCreate',
      'Create Claim data-db-0 for Pod db-0 in StatefulSet db failed error: no storage',
      { kind: 'StatefulSet', name: 'db' },
      pod('db-0'),
    ],
    ['a message naming another StatefulSet names no child', 'SuccessfulCreate', 'Create Pod other-0 in StatefulSet other successful', { kind: 'StatefulSet', name: 'db' }, null],
    [
      'a DaemonSet found a failed pod',
      'FailedDaemonPod',
      'Found failed daemon pod kube-system/fluentd-8dk2l on node n1, will try to kill it',
      { kind: 'DaemonSet', name: 'fluentd' },
      pod('fluentd-8dk2l'),
    ],
    [
      'a DaemonSet found a succeeded pod',
      'SucceededDaemonPod',
      'Found succeeded daemon pod ns/fluentd-8dk2l on node n1, will try to delete it',
      { kind: 'DaemonSet', name: 'fluentd' },
      pod('fluentd-8dk2l'),
    ],
    ['a CronJob created a job', 'SuccessfulCreate', 'Created job nightly-29012345', { kind: 'CronJob', name: 'nightly' }, job('nightly-29012345')],
    ['a CronJob deleted a job', 'SuccessfulDelete', 'Deleted job nightly-29012345', { kind: 'CronJob', name: 'nightly' }, job('nightly-29012345')],
    ['a CronJob saw a job complete', 'SawCompletedJob', 'Saw completed job: nightly-29012345, condition: Complete', { kind: 'CronJob', name: 'nightly' }, job('nightly-29012345')],
    ['a CronJob lost an active job', 'MissingJob', 'Active job went missing: nightly-29012345', { kind: 'CronJob', name: 'nightly' }, job('nightly-29012345')],
    ["a CronJob's unexpected job is not its child", 'UnexpectedJob', 'Saw a job that the controller did not create or forgot: stray', { kind: 'CronJob', name: 'nightly' }, null],
    ['"Error creating" carries an API error, not a name', 'FailedCreate', 'Error creating: pods "web-x" is forbidden', { kind: 'ReplicaSet', name: 'web' }, null],
    ['a reason the format is not written under', 'Scheduled', 'Created pod: web-x', { kind: 'ReplicaSet', name: 'web' }, null],
    // Older releases' wordings, each with where it was written (core/tree-owner-messages.ts has the source).
    ['v1.19-v1.34: a StatefulSet created its pod, verb lower-case (stateful_pod_control.go strings.ToLower)', 'SuccessfulCreate', 'create Pod ingester-2 in StatefulSet ingester successful', { kind: 'StatefulSet', name: 'ingester' }, pod('ingester-2')],
    ['v1.19-v1.34: a StatefulSet deleted its pod', 'SuccessfulDelete', 'delete Pod ingester-3 in StatefulSet ingester successful', { kind: 'StatefulSet', name: 'ingester' }, pod('ingester-3')],
    ['v1.19-v1.34: a StatefulSet updated its pod', 'SuccessfulUpdate', 'update Pod db-0 in StatefulSet db successful', { kind: 'StatefulSet', name: 'db' }, pod('db-0')],
    ['v1.19-v1.34: a StatefulSet failed to create its pod', 'FailedCreate', 'create Pod etcd-1 in StatefulSet etcd failed error: The POST operation against Pod could not be completed at this time, please try again.', { kind: 'StatefulSet', name: 'etcd' }, pod('etcd-1')],
    ['v1.19-v1.34: a StatefulSet created a claim for a pod', 'SuccessfulCreate', 'create Claim datadir-etcd-0 Pod etcd-0 in StatefulSet etcd success', { kind: 'StatefulSet', name: 'etcd' }, pod('etcd-0')],
    ['v1.19-v1.34: a StatefulSet failed a claim for a pod', 'FailedCreate', 'create Claim data-db-0 for Pod db-0 in StatefulSet db failed error: no storage', { kind: 'StatefulSet', name: 'db' }, pod('db-0')],
    ['v1.19-v1.34: another StatefulSet\'s lower-case message names no child', 'SuccessfulCreate', 'create Pod other-0 in StatefulSet other successful', { kind: 'StatefulSet', name: 'db' }, null],
    ['a verb in neither case is no verb', 'SuccessfulCreate', 'CREATE Pod db-0 in StatefulSet db successful', { kind: 'StatefulSet', name: 'db' }, null],
    ['v1.19-v1.25: a Deployment scaled an old replica set down ("to N")', 'ScalingReplicaSet', 'Scaled down replica set web-7f9c6 to 2', { kind: 'Deployment', name: 'web' }, rs('web-7f9c6')],
    ['v1.26-v1.30: a Deployment scaled a replica set up ("to N from M", PR #101142)', 'ScalingReplicaSet', 'Scaled up replica set web-5d4b8 to 3 from 1', { kind: 'Deployment', name: 'web' }, rs('web-5d4b8')],
    ['v1.26-v1.30: a Deployment scaled a replica set down ("to N from M")', 'ScalingReplicaSet', 'Scaled down replica set web-7f9c6 to 0 from 1', { kind: 'Deployment', name: 'web' }, rs('web-7f9c6')],
    ['both orders at once is no wording', 'ScalingReplicaSet', 'Scaled down replica set web-7f9c6 from 1 to 0 from 1', { kind: 'Deployment', name: 'web' }, null],
    ['v1.19 on, before the condition: a CronJob saw a job complete ("status", PR #75712)', 'SawCompletedJob', 'Saw completed job: nightly-29012345, status: Complete', { kind: 'CronJob', name: 'nightly' }, job('nightly-29012345')],
    ['ScalingReplicaSet from something not a Deployment', 'ScalingReplicaSet', 'Scaled up replica set web-x from 0 to 1', { kind: 'Pipeline', name: 'web' }, null],
    // Hostile text: a name the API server could not hold is no name.
    ['a name with a terminal escape', 'SuccessfulCreate', 'Created pod: web-\u001b[2Jx', { kind: 'ReplicaSet', name: 'web' }, null],
    ['a name with a slash (a path)', 'SuccessfulCreate', 'Created pod: ../../secrets', { kind: 'ReplicaSet', name: 'web' }, null],
    ['a name with upper case', 'SuccessfulCreate', 'Created pod: Web-X', { kind: 'ReplicaSet', name: 'web' }, null],
    ['two names on two lines', 'SuccessfulCreate', 'Created pod: a\nCreated pod: b', { kind: 'ReplicaSet', name: 'web' }, null],
    ['a name past 253 characters', 'SuccessfulCreate', `Created pod: ${'a'.repeat(254)}`, { kind: 'ReplicaSet', name: 'web' }, null],
    ['a name of 253 characters', 'SuccessfulCreate', `Created pod: ${'a'.repeat(253)}`, { kind: 'ReplicaSet', name: 'web' }, pod('a'.repeat(253))],
    ['an empty name', 'SuccessfulCreate', 'Created pod: ', { kind: 'ReplicaSet', name: 'web' }, null],
    ['trailing text after the name', 'SuccessfulCreate', 'Created pod: web-x and more', { kind: 'ReplicaSet', name: 'web' }, null],
  ];
  for (const [name, reason, message, owner, want] of cases) {
    test(name, () => assert.deepEqual(childNamedBy(reason, message, owner), want));
  }
});
