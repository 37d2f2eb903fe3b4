// Which events a read verb shows: --for KIND/NAME, then the selection criteria (types, reasons,
// messages, fields, labels, a time window, start-up probes below their threshold), each counted
// when it hides an event so the reader is told what was left out.

import type { Event } from './event.ts';
import { groupOf } from './identity.ts';
import { matchesFields, matchesLabels } from './selectors.ts';
import type { FieldTerm, LabelRequirement } from './selectors.ts';
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
  excludeTypes?: string[];
  excludeReasons?: string[];
  /** kept when the message matches */
  message?: RegExp;
  /** hidden when the message matches */
  excludeMessage?: RegExp;
  /** the event's selectable fields (applied here where the server did not apply them) */
  fields?: FieldTerm[];
  /** the labels of the event's object */
  labels?: LabelRequirement[];
  /** epoch ms: kept when last seen at or after it */
  sinceTime?: number;
  /** epoch ms: kept when first seen at or before it */
  until?: number;
  /** hide a start-up probe's Unhealthy while its container was never killed for it (core/startup-probes.ts) */
  hideStartupProbes?: boolean;
}

/** The criteria that hide events, in the order the footer names them; each hidden event is counted under the first that hides it. */
const CRITERIA = [
  'types',
  'excludeTypes',
  'reasons',
  'excludeReasons',
  'message',
  'excludeMessage',
  'fields',
  'labels',
  'since',
  'sinceTime',
  'until',
  'startupProbes',
] as const;
export type Criterion = (typeof CRITERIA)[number];

/** How many events a criterion hid. */
export interface Hidden {
  criterion: Criterion;
  events: number;
}

/** What some criteria need beyond the event itself. */
export interface FilterContext {
  /** the labels of an event's object; undefined: not known (the event then fails a label selector) */
  labelsOf?: (ev: Event) => Readonly<Record<string, string>> | undefined;
  /** whether an event is a start-up probe's Unhealthy below its threshold (core/startup-probes.ts) */
  startupBelowThreshold?: (ev: Event) => boolean;
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

/** The selectable fields of an event as the API server computes them (pkg/registry/core/event/strategy.go ToSelectableFields). */
function eventFields(ev: Event): Record<string, string> {
  return {
    'involvedObject.kind': ev.object.kind,
    'involvedObject.namespace': ev.object.namespace,
    'involvedObject.name': ev.object.name,
    'involvedObject.uid': ev.object.uid,
    'involvedObject.apiVersion': ev.object.apiVersion,
    // not kept by the normalised event: matches only the empty value
    'involvedObject.resourceVersion': '',
    'involvedObject.fieldPath': ev.object.fieldPath,
    reason: ev.reason,
    // the server: reportingController; source: source.component, else reportingController. One reporter here.
    reportingComponent: ev.reporter,
    source: ev.reporter,
    type: ev.type,
    'metadata.namespace': ev.namespace,
    'metadata.name': ev.name,
  };
}

/** The first criterion that hides the event, or null when it is kept. --for is not one of them: it chooses the story. */
function hiddenBy(ev: Event, filter: EventFilter, now: number, ctx: FilterContext = {}): Criterion | null {
  const { types, reasons, sinceMs, excludeTypes, excludeReasons, message, excludeMessage, fields, labels, sinceTime, until } = filter;
  if (types && types.length > 0 && !includesFolded(types, ev.type)) return 'types';
  if (excludeTypes && includesFolded(excludeTypes, ev.type)) return 'excludeTypes';
  if (reasons && reasons.length > 0 && !includesFolded(reasons, ev.reason)) return 'reasons';
  if (excludeReasons && includesFolded(excludeReasons, ev.reason)) return 'excludeReasons';
  if (message && !message.test(ev.message)) return 'message';
  if (excludeMessage?.test(ev.message)) return 'excludeMessage';
  if (fields && fields.length > 0 && !matchesFields(fields, eventFields(ev))) return 'fields';
  if (labels && labels.length > 0) {
    const known = ctx.labelsOf?.(ev);
    if (known === undefined || !matchesLabels(labels, known)) return 'labels';
  }
  if (sinceMs !== undefined && (ev.lastSeen === null || ev.lastSeen < now - sinceMs)) return 'since';
  if (sinceTime !== undefined && (ev.lastSeen === null || ev.lastSeen < sinceTime)) return 'sinceTime';
  if (until !== undefined && (ev.firstSeen === null || ev.firstSeen > until)) return 'until';
  if (filter.hideStartupProbes === true && ctx.startupBelowThreshold?.(ev) === true) return 'startupProbes';
  return null;
}

/**
 * Keeps the events that pass every given criterion, in the order given. Types and reasons compare
 * case-insensitively like kubectl's --types (strings.EqualFold), but unlike kubectl any type may be
 * asked for, so `Critical` events stay reachable. --since keeps events last seen inside the window;
 * an event with no time at all cannot be shown to be inside it and is left out.
 */
export function filterEvents(events: Event[], filter: EventFilter, now: number, ctx: FilterContext = {}): Event[] {
  return filterCounted(events, filter, now, ctx).events;
}

/** How many events each criterion hid, given each hidden event's criterion once (in CRITERIA order, only those that hid any). */
export function countHidden(verdicts: Iterable<Criterion | null>): Hidden[] {
  const counts = new Map<Criterion, number>();
  for (const c of verdicts) if (c !== null) counts.set(c, (counts.get(c) ?? 0) + 1);
  return CRITERIA.flatMap((criterion) => (counts.has(criterion) ? [{ criterion, events: counts.get(criterion) ?? 0 }] : []));
}

/** Counts of hidden events added up per criterion (in CRITERIA order). */
export function addHidden(...lists: Hidden[][]): Hidden[] {
  const counts = new Map<Criterion, number>();
  for (const list of lists) for (const h of list) counts.set(h.criterion, (counts.get(h.criterion) ?? 0) + h.events);
  return CRITERIA.flatMap((criterion) => (counts.has(criterion) ? [{ criterion, events: counts.get(criterion) ?? 0 }] : []));
}

/** filterEvents, and how many events each criterion hid (only those that hid any, in CRITERIA order). */
export function filterCounted(events: Event[], filter: EventFilter, now: number, ctx: FilterContext = {}): { events: Event[]; hidden: Hidden[] } {
  const counts = new Map<Criterion, number>();
  const kept = events.filter((ev) => {
    if (filter.object && !isSelected(filter.object, ev.object)) return false;
    const by = hiddenBy(ev, filter, now, ctx);
    if (by !== null) counts.set(by, (counts.get(by) ?? 0) + 1);
    return by === null;
  });
  return { events: kept, hidden: CRITERIA.flatMap((criterion) => (counts.has(criterion) ? [{ criterion, events: counts.get(criterion) ?? 0 }] : [])) };
}

/**
 * What a read verb shows: each event once (by uid), those the filter keeps, in timeline order.
 * `distinct`: the events are already one each (SourceRead.distinct), as they are by the hundred
 * thousand from a record: no map of every uid is built to find nothing.
 */
export function selectEvents(events: Event[], filter: EventFilter, now: number, distinct = false, ctx: FilterContext = {}): Event[] {
  return selectCounted(events, filter, now, distinct, ctx).events;
}

/** selectEvents, and what each criterion hid. */
export function selectCounted(events: Event[], filter: EventFilter, now: number, distinct = false, ctx: FilterContext = {}): { events: Event[]; hidden: Hidden[] } {
  const one = distinct ? events : dedupeByUid(events);
  // No criterion, nothing to filter: sortTimeline copies anyway, and a copy of 200,000 events grows
  // in V8's large-object space, which only a full collection frees (a record's table peaked on it).
  if (!hasCriteria(filter)) return { events: sortTimeline(one), hidden: [] };
  const { events: kept, hidden } = filterCounted(one, filter, now, ctx);
  return { events: sortTimeline(kept), hidden };
}

/** Whether a criterion needs each event whole (its message, fields, times or neighbours), not its `<type> <reason> <Kind>/<name>` line. */
export function looksAtEachEvent(filter: EventFilter): boolean {
  const values = [filter.sinceMs, filter.message, filter.excludeMessage, filter.sinceTime, filter.until];
  return values.some((v) => v !== undefined) || (filter.fields?.length ?? 0) > 0 || (filter.labels?.length ?? 0) > 0 || filter.hideStartupProbes === true;
}

/** Whether any criterion is given (a filter of only empty lists filters nothing). */
function hasCriteria(filter: EventFilter): boolean {
  const lists = [filter.types, filter.reasons, filter.excludeTypes, filter.excludeReasons, filter.fields, filter.labels];
  const values = [filter.object, filter.sinceMs, filter.message, filter.excludeMessage, filter.sinceTime, filter.until];
  return lists.some((l) => (l?.length ?? 0) > 0) || values.some((v) => v !== undefined) || filter.hideStartupProbes === true;
}
