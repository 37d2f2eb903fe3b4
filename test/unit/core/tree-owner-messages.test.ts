// The controllers' messages naming a child, as k8s.io/kubernetes v1.19 to v1.36 wrote them (core/tree-owner-messages.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { childNamedBy } from '../../../src/core/tree-owner-messages.ts';
import type { NamedChild } from '../../../src/core/tree-owner-messages.ts';

const pod = (name: string): NamedChild => ({ apiVersion: 'v1', kind: 'Pod', name });
const rs = (name: string): NamedChild => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name });
const job = (name: string): NamedChild => ({ apiVersion: 'batch/v1', kind: 'Job', name });

describe('childNamedBy', () => {
  // Each wording as a controller wrote it, named by its version range and where: "v1.23-26:289" is
  // pkg/controller/<file> line 289 of k8s.io/kubernetes v1.23.0 to v1.26.0.
  const cases: [string, string, string, { kind: string; name: string }, NamedChild | null][] = [
    // controller_utils.go RealPodControl (ReplicaSet, ReplicationController, DaemonSet, Job), every release.
    ['v1.19-v1.36 a ReplicaSet created a pod: controller_utils.go v1.19-20:594 v1.21:592 v1.22-27:582 v1.28-29:598 v1.30-32:597 v1.33:607 v1.34:609 v1.35:606 v1.36:614', 'SuccessfulCreate', 'Created pod: web-5d4b8-x2k9z', { kind: 'ReplicaSet', name: 'web-5d4b8' }, pod('web-5d4b8-x2k9z')],
    ['v1.19-v1.36 a ReplicaSet deleted a pod: controller_utils.go v1.19-20:613 v1.21:611 v1.22-27:601 v1.28-29:618 v1.30-32:617 v1.33:627 v1.34:629 v1.35:626 v1.36:634', 'SuccessfulDelete', 'Deleted pod: web-5d4b8-x2k9z', { kind: 'ReplicaSet', name: 'web-5d4b8' }, pod('web-5d4b8-x2k9z')],
    ['v1.19-v1.36 a Job created a pod (RealPodControl)', 'SuccessfulCreate', 'Created pod: pi-7xk2p', { kind: 'Job', name: 'pi' }, pod('pi-7xk2p')],
    ['v1.19-v1.36 a DaemonSet created a pod (RealPodControl)', 'SuccessfulCreate', 'Created pod: fluentd-8dk2l', { kind: 'DaemonSet', name: 'fluentd' }, pod('fluentd-8dk2l')],
    ['v1.19-v1.36 a ReplicationController deleted a pod (RealPodControl)', 'SuccessfulDelete', 'Deleted pod: old-rc-abcde', { kind: 'ReplicationController', name: 'old-rc' }, pod('old-rc-abcde')],
    [
      "the correlator's combined event names the latest pod",
      'SuccessfulCreate',
      '(combined from similar events): Created pod: web-5d4b8-zz9q1',
      { kind: 'ReplicaSet', name: 'web-5d4b8' },
      pod('web-5d4b8-zz9q1'),
    ],
    // deployment/sync.go ScalingReplicaSet.
    ['v1.19-v1.31 a new replica set "Scaled up replica set X to N": deployment/sync.go v1.19-26:277 v1.27-31:278', 'ScalingReplicaSet', 'Scaled up replica set web-5d4b8 to 3', { kind: 'Deployment', name: 'web' }, rs('web-5d4b8')],
    ['v1.32-v1.36 a new replica set "Scaled up replica set X from 0 to N": deployment/sync.go v1.32:278 v1.33:280 v1.34-36:286', 'ScalingReplicaSet', 'Scaled up replica set web-5d4b8 from 0 to 3', { kind: 'Deployment', name: 'web' }, rs('web-5d4b8')],
    ['v1.19-v1.24 "Scaled down replica set X to N": deployment/sync.go v1.19-24:426', 'ScalingReplicaSet', 'Scaled down replica set web-7f9c6 to 2', { kind: 'Deployment', name: 'web' }, rs('web-7f9c6')],
    ['v1.25-v1.31 "Scaled up replica set X to N from M": deployment/sync.go v1.25-26:427 v1.27-31:429', 'ScalingReplicaSet', 'Scaled up replica set web-5d4b8 to 3 from 1', { kind: 'Deployment', name: 'web' }, rs('web-5d4b8')],
    ['v1.25-v1.31 "Scaled down replica set X to N from M"', 'ScalingReplicaSet', 'Scaled down replica set web-7f9c6 to 0 from 1', { kind: 'Deployment', name: 'web' }, rs('web-7f9c6')],
    ['v1.32-v1.36 "Scaled down replica set X from M to N": deployment/sync.go v1.32:426 v1.33:428 v1.34-35:434 v1.36:433', 'ScalingReplicaSet', 'Scaled down replica set web-7f9c6 from 3 to 2', { kind: 'Deployment', name: 'web' }, rs('web-7f9c6')],
    ['both orders at once is no wording', 'ScalingReplicaSet', 'Scaled down replica set web-7f9c6 from 1 to 0 from 1', { kind: 'Deployment', name: 'web' }, null],
    ['ScalingReplicaSet from something not a Deployment', 'ScalingReplicaSet', 'Scaled up replica set web-x from 0 to 1', { kind: 'Pipeline', name: 'web' }, null],
    // statefulset/stateful_pod_control.go: the verb Title-cased from v1.35 (cases.Title v1.35:289 v1.36:337),
    // lower-case before (strings.ToLower v1.19-22:150 v1.23-26:290 v1.27:292 v1.28-30:293 v1.31-34:294).
    ['v1.35-v1.36 a StatefulSet created its pod: stateful_pod_control.go v1.35:288 v1.36:336', 'SuccessfulCreate', 'Create Pod db-0 in StatefulSet db successful', { kind: 'StatefulSet', name: 'db' }, pod('db-0')],
    ['v1.35-v1.36 a StatefulSet deleted its pod', 'SuccessfulDelete', 'Delete Pod db-2 in StatefulSet db successful', { kind: 'StatefulSet', name: 'db' }, pod('db-2')],
    ['v1.35-v1.36 a StatefulSet updated its pod', 'SuccessfulUpdate', 'Update Pod db-1 in StatefulSet db successful', { kind: 'StatefulSet', name: 'db' }, pod('db-1')],
    [
      'v1.35-v1.36 a StatefulSet failed to create its pod: stateful_pod_control.go v1.35:293 v1.36:341',
      'FailedCreate',
      'Create Pod db-1 in StatefulSet db failed error: pods "db-1" is forbidden: exceeded quota',
      { kind: 'StatefulSet', name: 'db' },
      pod('db-1'),
    ],
    ['v1.35-v1.36 a StatefulSet created a claim for a pod: stateful_pod_control.go v1.35:305 v1.36:353', 'SuccessfulCreate', 'Create Claim data-db-0 Pod db-0 in StatefulSet db success', { kind: 'StatefulSet', name: 'db' }, pod('db-0')],
    [
      'v1.35-v1.36 a StatefulSet failed a claim for a pod: stateful_pod_control.go v1.35:310 v1.36:358',
      'FailedCreate',
      'Create Claim data-db-0 for Pod db-0 in StatefulSet db failed error: no storage',
      { kind: 'StatefulSet', name: 'db' },
      pod('db-0'),
    ],
    ['a message naming another StatefulSet names no child', 'SuccessfulCreate', 'Create Pod other-0 in StatefulSet other successful', { kind: 'StatefulSet', name: 'db' }, null],
    ['v1.19-v1.34 a StatefulSet created its pod, verb lower-case: stateful_pod_control.go v1.19-22:149 v1.23-26:289 v1.27:291 v1.28-30:292 v1.31-34:293', 'SuccessfulCreate', 'create Pod ingester-2 in StatefulSet ingester successful', { kind: 'StatefulSet', name: 'ingester' }, pod('ingester-2')],
    ['v1.19-v1.34 a StatefulSet deleted its pod', 'SuccessfulDelete', 'delete Pod ingester-3 in StatefulSet ingester successful', { kind: 'StatefulSet', name: 'ingester' }, pod('ingester-3')],
    ['v1.19-v1.34 a StatefulSet updated its pod', 'SuccessfulUpdate', 'update Pod db-0 in StatefulSet db successful', { kind: 'StatefulSet', name: 'db' }, pod('db-0')],
    ['v1.19-v1.34 a StatefulSet failed to create its pod: stateful_pod_control.go v1.19-22:154 v1.23-26:294 v1.27:296 v1.28-30:297 v1.31-34:298', 'FailedCreate', 'create Pod etcd-1 in StatefulSet etcd failed error: The POST operation against Pod could not be completed at this time, please try again.', { kind: 'StatefulSet', name: 'etcd' }, pod('etcd-1')],
    ['v1.19-v1.34 a StatefulSet created a claim for a pod: stateful_pod_control.go v1.19-22:166 v1.23-26:306 v1.27:308 v1.28-30:309 v1.31-34:310', 'SuccessfulCreate', 'create Claim datadir-etcd-0 Pod etcd-0 in StatefulSet etcd success', { kind: 'StatefulSet', name: 'etcd' }, pod('etcd-0')],
    ['v1.19-v1.34 a StatefulSet failed a claim for a pod: stateful_pod_control.go v1.19-22:171 v1.23-26:311 v1.27:313 v1.28-30:314 v1.31-34:315', 'FailedCreate', 'create Claim data-db-0 for Pod db-0 in StatefulSet db failed error: no storage', { kind: 'StatefulSet', name: 'db' }, pod('db-0')],
    ["v1.19-v1.34 another StatefulSet's lower-case message names no child", 'SuccessfulCreate', 'create Pod other-0 in StatefulSet other successful', { kind: 'StatefulSet', name: 'db' }, null],
    ['a verb in neither case is no verb', 'SuccessfulCreate', 'CREATE Pod db-0 in StatefulSet db successful', { kind: 'StatefulSet', name: 'db' }, null],
    // statefulset/stateful_set_control.go, before a failed or finished Pod is made again (gone from v1.31).
    ['v1.19-v1.30 a StatefulSet recreating a failed pod: stateful_set_control.go v1.19:392 v1.20-21:388 v1.22:396 v1.23:399 v1.24:393 v1.25:395 v1.26:399 v1.27:401 v1.28:381 v1.29:389 v1.30:388', 'RecreatingFailedPod', 'StatefulSet default/ingester is recreating failed Pod ingester-2', { kind: 'StatefulSet', name: 'ingester' }, pod('ingester-2')],
    ['v1.29-v1.30 a StatefulSet recreating a terminated pod: stateful_set_control.go v1.29:395 v1.30:394', 'RecreatingTerminatedPod', 'StatefulSet prod/db is recreating terminated Pod db-1', { kind: 'StatefulSet', name: 'db' }, pod('db-1')],
    ["another StatefulSet's recreation names no child", 'RecreatingFailedPod', 'StatefulSet default/other is recreating failed Pod other-0', { kind: 'StatefulSet', name: 'db' }, null],
    ['a recreation told under the other reason is no wording', 'RecreatingTerminatedPod', 'StatefulSet default/db is recreating failed Pod db-0', { kind: 'StatefulSet', name: 'db' }, null],
    // daemon/daemon_controller.go.
    [
      'v1.19-v1.36 a DaemonSet found a failed pod: daemon_controller.go v1.19-20:847 v1.21:834 v1.22-24:833 v1.25:840 v1.26:814 v1.27:842 v1.28-29:848 v1.30:816 v1.31-32:821 v1.33:845 v1.34:821 v1.35:831 v1.36:886',
      'FailedDaemonPod',
      'Found failed daemon pod kube-system/fluentd-8dk2l on node n1, will try to kill it',
      { kind: 'DaemonSet', name: 'fluentd' },
      pod('fluentd-8dk2l'),
    ],
    [
      'v1.27-v1.36 a DaemonSet found a succeeded pod: daemon_controller.go v1.27:848 v1.28-29:854 v1.30:822 v1.31-32:827 v1.33:851 v1.34:827 v1.35:837 v1.36:892',
      'SucceededDaemonPod',
      'Found succeeded daemon pod ns/fluentd-8dk2l on node n1, will try to delete it',
      { kind: 'DaemonSet', name: 'fluentd' },
      pod('fluentd-8dk2l'),
    ],
    // cronjob/cronjob_controller.go (v1, v1.19-v1.22) and cronjob_controllerv2.go (v1.20 on).
    ['v1.19-v1.36 a CronJob created a job: cronjob_controller.go v1.19:344 v1.20:342 v1.21-22:341; cronjob_controllerv2.go v1.20:565 v1.21:575 v1.22:583 v1.23:596 v1.24-25:614 v1.26-27:616 v1.28:619 v1.29-30:634 v1.31-34:644 v1.35-36:649', 'SuccessfulCreate', 'Created job nightly-29012345', { kind: 'CronJob', name: 'nightly' }, job('nightly-29012345')],
    ['v1.19-v1.36 a CronJob deleted a job: cronjob_controller.go v1.19:383 v1.20:381 v1.21-22:380; cronjob_controllerv2.go v1.23:723 v1.24:744 v1.25:758 v1.26:760 v1.27:723 v1.28:726 v1.29-30:742 v1.31-34:752 v1.35-36:757', 'SuccessfulDelete', 'Deleted job nightly-29012345', { kind: 'CronJob', name: 'nightly' }, job('nightly-29012345')],
    ['v1.31-v1.36 a CronJob saw a job complete ("condition"): cronjob_controllerv2.go v1.31-34:451 v1.35-36:456', 'SawCompletedJob', 'Saw completed job: nightly-29012345, condition: Complete', { kind: 'CronJob', name: 'nightly' }, job('nightly-29012345')],
    ['v1.19-v1.30 a CronJob saw a job complete ("status"): cronjob_controller.go v1.19:237 v1.20:235 v1.21-22:234; cronjob_controllerv2.go v1.20-22:427 v1.23:435 v1.24-25:450 v1.26-28:452 v1.29-30:444', 'SawCompletedJob', 'Saw completed job: nightly-29012345, status: Complete', { kind: 'CronJob', name: 'nightly' }, job('nightly-29012345')],
    ['v1.19-v1.36 a CronJob lost an active job: cronjob_controller.go v1.19:246 v1.20:244 v1.21-22:243; cronjob_controllerv2.go v1.20-21:446 v1.22:454 v1.23:462 v1.24-25:480 v1.26-28:482 v1.29-30:474 v1.31-34:484 v1.35-36:489', 'MissingJob', 'Active job went missing: nightly-29012345', { kind: 'CronJob', name: 'nightly' }, job('nightly-29012345')],
    ["a CronJob's unexpected job is not its child", 'UnexpectedJob', 'Saw a job that the controller did not create or forgot: stray', { kind: 'CronJob', name: 'nightly' }, null],
    ['"Error creating" carries an API error, not a name', 'FailedCreate', 'Error creating: pods "web-x" is forbidden', { kind: 'ReplicaSet', name: 'web' }, null],
    ['a reason the format is not written under', 'Scheduled', 'Created pod: web-x', { kind: 'ReplicaSet', name: 'web' }, null],
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
