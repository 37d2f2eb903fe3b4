// The one list of the controllers' event messages that name a child: how `--tree` still finds a
// Pod, ReplicaSet or Job that no longer exists, from its owner's events. Every wording a controller of
// Kubernetes v1.19 to v1.36 wrote is read (saved files and extended-support clusters are that old); the
// file:line beside each is where k8s.io/kubernetes v1.36.3 writes it, the version ranges say where
// older releases wrote it otherwise (test/unit/core/tree-owner-messages.test.ts has one case per wording).
// Event text is untrusted: a name is taken only when it is a name the API server could hold.

/** A child an owner's event names. */
export interface NamedChild {
  apiVersion: string;
  kind: string;
  name: string;
}

interface OwnerMessage {
  /** the event's reasons this format is written under */
  reasons: readonly string[];
  /** the Kinds of the owners that write it; null: any (RealPodControl serves several controllers) */
  owners: readonly string[] | null;
  /** the whole message; the `name` group is the child's name, `owner` (when present) the owner's own */
  pattern: RegExp;
  child: { apiVersion: string; kind: string };
}

const POD = { apiVersion: 'v1', kind: 'Pod' };

// A DNS-1123 subdomain (what metadata.name of a Pod, ReplicaSet or Job is): lower-case letters,
// digits, '-' and '.', at most 253 characters. Anything else in a message is not a name we trust.
const NAME = String.raw`(?<name>[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?)`;
const OWNER = String.raw`(?<owner>[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?)`;
const INT = String.raw`-?\d+`;
// The StatefulSet controller's verb, Title-cased (v1.35 on) or lower-case (v1.19-v1.34).
const VERB = '(?:[Cc]reate|[Uu]pdate|[Dd]elete)';

const OWNER_MESSAGES: readonly OwnerMessage[] = [
  // pkg/controller/controller_utils.go:614 (RealPodControl.createPods) and :634 (DeletePod), the same
  // words in every release since v1.19. RealPodControl
  // is the pod control of the ReplicaSet (replicaset/replica_set.go:191), ReplicationController
  // (replication/replication_controller.go:62), DaemonSet (daemon/daemon_controller.go:198) and Job
  // (job/job_controller.go:256) controllers. Its FailedCreate "Error creating: %v" and FailedDelete
  // "Error deleting: %v" (:600, :631) carry an API error, not a reliable name: not used.
  { reasons: ['SuccessfulCreate'], owners: null, pattern: new RegExp(`^Created pod: ${NAME}$`), child: POD },
  { reasons: ['SuccessfulDelete'], owners: null, pattern: new RegExp(`^Deleted pod: ${NAME}$`), child: POD },
  // pkg/controller/deployment/sync.go:286 "Scaled up replica set %s from 0 to %d" (a new ReplicaSet)
  // and :433 "Scaled %s replica set %s from %d to %d" (%s up or down), the order since PR #125118 (v1.31).
  // v1.19-v1.25 wrote "Scaled %s replica set %s to %d" (sync.go scaleReplicaSet, and "Scaled up replica
  // set %s to %d" for a new one); PR #101142 (v1.26-v1.30) appended the old size: "... to %d from %d".
  {
    reasons: ['ScalingReplicaSet'],
    owners: ['Deployment'],
    pattern: new RegExp(`^Scaled (?:up|down) replica set ${NAME} (?:from ${INT} to ${INT}|to ${INT}(?: from ${INT})?)$`),
    child: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  },
  // pkg/controller/statefulset/stateful_pod_control.go:336 "%s Pod %s in StatefulSet %s successful" (reason
  // Successful<Verb>) and :341 "%s Pod %s in StatefulSet %s failed error: %s" (Failed<Verb>). The claim
  // events (:353, :358) name the Pod too, after the claim. v1.36 Title-cases the verb (Create, Update,
  // Delete: cases.Title, PR #133179); v1.19 to v1.34 wrote it lower-case (recordPodEvent's
  // strings.ToLower(verb): "create Pod ingester-2 in StatefulSet ingester successful", a 2021 cluster's).
  {
    reasons: ['SuccessfulCreate', 'SuccessfulUpdate', 'SuccessfulDelete'],
    owners: ['StatefulSet'],
    pattern: new RegExp(`^${VERB} Pod ${NAME} in StatefulSet ${OWNER} successful$`),
    child: POD,
  },
  {
    reasons: ['FailedCreate', 'FailedUpdate', 'FailedDelete'],
    owners: ['StatefulSet'],
    pattern: new RegExp(`^${VERB} Pod ${NAME} in StatefulSet ${OWNER} failed error: [\\s\\S]*$`),
    child: POD,
  },
  {
    reasons: ['SuccessfulCreate', 'SuccessfulUpdate', 'SuccessfulDelete'],
    owners: ['StatefulSet'],
    pattern: new RegExp(`^${VERB} Claim \\S+ Pod ${NAME} in StatefulSet ${OWNER} success$`),
    child: POD,
  },
  {
    reasons: ['FailedCreate', 'FailedUpdate', 'FailedDelete'],
    owners: ['StatefulSet'],
    pattern: new RegExp(`^${VERB} Claim \\S+ for Pod ${NAME} in StatefulSet ${OWNER} failed error: [\\s\\S]*$`),
    child: POD,
  },
  // pkg/controller/daemon/daemon_controller.go:886 (event :889) and :892 (event :895): "Found failed daemon pod %s/%s on node %s,
  // will try to kill it" (FailedDaemonPod), "Found succeeded daemon pod %s/%s on node %s, will try to
  // delete it" (SucceededDaemonPod); the DaemonSet's creations and deletions are RealPodControl's above.
  {
    reasons: ['FailedDaemonPod'],
    owners: ['DaemonSet'],
    pattern: new RegExp(`^Found failed daemon pod [a-z0-9][-a-z0-9]*/${NAME} on node \\S+, will try to kill it$`),
    child: POD,
  },
  {
    reasons: ['SucceededDaemonPod'],
    owners: ['DaemonSet'],
    pattern: new RegExp(`^Found succeeded daemon pod [a-z0-9][-a-z0-9]*/${NAME} on node \\S+, will try to delete it$`),
    child: POD,
  },
  // pkg/controller/cronjob/cronjob_controllerv2.go:649 "Created job %v", :757 "Deleted job %v", :456
  // "Saw completed job: %s, condition: %v", :489 "Active job went missing: %v". Its UnexpectedJob (:447)
  // names a Job it did not create (not a child), its FailedDelete (:751) an error: not used. From v1.19
  // (PR #75712, in the v1 controller cronjob_controller.go and the v2 alike) until the Job's condition
  // took its place, SawCompletedJob said "Saw completed job: %s, status: %v"; the other three read the
  // same in every release.
  ...(
    [
      ['SuccessfulCreate', `^Created job ${NAME}$`],
      ['SuccessfulDelete', `^Deleted job ${NAME}$`],
      ['SawCompletedJob', `^Saw completed job: ${NAME}, (?:condition|status): [\\s\\S]*$`],
      ['MissingJob', `^Active job went missing: ${NAME}$`],
    ] as const
  ).map(([reason, pattern]) => ({ reasons: [reason], owners: ['CronJob'], pattern: new RegExp(pattern), child: { apiVersion: 'batch/v1', kind: 'Job' } })),
];

// client-go's EventCorrelator (tools/record/events_cache.go:183) folds the 11th and later events of one
// object, reason and type within 10 minutes into one, its message the latest one's with this prefix:
// a ReplicaSet creating 50 pods tells the last 40 as one "(combined from similar events): Created pod: X".
const COMBINED = '(combined from similar events): ';

/** The name length limit of a DNS-1123 subdomain (a Pod's, a ReplicaSet's, a Job's). */
const MAX_NAME = 253;

/**
 * The child an owner's event names, or null: the event's reason and message, and the Kind and name
 * of the object the event is about (the owner). A message naming another StatefulSet than the one
 * the event is about names no child of it.
 */
export function childNamedBy(reason: string, text: string, owner: { kind: string; name: string }): NamedChild | null {
  const message = text.startsWith(COMBINED) ? text.slice(COMBINED.length) : text;
  for (const format of OWNER_MESSAGES) {
    if (!format.reasons.includes(reason)) continue;
    if (format.owners !== null && !format.owners.includes(owner.kind)) continue;
    const groups = format.pattern.exec(message)?.groups;
    const name = groups?.name;
    if (name === undefined || name.length > MAX_NAME) continue;
    if (groups?.owner !== undefined && groups.owner !== owner.name) continue;
    return { ...format.child, name };
  }
  return null;
}
