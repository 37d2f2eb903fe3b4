import { describe, test } from 'node:test';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import { eventToLog, goTimeString, hrTimeFromMs, parseHrTime, SEVERITY } from '../../../src/otlp/logs.ts';
import { encodeLogs } from '../../../src/otlp/encode.ts';
import { parseGoTimeString, parseOtlpEventLines, parseOtlpLines } from '../../../src/otlp/collector-file.ts';
import { collectorFileSource } from '../../../src/otlp/collector-stream.ts';
import { otlpProvenanceNotice } from '../../../src/render/otlp-status.ts';
import { NOW, ev, eventsV1, labEvents, newEv } from '../../support/builders.ts';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { runCli } from '../../../src/cli.ts';
import { systemSources } from '../../../src/system.ts';
import { fakeDeps } from '../../support/deps.ts';
import { scratchDir } from '../../support/tmp.ts';

const observed = hrTimeFromMs(NOW);

/** Our export of these events as the file exporter would store it: one OTLP JSON request a line. */
async function exportedLine(events: Record<string, unknown>[]): Promise<string> {
  const body = await encodeLogs(events.map((e) => eventToLog(e, observed)), 'json');
  return `${new TextDecoder().decode(body)}\n`;
}

describe('one event version as one log record, named as the k8s_events receiver names it', () => {
  const started = ev({ name: 'build-1-started', uid: 'uid-1', count: 5, first: 120, last: 3, host: 'node-1' });
  const log = eventToLog(started, observed);

  test('several contexts: the context is the resource\'s k8s.cluster.name, so two clusters\' records of one object are two resources', async () => {
    assert.equal('k8s.cluster.name' in log.resource, false);
    const east = eventToLog(started, observed, 'east');
    assert.deepEqual(east.resource, { ...log.resource, 'k8s.cluster.name': 'east' });
    const body = JSON.parse(new TextDecoder().decode(await encodeLogs([east, eventToLog(started, observed, 'west')], 'json'))) as { resourceLogs: { resource: { attributes: { key: string; value: { stringValue: string } }[] } }[] };
    assert.deepEqual(body.resourceLogs.map((rl) => rl.resource.attributes.find((a) => a.key === 'k8s.cluster.name')?.value.stringValue), ['east', 'west']);
  });

  test('the involved object is the resource: k8s.object.* and k8s.node.name from source.host', () => {
    assert.deepEqual(log.resource, {
      'k8s.node.name': 'node-1',
      'k8s.object.kind': 'Pipeline',
      'k8s.object.name': 'build-1',
      'k8s.object.uid': '11111111-2222-3333-4444-555555555555',
      'k8s.object.fieldpath': '',
      'k8s.object.api_version': 'ev.labhub.io/v1',
      'k8s.object.resource_version': '',
    });
  });

  test("the receiver's attributes: reason, action, start_time in Go's time.String form, name, uid, namespace, count", () => {
    assert.equal(log.attributes['k8s.event.reason'], 'ReconcileStarted');
    assert.equal(log.attributes['k8s.event.action'], '');
    assert.equal(log.attributes['k8s.event.start_time'], '2026-11-30 11:58:00 +0000 UTC');
    assert.equal(log.attributes['k8s.event.name'], 'build-1-started');
    assert.equal(log.attributes['k8s.event.uid'], 'uid-1');
    assert.equal(log.attributes['k8s.namespace.name'], 'op-events');
    assert.equal(log.attributes['k8s.event.count'], 5);
  });

  test('body is the message, the time is lastTimestamp for a legacy event, severity INFO with the type as text', () => {
    assert.equal(log.body, 'Started reconciling.');
    assert.deepEqual(log.time, hrTimeFromMs(NOW - 3000));
    assert.equal(log.severityNumber, SEVERITY.INFO);
    assert.equal(log.severityText, 'Normal');
  });

  test('what the receiver drops is kept under evtimeline.* names', () => {
    const done = eventToLog(newEv({ name: 'build-1-done', seriesCount: 3, seriesLast: 5, first: 60 }), observed);
    assert.equal(done.attributes['evtimeline.event.series.count'], 3);
    assert.equal(done.attributes['evtimeline.event.series.last_observed_time'], '2026-11-30T11:59:55.000000Z');
    assert.equal(done.attributes['evtimeline.event.reporting_controller'], 'pipeline-operator');
    assert.equal(done.attributes['evtimeline.event.reporting_instance'], 'pipeline-operator-0');
    assert.equal(done.attributes['evtimeline.event.event_time'], '2026-11-30T11:59:00.000000Z');
    assert.equal(done.attributes['k8s.event.count'], undefined, 'count 0 is left out, as the receiver does');
    assert.equal(log.attributes['evtimeline.event.source.component'], 'pipeline-operator');
    assert.equal(log.attributes['evtimeline.event.resource_version'], (started.metadata as { resourceVersion: string }).resourceVersion);
  });

  test('eventTime wins over lastTimestamp for the time, to the microsecond', () => {
    const done = eventToLog({ ...newEv(), eventTime: '2026-11-30T11:59:00.123456Z' }, observed);
    assert.deepEqual(done.time, [Date.parse('2026-11-30T11:59:00Z') / 1000, 123_456_000]);
  });

  const severities: [string, number, string, string | undefined][] = [
    ['Normal', SEVERITY.INFO, 'Normal', undefined],
    ['Warning', SEVERITY.WARN, 'Warning', undefined],
    ['warning', SEVERITY.WARN, 'warning', 'warning'],
    // The receiver's newer releases (contrib PR #43402): the same severity as theirs.
    ['Error', SEVERITY.ERROR, 'Error', 'Error'],
    ['Critical', SEVERITY.FATAL, 'Critical', 'Critical'],
    ['CRITICAL', SEVERITY.FATAL, 'CRITICAL', 'CRITICAL'],
    // Types no receiver has a severity for: WARN, so a `severity >= WARN` filter finds them.
    ['Degraded', SEVERITY.WARN, 'Degraded', 'Degraded'],
    ['constructor', SEVERITY.WARN, 'constructor', 'constructor'],
    ['', SEVERITY.WARN, 'Unknown', ''],
  ];
  for (const [type, number, text, raw] of severities) {
    test(`type ${JSON.stringify(type)} has severity ${number} "${text}"${raw === undefined ? '' : ' and its raw type as evtimeline.event.type'}`, () => {
      const l = eventToLog(ev({ type }), observed);
      assert.equal(l.severityNumber, number);
      assert.equal(l.severityText, text);
      assert.equal(l.attributes['evtimeline.event.type'], raw);
    });
  }

  test('the observed time is when the version was observed', () => {
    assert.deepEqual(eventToLog(started, [1, 2]).observed, [1, 2]);
  });
});

describe('both Events APIs: one stored event, one log record', () => {
  // One event as `kubectl get events.v1.events.k8s.io -o json` and as `kubectl get events -o json`
  // return it: the same stored object, renamed by the API server (kubernetes/kubernetes
  // pkg/apis/events/v1/conversion.go:26-40). Both are written out here, not derived from each other.
  const meta = { name: 'build-1.18a1b2c3d4e5f607', namespace: 'op-events', uid: 'uid-both', resourceVersion: '4242', creationTimestamp: '2026-11-30T11:58:00Z' };
  const object = { apiVersion: 'ev.labhub.io/v1', kind: 'Pipeline', name: 'build-1', namespace: 'op-events', uid: '11111111-2222-3333-4444-555555555555', fieldPath: 'spec.stages{build}', resourceVersion: '77' };
  const common = {
    metadata: meta,
    eventTime: '2026-11-30T11:58:00.123456Z',
    series: { count: 4, lastObservedTime: '2026-11-30T11:59:30.654321Z' },
    reportingInstance: 'pipeline-operator-0',
    action: 'Reconcile',
    reason: 'StageStalled',
    type: 'Warning',
  };
  const newShape = {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    ...common,
    reportingController: 'pipeline-operator',
    regarding: object,
    note: 'Stage "build" of build-1 stalled <script>.',
    deprecatedSource: { component: 'pipeline-operator', host: 'node-7' },
    deprecatedCount: 2,
    deprecatedFirstTimestamp: '2026-11-30T11:58:00Z',
    deprecatedLastTimestamp: '2026-11-30T11:59:00Z',
  };
  const coreShape = {
    apiVersion: 'v1',
    kind: 'Event',
    ...common,
    reportingComponent: 'pipeline-operator',
    involvedObject: object,
    message: 'Stage "build" of build-1 stalled <script>.',
    source: { component: 'pipeline-operator', host: 'node-7' },
    count: 2,
    firstTimestamp: '2026-11-30T11:58:00Z',
    lastTimestamp: '2026-11-30T11:59:00Z',
  };

  test('the events.k8s.io/v1 shape gives the record the core/v1 shape gives: body, resource, attributes, time, severity', () => {
    assert.deepEqual(eventToLog(newShape, observed), eventToLog(coreShape, observed));
  });

  test('the events.k8s.io/v1 shape keeps its note, regarding, series, reporter and deprecated* fields', () => {
    const log = eventToLog(newShape, observed);
    assert.equal(log.body, 'Stage "build" of build-1 stalled <script>.');
    assert.equal(log.resource['k8s.node.name'], 'node-7');
    assert.equal(log.resource['k8s.object.kind'], 'Pipeline');
    assert.equal(log.resource['k8s.object.name'], 'build-1');
    assert.equal(log.resource['k8s.object.fieldpath'], 'spec.stages{build}');
    assert.equal(log.attributes['k8s.namespace.name'], 'op-events');
    assert.equal(log.attributes['k8s.event.count'], 2, 'deprecatedCount, never series.count, as the receiver counts');
    assert.equal(log.attributes['evtimeline.event.series.count'], 4);
    assert.equal(log.attributes['evtimeline.event.series.last_observed_time'], '2026-11-30T11:59:30.654321Z');
    assert.equal(log.attributes['evtimeline.event.reporting_controller'], 'pipeline-operator');
    assert.equal(log.attributes['evtimeline.event.source.component'], 'pipeline-operator');
    assert.equal(log.attributes['evtimeline.event.first_timestamp'], '2026-11-30T11:58:00Z');
    assert.equal(log.attributes['evtimeline.event.last_timestamp'], '2026-11-30T11:59:00Z');
    assert.deepEqual(log.time, [Date.parse('2026-11-30T11:58:00Z') / 1000, 123_456_000]);
  });

  test('the new recorder\'s usual shape (no deprecated* fields) read back from our export is the same event', async () => {
    const fresh = eventsV1({ seriesCount: 3, seriesLast: 5 });
    const got = normaliseEvent(parseOtlpLines(await exportedLine([fresh]))?.versions[0]?.event);
    const want = normaliseEvent(fresh);
    assert.deepEqual(got, want);
    assert.equal(got.message, 'Pipeline build-1 reconciled.');
    assert.equal(got.object.name, 'build-1');
    assert.equal(got.count, 3);
  });
});

describe('times', () => {
  test('RFC 3339 with nine, six or no fractional digits keeps every digit', () => {
    assert.deepEqual(parseHrTime('2026-11-30T12:00:00.123456789Z'), [Date.parse('2026-11-30T12:00:00Z') / 1000, 123456789]);
    assert.deepEqual(parseHrTime('2026-11-30T12:00:00Z'), [Date.parse('2026-11-30T12:00:00Z') / 1000, 0]);
    assert.deepEqual(parseHrTime('2026-11-30T13:00:00.5+01:00'), [Date.parse('2026-11-30T12:00:00Z') / 1000, 500_000_000]);
  });

  test("Go's zero time and junk are no time", () => {
    assert.equal(parseHrTime('0001-01-01T00:00:00Z'), null);
    assert.equal(parseHrTime('yesterday'), null);
  });

  test("Go's time.String form goes both ways", () => {
    assert.equal(goTimeString('2026-11-30T12:00:00Z'), '2026-11-30 12:00:00 +0000 UTC');
    assert.equal(goTimeString('2026-11-30T12:00:00.25Z'), '2026-11-30 12:00:00.25 +0000 UTC');
    assert.equal(goTimeString(''), '0001-01-01 00:00:00 +0000 UTC');
    assert.equal(parseGoTimeString('2026-11-30 12:00:00 +0000 UTC'), '2026-11-30T12:00:00Z');
    assert.equal(parseGoTimeString('2026-11-30 13:00:00.5 +0100 CET m=+0.01'), '2026-11-30T12:00:00.500Z');
    assert.equal(parseGoTimeString('0001-01-01 00:00:00 +0000 UTC'), undefined);
  });

  test("Go's time.String form read as Date reads it, whatever the fields (30 February rolls over, 24:00 too)", () => {
    // The reading before whole UTC seconds skipped Date.
    const throughDate = (text: string): string | undefined => {
      const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(\.\d+)? ([+-])(\d\d)(\d\d)\b/.exec(text);
      const ms = m ? Date.parse(`${m[1]}T${m[2]}${m[3] ?? ''}${m[4]}${m[5]}:${m[6]}`) : Number.NaN;
      return Number.isNaN(ms) || ms <= Date.parse('0001-01-01T00:00:01Z') ? undefined : new Date(ms).toISOString().replace('.000Z', 'Z');
    };
    const two = (n: number) => String(n).padStart(2, '0');
    fc.assert(
      fc.property(
        fc.constantFrom(1, 1969, 1970, 2000, 2024, 2026, 2100, 9999),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: 25 }),
        fc.integer({ min: 0, max: 61 }),
        fc.constantFrom('', '.5', '.123456789'),
        fc.constantFrom('+0000 UTC', '-0000 UTC', '+0100 CET', '+0000 UTC m=+0.01'),
        (year, month, day, hour, second, fraction, zone) => {
          const text = `${String(year).padStart(4, '0')}-${two(month)}-${two(day)} ${two(hour)}:${two(second % 60)}:${two(second)}${fraction} ${zone}`;
          assert.equal(parseGoTimeString(text), throughDate(text), text);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('--from a collector file: our export read back', () => {
  test("every field of the lab's events survives the round trip through OTLP JSON", async () => {
    const lab = labEvents();
    const file = parseOtlpLines(await exportedLine(lab));
    assert.ok(file);
    assert.deepEqual(file.writers, ['evtimeline']);
    assert.equal(file.versions.length, lab.length);
    for (const [i, version] of file.versions.entries()) {
      assert.deepEqual(normaliseEvent(version.event), normaliseEvent(lab[i]), `event ${i}`);
      assert.equal(version.observedAt, NOW);
    }
  });

  test('hostile text comes back byte for byte', async () => {
    const message = 'line1\nline2 \u001b[31mred\u001b[0m \u202e "quoted" \\ ✓';
    const file = parseOtlpLines(await exportedLine([ev({ message, reason: 'Odd\tReason' })]));
    assert.equal(normaliseEvent(file?.versions[0]?.event).message, message);
    assert.equal(normaliseEvent(file?.versions[0]?.event).reason, 'Odd\tReason');
  });

  test('a torn last line (a collector stopped mid-write) is ignored', async () => {
    const line = await exportedLine([ev()]);
    const file = parseOtlpLines(`${line}${line.slice(0, 40)}`);
    assert.equal(file?.versions.length, 1);
  });

  test('text that is not OTLP JSON lines is not an OTLP file', () => {
    assert.equal(parseOtlpLines('{"kind":"EvtimelineRecord"}\n'), null);
    assert.equal(parseOtlpLines('Normal Started Pod/x\n'), null);
  });
});

describe('--from a collector file: what the receivers wrote', () => {
  /** The receiver's severity map: v0.111.0 (k8s_event_to_logdata.go:26-29), and newer releases (contrib PR #43402). */
  const V0_111_SEVERITY: Record<string, number> = { normal: 9, warning: 13 };
  const NEWER_SEVERITY: Record<string, number> = { normal: 9, warning: 13, error: 17, critical: 21 };

  /** A log record as the k8s_events receiver v0.111.0 writes it (k8s_event_to_logdata.go), as OTLP JSON. */
  function receiverLine(type: string, count?: number, severities = V0_111_SEVERITY): string {
    const attrs = [
      { key: 'k8s.event.reason', value: { stringValue: 'FailedScheduling' } },
      { key: 'k8s.event.action', value: { stringValue: 'Scheduling' } },
      { key: 'k8s.event.start_time', value: { stringValue: '2026-11-30 11:59:00 +0000 UTC' } },
      { key: 'k8s.event.name', value: { stringValue: 'hungry.1' } },
      { key: 'k8s.event.uid', value: { stringValue: 'uid-h' } },
      { key: 'k8s.namespace.name', value: { stringValue: 'op-events' } },
      ...(count === undefined ? [] : [{ key: 'k8s.event.count', value: { intValue: String(count) } }]),
    ];
    const resource = [
      { key: 'k8s.node.name', value: { stringValue: '' } },
      { key: 'k8s.object.kind', value: { stringValue: 'Pod' } },
      { key: 'k8s.object.name', value: { stringValue: 'hungry' } },
      { key: 'k8s.object.uid', value: { stringValue: 'uid-pod' } },
      { key: 'k8s.object.fieldpath', value: { stringValue: '' } },
      { key: 'k8s.object.api_version', value: { stringValue: 'v1' } },
      { key: 'k8s.object.resource_version', value: { stringValue: '12' } },
    ];
    const number = Object.hasOwn(severities, type.toLowerCase()) ? severities[type.toLowerCase()] : undefined;
    const severity = number === undefined ? {} : { severityNumber: number, severityText: type };
    const record = { timeUnixNano: '1796040000000000000', observedTimeUnixNano: '1796040001000000000', ...severity, body: { stringValue: '0/1 nodes are available' }, attributes: attrs };
    return `${JSON.stringify({ resourceLogs: [{ resource: { attributes: resource }, scopeLogs: [{ scope: {}, logRecords: [record] }] }] })}\n`;
  }

  test('k8s_events: the fields it keeps are read; first seen is the creation time; the one timestamp is the last', () => {
    const file = parseOtlpLines(receiverLine('Warning', 2));
    assert.deepEqual(file?.writers, ['k8s_events']);
    const event = normaliseEvent(file?.versions[0]?.event);
    assert.equal(event.uid, 'uid-h');
    assert.equal(event.type, 'Warning');
    assert.equal(event.reason, 'FailedScheduling');
    assert.equal(event.object.kind, 'Pod');
    assert.equal(event.object.uid, 'uid-pod');
    assert.equal(event.count, 2);
    assert.equal(event.reporter, '', 'the receiver keeps no reporter');
    assert.equal(event.firstSeen, Date.parse('2026-11-30T11:59:00Z'));
    assert.equal(event.lastSeen, 1796040000000);
  });

  test('k8s_events: the provenance says the file tells no reporters; our export tells everything', async () => {
    const theirs = parseOtlpEventLines(receiverLine('Warning', 2));
    assert.equal(theirs?.provenance.kind, 'otlp');
    assert.equal(theirs?.provenance.tells.reporters, false);
    assert.equal(theirs?.provenance.tells.messages, true);
    assert.equal(parseOtlpEventLines(await exportedLine(labEvents()))?.provenance.tells.reporters, true);
  });

  test('k8s_events: a type other than Normal or Warning was not stored, so it reads as none', () => {
    assert.equal(normaliseEvent(parseOtlpLines(receiverLine('Critical'))?.versions[0]?.event).type, '');
  });

  test('k8s_events, a newer release: Error and Critical have a severity, so their type is read back; other types still are not', () => {
    assert.equal(normaliseEvent(parseOtlpLines(receiverLine('Critical', 1, NEWER_SEVERITY))?.versions[0]?.event).type, 'Critical');
    assert.equal(normaliseEvent(parseOtlpLines(receiverLine('Error', 1, NEWER_SEVERITY))?.versions[0]?.event).type, 'Error');
    assert.equal(normaliseEvent(parseOtlpLines(receiverLine('Degraded', 1, NEWER_SEVERITY))?.versions[0]?.event).type, '');
  });

  test('k8s_events, a newer release (contrib PR #45289): the reporter is read, and the namespace from the resource, also when the file is streamed', async () => {
    // The newer receiver adds k8s.event.reporting_controller/instance and puts k8s.namespace.name on the resource.
    const line = JSON.parse(receiverLine('Warning', 2, NEWER_SEVERITY)) as { resourceLogs: { resource: { attributes: unknown[] }; scopeLogs: { logRecords: { attributes: { key: string }[] }[] }[] }[] };
    const [logs] = line.resourceLogs;
    const record = logs?.scopeLogs[0]?.logRecords[0];
    if (logs === undefined || record === undefined) throw new Error('no record');
    record.attributes = [
      ...record.attributes.filter((a) => a.key !== 'k8s.namespace.name'),
      { key: 'k8s.event.reporting_controller', value: { stringValue: 'default-scheduler' } },
      { key: 'k8s.event.reporting_instance', value: { stringValue: 'default-scheduler-node-1' } },
    ] as never;
    logs.resource.attributes.push({ key: 'k8s.namespace.name', value: { stringValue: 'op-events' } });
    const text = `${JSON.stringify(line)}\n`;
    const whole = normaliseEvent(parseOtlpLines(text)?.versions[0]?.event);
    const path = join(scratchDir('otlp-newer-receiver'), 'newer-receiver.jsonl');
    await writeFile(path, text);
    const streamed = (await (await collectorFileSource(path, 'op-events'))?.read())?.events[0];
    for (const event of [whole, streamed]) {
      assert.equal(event?.reporter, 'default-scheduler');
      assert.equal(event?.instance, 'default-scheduler-node-1');
      assert.equal(event?.namespace, 'op-events');
      assert.equal(event?.uid, 'uid-h');
    }
  });

  test('one event written by both the k8s_events receiver and our export: the same version reads as ours, with what the receiver dropped', async () => {
    const event = ev({ name: 'hungry.1', uid: 'uid-h', reason: 'FailedScheduling', type: 'Warning', kind: 'Pod', objectName: 'hungry', count: 2, first: 60, last: 0, component: 'default-scheduler' });
    /** The events --from shows for the file. */
    const read = (text: string) => {
      const saved = parseOtlpEventLines(text);
      assert.ok(saved && 'raw' in saved);
      return saved.raw.core.map(normaliseEvent);
    };
    for (const lines of [[await exportedLine([event]), receiverLine('Warning', 2)], [receiverLine('Warning', 2), await exportedLine([event])]]) {
      const events = read(lines.join(''));
      assert.equal(events.length, 1);
      assert.equal(events[0]?.reporter, 'default-scheduler');
    }
    // A later version only the receiver saw still wins.
    assert.equal(read([await exportedLine([event]), receiverLine('Warning', 3)].join(''))[0]?.count, 3);
  });

  test('k8sobjects (watch mode): the body holds {type, object}: the event itself', () => {
    const object = ev({ name: 'obj-1', type: 'Critical' });
    const body = { kvlistValue: { values: [{ key: 'type', value: { stringValue: 'ADDED' } }, { key: 'object', value: toAnyValue(object) }] } };
    const line = JSON.stringify({ resourceLogs: [{ resource: {}, scopeLogs: [{ logRecords: [{ observedTimeUnixNano: String(BigInt(NOW) * 1_000_000n), body }] }] }] });
    const file = parseOtlpLines(`${line}\n`);
    assert.deepEqual(file?.writers, ['k8sobjects']);
    assert.deepEqual(normaliseEvent(file?.versions[0]?.event), normaliseEvent(object));
  });

  test('log records that are not about events are skipped and counted', () => {
    const line = JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { stringValue: 'GET /healthz 200' } }] }] }] });
    assert.deepEqual(parseOtlpLines(`${line}\n`), { versions: [], writers: [], skipped: 1, unreadable: null });
  });
});

/** A JSON value as an OTLP AnyValue (as the collector's pdata writes a map body). */
function toAnyValue(value: unknown): unknown {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'number') return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (Array.isArray(value)) return { arrayValue: { values: value.map(toAnyValue) } };
  if (value !== null && typeof value === 'object') {
    return { kvlistValue: { values: Object.entries(value).map(([key, v]) => ({ key, value: toAnyValue(v) })) } };
  }
  return {};
}

describe("--from a collector file: the provenance says what its writers left out", () => {
  test('the k8s_events receiver: every field it does not keep is named', () => {
    assert.equal(
      otlpProvenanceNotice('c.jsonl', { writers: ['k8s_events'], skipped: 0 }),
      'c.jsonl: events written by the k8s_events receiver, which does not keep series, reportingController, reportingInstance, source.component, firstTimestamp, metadata.resourceVersion, the namespace of events about cluster-scoped objects, types other than Normal and Warning (newer releases also keep Error and Critical); those fields read as empty\n',
    );
  });
  test('our export and k8sobjects keep everything: nothing to say', () => {
    assert.equal(otlpProvenanceNotice('c.jsonl', { writers: ['evtimeline', 'k8sobjects'], skipped: 0 }), '');
  });
  test('log records that are not events are counted', () => {
    assert.equal(otlpProvenanceNotice('c.jsonl', { writers: [], skipped: 2 }), 'c.jsonl: skipped 2 log records that are not about a Kubernetes event\n');
  });
});

describe('--from a collector file: where ages count from', () => {
  const dir = scratchDir('otlp-ages');

  /** The lab's events, exported and observed `afterMs` after NOW (the events happened before NOW). */
  async function collectorFile(afterMs: number): Promise<string> {
    const file = join(dir, `collector-${afterMs}.jsonl`);
    const body = await encodeLogs(labEvents().map((e) => eventToLog(e, hrTimeFromMs(NOW + afterMs))), 'json');
    await writeFile(file, `${new TextDecoder().decode(body)}\n`);
    return file;
  }

  async function incident(file: string) {
    const open = systemSources({ env: {}, stdin: Readable.from([]), stderr: { write: () => {} } });
    // A clock a day later: a saved file's ages never count from now.
    const fake = fakeDeps({ openSource: open, now: NOW + 86_400_000 });
    const code = await runCli(['incident', '--from', file], fake.deps);
    return { code, stdout: fake.stdout(), stderr: fake.stderr() };
  }

  test("from the file's last observed time, not its newest event: an observation after the events is no negative age", async () => {
    const r = await incident(await collectorFile(600_000));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^Ages are counted from 2026-11-30T12:10:00Z, the last observed time in the collector's file\.\n/m);
    assert.doesNotMatch(r.stdout, /<invalid>/);
    // Issue 28, L8: no "(0s ago)" after the time the ages count from.
    assert.match(r.stdout, /observed these events from 2026-11-30T12:10:00Z to 2026-11-30T12:10:00Z \(the file's first and last observed time\); the ages here count from then\./);
  });
});

describe('--from a collector file: one hostile log record among good ones (issue 28, M3)', () => {
  const dir = scratchDir('otlp-hostile');
  /** A kvlist AnyValue nested `depth` levels. */
  const nested = (depth: number): unknown => {
    let value: unknown = { stringValue: 'bottom' };
    for (let i = 0; i < depth; i += 1) value = i % 2 === 0 ? { kvlistValue: { values: [{ key: 'k', value }] } } : { arrayValue: { values: [value] } };
    return value;
  };
  type Record_ = Record<string, unknown>;
  const cases: [string, (record: Record_) => void, string][] = [
    ['a timeUnixNano of 26 digits', (r) => (r.timeUnixNano = '99999999999999999999999999'), 'timeUnixNano past what 64 bits hold'],
    ['an observedTimeUnixNano of 2^64', (r) => (r.observedTimeUnixNano = '18446744073709551616'), 'observedTimeUnixNano past what 64 bits hold'],
    ['a body nested 5,000 levels', (r) => (r.body = nested(5000)), 'values nested more than 64 levels deep'],
    ['an attribute nested 200,000 levels', (r) => ((r.attributes as unknown[]).push({ key: 'deep', value: nested(200_000) })), 'values nested more than 64 levels deep'],
  ];
  test('an attribute named __proto__ is a key like any other: it lends no keys to the record (not read as an event)', () => {
    const inner = { kvlistValue: { values: [{ key: 'k8s.event.uid', value: { stringValue: 'u' } }, { key: 'k8s.event.reason', value: { stringValue: 'Spoof' } }] } };
    const line = JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ attributes: [{ key: '__proto__', value: inner }] }] }] }] });
    assert.deepEqual(parseOtlpLines(`${line}\n`), { versions: [], writers: [], skipped: 1, unreadable: null });
  });

  for (const [what, spoil, why] of cases) {
    test(`${what}: that record is skipped and counted, naming its line; the rest of the file is read`, async () => {
      const hostile = JSON.parse(await exportedLine([ev({ name: 'hostile', reason: 'Hostile' })])) as { resourceLogs: { scopeLogs: { logRecords: Record_[] }[] }[] };
      const record = hostile.resourceLogs[0]?.scopeLogs[0]?.logRecords[0] as Record_;
      spoil(record);
      const file = join(dir, `${what.replace(/\W+/g, '-')}.jsonl`);
      await writeFile(file, `${await exportedLine([ev({ name: 'before', reason: 'Before' })])}${JSON.stringify(hostile)}\n${await exportedLine([ev({ name: 'after', reason: 'After' })])}`);
      const open = systemSources({ env: {}, stdin: Readable.from([]), stderr: { write: () => {} } });
      const fake = fakeDeps({ openSource: open });
      const code = await runCli(['--from', file, '-o', 'json'], fake.deps);
      assert.equal(code, 0, fake.stderr());
      const reasons = (JSON.parse(fake.stdout()) as { reason: string }[]).map((e) => e.reason);
      assert.deepEqual(reasons.sort(), ['After', 'Before']);
      assert.match(fake.stderr(), new RegExp(`: skipped 1 log record that cannot be read \\(line 2: ${why.replace(/[()^]/g, '\\$&')}\\)\\n`));
    });
  }
});
