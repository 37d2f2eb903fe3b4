// One object's story as the incident tells it: the reports of the events about it, in time order.
// Shared by the account (core/incident.ts), its families (core/families.ts) and its tree
// (core/tree-story.ts); a module of its own so none of them imports another back.
import type { Incarnation } from './incarnation.ts';
import type { TreeNode } from './ownership.ts';

/** One event as said about its object. Fields the input does not carry are null, never guessed. */
export interface Report {
  /** the Event's own name; '' when the input names none */
  event: string;
  reporter: string | null;
  reason: string;
  type: string;
  conventionalType: boolean;
  count: number | null;
  /** epoch ms */
  firstSeen: number | null;
  lastSeen: number | null;
  /**
   * lastSeen - firstSeen in ms: the span the repeats fill. Not what kubectl's `(x5 over 2m)` says
   * (that is the age of the first occurrence), so the text never calls it "over".
   */
  spanMs: number | null;
  message: string | null;
  /** not Normal: the message explains what went wrong, so it is quoted first */
  decisive: boolean;
  /** with --compare: false when the server no longer has the event (absent when not compared or no uid) */
  onServer?: boolean;
}

export interface ObjectStory {
  kind: string;
  name: string;
  namespace: string;
  uid: string | null;
  /** several contexts read together: the context the object is in */
  context?: string;
  /** which incarnation of Kind/name this uid is, when the live object was looked up */
  incarnation?: Incarnation;
  /** in time order: first seen, then last seen */
  reports: Report[];
  /** with a tree: where the object sits in it, root first and the object last; absent outside the tree or without one */
  chain?: TreeNode[];
}
