// Fixture builders: raw event JSON as the API server returns it, with only what a test cares about spelled out.

export const NOW = Date.parse('2026-11-30T12:00:00Z');

/** ISO time `seconds` before NOW (the fixed clock of every unit test). */
export function ago(seconds: number): string {
  return new Date(NOW - seconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** ISO time with six fractional digits, as events.k8s.io/v1 eventTime is written. */
export function agoMicro(seconds: number): string {
  return new Date(NOW - seconds * 1000).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export interface EvOptions {
  name?: string;
  namespace?: string;
  uid?: string;
  type?: string;
  reason?: string;
  message?: string;
  kind?: string;
  objectName?: string;
  objectUid?: string;
  apiVersion?: string;
  /** involvedObject.fieldPath, e.g. spec.containers{app} as the kubelet names a container */
  fieldPath?: string;
  component?: string;
  host?: string;
  count?: number;
  first?: number; // seconds ago
  last?: number; // seconds ago
  noObject?: boolean;
}

let serial = 0;

/**
 * Starts the default names and uids (ev-1, ...) again: a golden that names its events calls it
 * first, so its names do not depend on what ran before it in the same process (`npm run test:unit`
 * runs every file in one).
 */
export function resetSerial(): void {
  serial = 0;
}

/** A core/v1 Event as a legacy recorder writes it. */
export function ev(o: EvOptions = {}): Record<string, unknown> {
  serial += 1;
  const namespace = o.namespace ?? 'op-events';
  const first = o.first ?? 60;
  const last = o.last ?? first;
  const event: Record<string, unknown> = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: o.name ?? `ev-${serial}`,
      namespace,
      uid: o.uid ?? `00000000-0000-0000-0000-${String(serial).padStart(12, '0')}`,
      resourceVersion: String(1000 + serial),
      creationTimestamp: ago(first),
    },
    type: o.type ?? 'Normal',
    reason: o.reason ?? 'ReconcileStarted',
    message: o.message ?? 'Started reconciling.',
    source: { component: o.component ?? 'pipeline-operator', ...(o.host ? { host: o.host } : {}) },
    firstTimestamp: ago(first),
    lastTimestamp: ago(last),
    count: o.count ?? 1,
    reportingComponent: '',
    reportingInstance: '',
  };
  if (!o.noObject) {
    event.involvedObject = {
      apiVersion: o.apiVersion ?? 'ev.labhub.io/v1',
      kind: o.kind ?? 'Pipeline',
      name: o.objectName ?? 'build-1',
      namespace,
      uid: o.objectUid ?? '11111111-2222-3333-4444-555555555555',
      ...(o.fieldPath === undefined ? {} : { fieldPath: o.fieldPath }),
    };
  }
  return event;
}

export interface NewEvOptions extends EvOptions {
  action?: string;
  instance?: string;
  seriesCount?: number;
  seriesLast?: number; // seconds ago
}

/** The same store seen through core/v1 for an event written through events.k8s.io/v1. */
export function newEv(o: NewEvOptions = {}): Record<string, unknown> {
  const base = ev({ ...o, reason: o.reason ?? 'ReconcileSucceeded', message: o.message ?? 'Pipeline build-1 reconciled.' });
  const first = o.first ?? 30;
  delete base.source;
  base.source = {};
  base.firstTimestamp = null;
  base.lastTimestamp = null;
  base.count = 0;
  base.eventTime = agoMicro(first);
  base.reportingComponent = o.component ?? 'pipeline-operator';
  base.reportingInstance = o.instance ?? 'pipeline-operator-0';
  base.action = o.action ?? 'Reconcile';
  if (o.seriesCount !== undefined) {
    base.series = { count: o.seriesCount, lastObservedTime: agoMicro(o.seriesLast ?? first) };
  }
  return base;
}

/** The lab's five events (steps 2, 4, 5, 6, 7) as `kubectl get events -o json` items, at NOW. */
export function labEvents(): Record<string, unknown>[] {
  return [
    ev({ name: 'build-1-started', reason: 'ReconcileStarted', message: 'Started reconciling Pipeline build-1.', count: 5, first: 120, last: 3 }),
    ev({ name: 'build-1-weird', reason: 'StageUnknown', type: 'Critical', message: 'Stage of build-1 is not known.', first: 90 }),
    newEv({ name: 'build-1-done', first: 60 }),
    newEv({
      name: 'hungry.18a1b2c3d4e5f607',
      type: 'Warning',
      reason: 'FailedScheduling',
      kind: 'Pod',
      apiVersion: 'v1',
      objectName: 'hungry',
      objectUid: '99999999-8888-7777-6666-555555555555',
      component: 'default-scheduler',
      instance: 'default-scheduler-node-a',
      action: 'Scheduling',
      message:
        '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
      first: 45,
    }),
  ];
}

export interface EventsV1Options {
  name?: string;
  namespace?: string;
  uid?: string;
  type?: string;
  reason?: string;
  note?: string;
  kind?: string;
  objectName?: string;
  controller?: string;
  instance?: string;
  action?: string;
  first?: number; // seconds ago
  seriesCount?: number;
  seriesLast?: number; // seconds ago
  deprecatedCount?: number;
  deprecatedSource?: { component?: string; host?: string };
}

/** An event as `kubectl get events.events.k8s.io -o json` returns it (regarding/note/deprecated* names). */
export function eventsV1(o: EventsV1Options = {}): Record<string, unknown> {
  serial += 1;
  const namespace = o.namespace ?? 'op-events';
  const first = o.first ?? 30;
  const event: Record<string, unknown> = {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: {
      name: o.name ?? `ev-${serial}`,
      namespace,
      uid: o.uid ?? `00000000-0000-0000-0000-${String(serial).padStart(12, '0')}`,
      resourceVersion: String(1000 + serial),
      creationTimestamp: ago(first),
    },
    eventTime: agoMicro(first),
    reportingController: o.controller ?? 'pipeline-operator',
    reportingInstance: o.instance ?? 'pipeline-operator-0',
    action: o.action ?? 'Reconcile',
    reason: o.reason ?? 'ReconcileSucceeded',
    regarding: {
      apiVersion: 'ev.labhub.io/v1',
      kind: o.kind ?? 'Pipeline',
      name: o.objectName ?? 'build-1',
      namespace,
      uid: '11111111-2222-3333-4444-555555555555',
    },
    note: o.note ?? 'Pipeline build-1 reconciled.',
    type: o.type ?? 'Normal',
  };
  if (o.seriesCount !== undefined) {
    event.series = { count: o.seriesCount, lastObservedTime: agoMicro(o.seriesLast ?? first) };
  }
  if (o.deprecatedCount !== undefined) event.deprecatedCount = o.deprecatedCount;
  if (o.deprecatedSource !== undefined) event.deprecatedSource = o.deprecatedSource;
  return event;
}

/** The lab's timeline.txt (`-o stable`): what LAB.md step 8 must print on the lab, byte for byte. */
export const LAB_STABLE = [
  'Critical StageUnknown Pipeline/build-1',
  'Normal ReconcileStarted Pipeline/build-1',
  'Normal ReconcileSucceeded Pipeline/build-1',
  'Warning FailedScheduling Pod/hungry',
  '',
].join('\n');
