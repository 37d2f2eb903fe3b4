// What a cause is: one thing that went wrong, what it is known from, and how sure the account is.
// Plain data (epoch ms, strings, numbers); the sentences are in src/render/causes-text.ts.

/** `stated`: a status field or an event says so; `probably`: inferred from several of them. */
type Certainty = 'stated' | 'probably';

/** Where one piece of evidence was read: a field of an object, an event, or the previous container's log. */
export interface Evidence {
  from: 'field' | 'event' | 'log';
  /** Kind/name of the object it was read from */
  object: string;
  namespace: string;
  /** a field path (`status.containerStatuses[app].lastState.terminated.reason`), the event's name, or `pods/log?previous=true` */
  path: string;
  /** what it says, as written (untrusted text: escaped where it is printed) */
  value: string;
}

export interface ResourceShortfall {
  resource: string;
  /** what the Pod requests, in the resource's base unit (cores, bytes) */
  requested: number | null;
  /** the node with the most free, and how much it has free of its allocatable; absent without Node facts */
  best?: { node: string; free: number; allocatable: number };
}

export type CauseDetail =
  | { kind: 'oom-killed'; container: string; exitCode: number | null; limit: string | null; restarts: number; finishedAt: number | null }
  | {
      kind: 'exits';
      container: string;
      exitCode: number | null;
      signal: number | null;
      /** the signal an exit code above 128 stands for, by the shell's convention (inferred) */
      signalFromCode: number | null;
      reason: string;
      message: string;
      restarts: number;
      crashLoop: boolean;
      lastWords: string[];
    }
  | { kind: 'image-pull'; container: string; image: string; reason: string; message: string }
  | { kind: 'missing-config'; container: string; missing: 'configmap' | 'secret'; name: string; key: string | null; message: string }
  | { kind: 'probe'; container: string; probe: 'liveness' | 'readiness' | 'startup'; failures: number; threshold: number | null; restarts: number; killed: boolean; expected: boolean; output: string }
  | {
      kind: 'unschedulable';
      nodes: number | null;
      /** the scheduler's reasons with their node counts, as it wrote them */
      reasons: { count: number | null; text: string }[];
      shortfalls: ResourceShortfall[];
      /** untolerated taints of the nodes, when the Nodes were read */
      taints: { node: string; key: string; value: string; effect: string }[];
      unschedulableNodes: string[];
      unboundClaims: { name: string; phase: string; storageClass: string }[];
    }
  | {
      kind: 'node-lost';
      node: string;
      /** epoch ms the node went NotReady/Unknown, when known */
      since: number | null;
      status: string;
      conditionReason: string;
      taint: { key: string; effect: string; timeAdded: number | null } | null;
      /** namespace/name of the Pods it lost, byte order */
      pods: string[];
      ready: boolean;
    }
  | { kind: 'create-refused'; message: string; quota: { name: string; requested: string; used: string; limited: string } | null; hard: Record<string, string> | null }
  | { kind: 'progress-deadline'; message: string; deadlineSeconds: number | null }
  | { kind: 'backoff-limit'; backoffLimit: number | null; failed: number; message: string; exits: { pod: string; container: string; exitCode: number | null; reason: string }[] };

export type CauseKind = CauseDetail['kind'];

export interface Cause {
  certainty: Certainty;
  /** the object the cause is about; `context`: several contexts read together, the one it is in */
  object: { kind: string; name: string; namespace: string; context?: string };
  /** other objects with the same cause (siblings of one owner), folded into this one */
  alike: string[];
  /** epoch ms of the last sign of it; null when unknown */
  at: number | null;
  detail: CauseDetail;
  evidence: Evidence[];
  /** the names of the events it explains (HTML links, -o json) */
  events: string[];
}
