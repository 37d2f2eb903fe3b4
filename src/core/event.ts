// One normalised event over both Events APIs and every saved form.
// The core/v1 view of the shared store already carries the events.k8s.io/v1
// fields (eventTime, series, reportingComponent, ...), so one function settles
// every event whichever API or file it came from.

export interface ObjectRef {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
  uid: string;
  fieldPath: string;
}

export interface Event {
  uid: string;
  name: string;
  namespace: string;
  resourceVersion: string;
  type: string;
  reason: string;
  message: string;
  action: string;
  object: ObjectRef;
  /** reportingController (core/v1 JSON: reportingComponent), else source.component */
  reporter: string;
  /** reportingInstance, else source.host */
  instance: string;
  /** series.count, else count, else 1 */
  count: number;
  /** epoch ms: eventTime, else firstTimestamp, else creationTimestamp; null when none parses */
  firstSeen: number | null;
  /** epoch ms: series.lastObservedTime, else lastTimestamp, else firstSeen */
  lastSeen: number | null;
  /** events.k8s.io/v1 style: the event carries eventTime or series, so count/lastTimestamp are not its counters */
  seriesStyle: boolean;
  /** read from several contexts at once (--context a,b, --contexts, --all-contexts): the one it came from */
  cluster?: EventCluster;
}

/** The kubeconfig context an event was read through and its API server; one object shared by that context's events. */
export interface EventCluster {
  context: string;
  server: string;
}

import { asObject, asString } from './json.ts';
import type { Json } from './json.ts';

// Go's zero time (0001-01-01T00:00:00Z) is what an unset timestamp serialises to in some clients.
const ZERO_TIME_LIMIT = Date.parse('0001-01-01T00:00:01Z');

/** Accepts RFC 3339 strings (with or without fractions) and Date objects; anything else is null. */
export function parseTime(value: unknown): number | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.getTime();
  if (typeof value !== 'string' || value === '') return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms) || ms <= ZERO_TIME_LIMIT) return null;
  return ms;
}

function positiveInt(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

function objectRef(value: unknown): ObjectRef {
  const o = asObject(value);
  return {
    apiVersion: asString(o.apiVersion),
    kind: asString(o.kind),
    name: asString(o.name),
    namespace: asString(o.namespace),
    uid: asString(o.uid),
    fieldPath: asString(o.fieldPath),
  };
}

// Field names only the events.k8s.io/v1 view uses (core/v1 JSON says reportingComponent, not reportingController).
const NEW_API_ONLY_FIELDS = [
  'regarding',
  'note',
  'deprecatedSource',
  'deprecatedCount',
  'deprecatedFirstTimestamp',
  'deprecatedLastTimestamp',
  'reportingController',
];

/** True when the raw object is an events.k8s.io/v1 view (regarding/note/deprecated* names). */
function isNewApiView(raw: Json): boolean {
  return asString(raw.apiVersion).startsWith('events.k8s.io/') || NEW_API_ONLY_FIELDS.some((key) => key in raw);
}

/**
 * The core/v1 view of a raw event, as the API server converts an events.k8s.io/v1 Event
 * (kubernetes/kubernetes pkg/apis/events/v1/conversion.go:26-40, Convert_v1_Event_To_core_Event:
 * regarding, note, deprecatedSource/Count/FirstTimestamp/LastTimestamp become involvedObject,
 * message, source, count, firstTimestamp, lastTimestamp; reportingController is core/v1 JSON's
 * reportingComponent; eventTime, series, action, reason, type, related, reportingInstance and the
 * metadata are the same fields). Both views are one stored object, so this is what a core/v1 reader
 * gets for it: the Collector's k8s_events receiver watches core/v1 only (contrib
 * receiver/k8seventsreceiver v0.111.0 receiver.go:127-131). A core/v1 object is returned as it is.
 */
export function coreV1View(input: unknown): Json {
  const raw = asObject(input);
  if (!isNewApiView(raw)) return raw;
  const {
    regarding,
    note,
    deprecatedSource,
    deprecatedCount,
    deprecatedFirstTimestamp,
    deprecatedLastTimestamp,
    reportingController,
    ...same
  } = raw;
  const renamed: Json = {
    involvedObject: regarding,
    message: note,
    source: deprecatedSource,
    count: deprecatedCount,
    firstTimestamp: deprecatedFirstTimestamp,
    lastTimestamp: deprecatedLastTimestamp,
    reportingComponent: reportingController,
  };
  const view: Json = { ...same };
  if (typeof raw.apiVersion === 'string') view.apiVersion = 'v1';
  for (const [key, value] of Object.entries(renamed)) if (value !== undefined) view[key] = value;
  return view;
}

/** Normalises a raw event from either API (or a saved copy). Never throws. */
export function normaliseEvent(input: unknown): Event {
  return normalised(input, undefined);
}

/**
 * normaliseEvent for one of several contexts read together: the event labelled as it is made. V8
 * keeps a property added to an object after its literal (`ev.cluster = ...`) in a properties array
 * of its own, about 40 bytes per event: 0.8 MiB of a 20,000-event read of ten contexts (heap
 * snapshot, npm run bench:fleet); in the literal it is one more field.
 */
export function normaliseClusterEvent(input: unknown, cluster: EventCluster): Event {
  return normalised(input, cluster);
}

function normalised(input: unknown, cluster: EventCluster | undefined): Event {
  const raw = asObject(input);
  const meta = asObject(raw.metadata);
  const series = asObject(raw.series);
  const newView = isNewApiView(raw);

  const legacySource = asObject(newView ? raw.deprecatedSource : raw.source);
  const involved = newView ? raw.regarding : raw.involvedObject;
  const legacyCount = positiveInt(newView ? raw.deprecatedCount : raw.count);
  const legacyFirst = parseTime(newView ? raw.deprecatedFirstTimestamp : raw.firstTimestamp);
  const legacyLast = parseTime(newView ? raw.deprecatedLastTimestamp : raw.lastTimestamp);
  const eventTime = parseTime(raw.eventTime);
  const seriesLast = parseTime(series.lastObservedTime);

  const firstSeen = eventTime ?? legacyFirst ?? parseTime(meta.creationTimestamp);
  const lastSeen = seriesLast ?? legacyLast ?? firstSeen;
  const reporter =
    asString(raw.reportingController) || asString(raw.reportingComponent) || asString(legacySource.component);

  const uid = asString(meta.uid);
  const name = asString(meta.name);
  const namespace = asString(meta.namespace);
  const resourceVersion = asString(meta.resourceVersion);
  const type = asString(raw.type);
  const reason = asString(raw.reason);
  const message = asString(newView ? raw.note : raw.message);
  const action = asString(raw.action);
  const object = objectRef(involved);
  const instance = asString(raw.reportingInstance) || asString(legacySource.host);
  const count = positiveInt(series.count) ?? legacyCount ?? 1;
  const seriesStyle = eventTime !== null || Object.keys(series).length > 0;
  if (cluster !== undefined) {
    return { uid, name, namespace, resourceVersion, type, reason, message, action, object, reporter, instance, count, firstSeen, lastSeen, seriesStyle, cluster };
  }
  return { uid, name, namespace, resourceVersion, type, reason, message, action, object, reporter, instance, count, firstSeen, lastSeen, seriesStyle };
}
