// The one list of the controllers' event messages that name a child: how `--tree` still finds a
// Pod, ReplicaSet or Job that no longer exists, from its owner's events. Every wording a controller of
// Kubernetes v1.19 to v1.36 wrote is read (saved files and extended-support clusters are that old).
// Each format below cites where k8s.io/kubernetes wrote it, per version range: "v1.23-26:289" is
// pkg/controller/<file> line 289 in v1.23.0 to v1.26.0 (the module k8s.io/kubernetes@v1.X.0 of each
// minor, read from the Go module proxy); test/unit/core/tree-owner-messages.test.ts has one case per
// wording and version range.
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
// The StatefulSet controller's verb, Title-cased (v1.35 on) or lower-case (v1.19-v1.34): see below.
const VERB = '(?:[Cc]reate|[Uu]pdate|[Dd]elete)';

const OWNER_MESSAGES: readonly OwnerMessage[] = [
  // controller_utils.go, RealPodControl.createPods "Created pod: %v" (newPod.Name): v1.19-20:594
  // v1.21:592 v1.22-27:582 v1.28-29:598 v1.30-32:597 v1.33:607 v1.34:609 v1.35:606 v1.36:614; DeletePod
  // "Deleted pod: %v" (podID): v1.19-20:613 v1.21:611 v1.22-27:601 v1.28-29:618 v1.30-32:617 v1.33:627
  // v1.34:629 v1.35:626 v1.36:634. The same words in every release. RealPodControl is the pod control of
  // the ReplicaSet, ReplicationController, DaemonSet and Job controllers. Its FailedCreate "Error
  // creating: %v" and FailedDelete "Error deleting: %v" carry an API error, not a reliable name: not used.
  { reasons: ['SuccessfulCreate'], owners: null, pattern: new RegExp(`^Created pod: ${NAME}$`), child: POD },
  { reasons: ['SuccessfulDelete'], owners: null, pattern: new RegExp(`^Deleted pod: ${NAME}$`), child: POD },
  // deployment/sync.go, a new ReplicaSet: "Scaled up replica set %s to %d" v1.19-26:277 v1.27-31:278,
  // "Scaled up replica set %s from 0 to %d" v1.32:278 v1.33:280 v1.34-36:286. Scaling an existing one
  // (%s is up or down): "Scaled %s replica set %s to %d" v1.19-24:426, "... to %d from %d" (new, old)
  // v1.25-26:427 v1.27-31:429, "... from %d to %d" (old, new) v1.32:426 v1.33:428 v1.34-35:434 v1.36:433.
  {
    reasons: ['ScalingReplicaSet'],
    owners: ['Deployment'],
    pattern: new RegExp(`^Scaled (?:up|down) replica set ${NAME} (?:from ${INT} to ${INT}|to ${INT}(?: from ${INT})?)$`),
    child: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  },
  // statefulset/stateful_pod_control.go, recordPodEvent: "%s Pod %s in StatefulSet %s successful" (reason
  // Successful<Verb>) v1.19-22:149 v1.23-26:289 v1.27:291 v1.28-30:292 v1.31-34:293 v1.35:288 v1.36:336,
  // and "%s Pod %s in StatefulSet %s failed error: %s" (Failed<Verb>) v1.19-22:154 v1.23-26:294 v1.27:296
  // v1.28-30:297 v1.31-34:298 v1.35:293 v1.36:341. recordClaimEvent: "%s Claim %s Pod %s in StatefulSet
  // %s success" v1.19-22:166 v1.23-26:306 v1.27:308 v1.28-30:309 v1.31-34:310 v1.35:305 v1.36:353, and
  // "%s Claim %s for Pod %s in StatefulSet %s failed error: %s" v1.19-22:171 v1.23-26:311 v1.27:313
  // v1.28-30:314 v1.31-34:315 v1.35:310 v1.36:358. The verb (%s) is strings.ToLower(verb) in v1.19-v1.34
  // ("create Pod ingester-2 in StatefulSet ingester successful", a 2021 cluster's; ToLower at
  // v1.19-22:150 v1.23-26:290 v1.27:292 v1.28-30:293 v1.31-34:294) and cases.Title(language.English)
  // from v1.35.0 on ("Create Pod ...": v1.35:289 v1.36:337; v1.34.0 still lower-cases).
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
  // statefulset/stateful_set_control.go, before deleting a failed or finished Pod to make it again:
  // RecreatingFailedPod "StatefulSet %s/%s is recreating failed Pod %s" v1.19:392 v1.20-21:388 v1.22:396
  // v1.23:399 v1.24:393 v1.25:395 v1.26:399 v1.27:401 v1.28:381 v1.29:389 v1.30:388, RecreatingTerminatedPod
  // "StatefulSet %s/%s is recreating terminated Pod %s" v1.29:395 v1.30:394 (namespace, set, pod). Gone
  // from v1.31 (the deletion's "Delete Pod ..." above tells it).
  ...(
    [
      ['RecreatingFailedPod', 'failed'],
      ['RecreatingTerminatedPod', 'terminated'],
    ] as const
  ).map(([reason, state]) => ({
    reasons: [reason],
    owners: ['StatefulSet'],
    pattern: new RegExp(`^StatefulSet [a-z0-9][-a-z0-9]*/${OWNER} is recreating ${state} Pod ${NAME}$`),
    child: POD,
  })),
  // daemon/daemon_controller.go: FailedDaemonPod "Found failed daemon pod %s/%s on node %s, will try to
  // kill it" v1.19-20:847 v1.21:834 v1.22-24:833 v1.25:840 v1.26:814 v1.27:842 v1.28-29:848 v1.30:816
  // v1.31-32:821 v1.33:845 v1.34:821 v1.35:831 v1.36:886; SucceededDaemonPod "Found succeeded daemon pod
  // %s/%s on node %s, will try to delete it" v1.27:848 v1.28-29:854 v1.30:822 v1.31-32:827 v1.33:851
  // v1.34:827 v1.35:837 v1.36:892. The DaemonSet's creations and deletions are RealPodControl's above.
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
  // The CronJob controller: cronjob/cronjob_controller.go (v1, v1.19-v1.22) and cronjob_controllerv2.go
  // (v1.20 on; the default from v1.21). "Created job %v": v1 v1.19:344 v1.20:342 v1.21-22:341, v2 v1.20:565
  // v1.21:575 v1.22:583 v1.23:596 v1.24-25:614 v1.26-27:616 v1.28:619 v1.29-30:634 v1.31-34:644
  // v1.35-36:649. "Deleted job %v": v1 v1.19:383 v1.20:381 v1.21-22:380 (v2 called it up to v1.22), v2
  // v1.23:723 v1.24:744 v1.25:758 v1.26:760 v1.27:723 v1.28:726 v1.29-30:742 v1.31-34:752 v1.35-36:757.
  // "Saw completed job: %s, status: %v": v1 v1.19:237 v1.20:235 v1.21-22:234, v2 v1.20-22:427 v1.23:435
  // v1.24-25:450 v1.26-28:452 v1.29-30:444; "Saw completed job: %s, condition: %v" v2 v1.31-34:451
  // v1.35-36:456. "Active job went missing: %v": v1 v1.19:246 v1.20:244 v1.21-22:243, v2 v1.20-21:446
  // v1.22:454 v1.23:462 v1.24-25:480 v1.26-28:482 v1.29-30:474 v1.31-34:484 v1.35-36:489. Its
  // UnexpectedJob names a Job it did not create (not a child), its FailedDelete ("Deleted job: %v") an
  // error: not used.
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
