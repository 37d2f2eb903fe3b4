// Which events a read verb shows: --for KIND/NAME, --types, --reasons, --since.

import type { Event } from './event.ts';
import { groupOf } from './resources.ts';
import { dedupeByUid, sortTimeline } from './timeline.ts';

/**
 * The object of `--for TYPE/NAME`. Without `group`, `kind` is the TYPE as typed and matched offline
 * (matchesType); with `group` (resolved through discovery, core/resources.ts), `kind` is the Kind
 * itself and an event must be about that Kind of that group.
 */
export interface ObjectSelector {
  kind: string;
  name: string;
  group?: string;
}

export interface EventFilter {
  object?: ObjectSelector;
  types?: string[];
  reasons?: string[];
  sinceMs?: number;
}

// A Kind, a resource plural, a singular or a short name, optionally group-qualified: `kubectl
// events --for` hands the text before the slash to the REST mapper through schema.ParseResourceArg,
// so `pipelines.ev.labhub.io/x`, `Pipeline.ev.labhub.io/x` and `pipelines.v1.ev.labhub.io/x` work there.
const KIND_TOKEN = /^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z0-9-]*)*$/;

/**
 * Parses `KIND/NAME` as `kubectl events --for` does: exactly one slash, anything else is null.
 * The kind is kept as typed; matching is case-insensitive (see matchesKind).
 */
export function parseObjectRef(text: string): ObjectSelector | null {
  const parts = text.trim().split('/');
  if (parts.length !== 2) return null;
  const [kind = '', name = ''] = parts;
  if (!KIND_TOKEN.test(kind) || name === '') return null;
  return { kind, name };
}

// The short names the API server gives its built-in resources (`kubectl api-resources`, Kubernetes
// v1.36), by Kind. Custom resources' short names (a CRD's spec.names.shortNames) need discovery.
const SHORT_NAMES: Record<string, string> = {
  cm: 'ConfigMap',
  cj: 'CronJob',
  crd: 'CustomResourceDefinition',
  crds: 'CustomResourceDefinition',
  cs: 'ComponentStatus',
  csr: 'CertificateSigningRequest',
  deploy: 'Deployment',
  ds: 'DaemonSet',
  ep: 'Endpoints',
  ev: 'Event',
  hpa: 'HorizontalPodAutoscaler',
  ing: 'Ingress',
  ip: 'IPAddress',
  limits: 'LimitRange',
  netpol: 'NetworkPolicy',
  no: 'Node',
  ns: 'Namespace',
  pc: 'PriorityClass',
  pdb: 'PodDisruptionBudget',
  po: 'Pod',
  pv: 'PersistentVolume',
  pvc: 'PersistentVolumeClaim',
  quota: 'ResourceQuota',
  rc: 'ReplicationController',
  rs: 'ReplicaSet',
  sa: 'ServiceAccount',
  sc: 'StorageClass',
  sts: 'StatefulSet',
  svc: 'Service',
  vac: 'VolumeAttributesClass',
};

/**
 * kubectl resolves the --for token through the REST mapper, which lower-cases it and accepts the
 * resource plural, the singular (the lower-cased Kind) or a short name. Offline we have only the
 * Kind, so we accept the Kind in any case, the usual English plurals of it (pods, ingresses,
 * networkpolicies) and the short names of the built-in Kinds (po, deploy, svc).
 */
export function matchesKind(token: string, kind: string): boolean {
  const t = token.toLowerCase();
  const k = kind.toLowerCase();
  if (k === '') return false;
  if (t === k || t === `${k}s` || t === `${k}es`) return true;
  if (Object.hasOwn(SHORT_NAMES, t) && SHORT_NAMES[t]?.toLowerCase() === k) return true;
  return k.endsWith('y') && t === `${k.slice(0, -1)}ies`;
}

/**
 * Offline (no discovery): the TYPE of `--for` against an event's object. A bare TYPE matches the
 * Kind as matchesKind does; `type.group` also needs the object's group, and `type.version.group`
 * its apiVersion, to be the ones named (the two readings schema.ParseResourceArg gives a dotted TYPE).
 */
export function matchesType(token: string, kind: string, apiVersion: string): boolean {
  const [type = '', ...rest] = token.toLowerCase().split('.');
  if (rest.length === 0) return matchesKind(type, kind);
  if (!matchesKind(type, kind)) return false;
  const [version = '', ...groupParts] = rest;
  const group = groupParts.join('.');
  // `Pod.v1.` names the core group, whose apiVersion is the bare version.
  if (groupParts.length > 0 && apiVersion === (group === '' ? version : `${group}/${version}`)) return true;
  return groupOf(apiVersion) === rest.join('.');
}

/** Whether an object (an event's, or one of a namespace's objects) is the one `--for` names. */
export function isSelected(selector: ObjectSelector, object: { kind: string; apiVersion: string; name: string }): boolean {
  if (object.name !== selector.name) return false;
  if (selector.group === undefined) return matchesType(selector.kind, object.kind, object.apiVersion);
  return object.kind === selector.kind && groupOf(object.apiVersion) === selector.group;
}

function includesFolded(values: string[], value: string): boolean {
  const v = value.toLowerCase();
  return values.some((x) => x.toLowerCase() === v);
}

/**
 * Keeps the events that pass every given criterion, in the order given. Types and reasons compare
 * case-insensitively like kubectl's --types (strings.EqualFold), but unlike kubectl any type may be
 * asked for, so `Critical` events stay reachable. --since keeps events last seen inside the window;
 * an event with no time at all cannot be shown to be inside it and is left out.
 */
export function filterEvents(events: Event[], filter: EventFilter, now: number): Event[] {
  const { object, types, reasons, sinceMs } = filter;
  return events.filter((ev) => {
    if (object && !isSelected(object, ev.object)) return false;
    if (types && types.length > 0 && !includesFolded(types, ev.type)) return false;
    if (reasons && reasons.length > 0 && !includesFolded(reasons, ev.reason)) return false;
    if (sinceMs !== undefined && (ev.lastSeen === null || ev.lastSeen < now - sinceMs)) return false;
    return true;
  });
}

/**
 * What a read verb shows: each event once (by uid), those the filter keeps, in timeline order.
 * `distinct`: the events are already one each (SourceRead.distinct), as they are by the hundred
 * thousand from a record: no map of every uid is built to find nothing.
 */
export function selectEvents(events: Event[], filter: EventFilter, now: number, distinct = false): Event[] {
  const one = distinct ? events : dedupeByUid(events);
  // No criterion, nothing to filter: sortTimeline copies anyway, and a copy of 200,000 events grows
  // in V8's large-object space, which only a full collection frees (a record's table peaked on it).
  return sortTimeline(hasCriteria(filter) ? filterEvents(one, filter, now) : one);
}

function hasCriteria({ object, types, reasons, sinceMs }: EventFilter): boolean {
  return Boolean(object) || (types?.length ?? 0) > 0 || (reasons?.length ?? 0) > 0 || sinceMs !== undefined;
}
