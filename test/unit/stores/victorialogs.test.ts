import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../../../src/errors.ts';
import { parseStoreFrom } from '../../../src/options/store.ts';
import { composeQuery, nanosToRfc3339, queryUrl } from '../../../src/stores/victorialogs.ts';
import type { StoreEndpoint } from '../../../src/stores/victorialogs.ts';
import { EVENT_FIELDS, keptReporter, rfc3339ToNanos, ROW_FIELDS, rowToEvent, rowToVersion, SHORT_NAMES, SHORT_RENAMES, withFullNames } from '../../../src/stores/victorialogs-rows.ts';
import { K8S, OUR, SCOPE_NAME } from '../../../src/otlp/logs.ts';
import { K8S_REPORTING } from '../../../src/otlp/collector-file.ts';
import { storeProvenanceNotice } from '../../../src/render/otlp-status.ts';
import { normaliseEvent } from '../../../src/core/event.ts';
import fc from 'fast-check';

describe('--from victorialogs+URL', () => {
  test('the base, and the LogsQL of ?query= decoded', () => {
    const s = parseStoreFrom('victorialogs+http://127.0.0.1:9428?query=k8s.event.reason%3A%3DBackOff', {});
    assert.equal(s?.base.href, 'http://127.0.0.1:9428/');
    assert.equal(s?.query, 'k8s.event.reason:=BackOff');
  });
  test('a path prefix is kept (a store behind a proxy)', () => {
    assert.equal(parseStoreFrom('victorialogs+https://logs.example.com/vl/', {})?.base.href, 'https://logs.example.com/vl/');
  });
  test('?page-rows=N: the rows per time window, beside ?query=', () => {
    const s = parseStoreFrom('victorialogs+http://127.0.0.1:9428?query=*&page-rows=5000', {});
    assert.equal(s?.pageRows, 5000);
    assert.equal(s?.query, '*');
    assert.equal(parseStoreFrom('victorialogs+http://127.0.0.1:9428', {})?.pageRows, undefined, 'the reader\'s default');
  });
  test('a file is not a store, and the --from-* flags need one', () => {
    assert.equal(parseStoreFrom('events.json', {}), null);
    assert.throws(() => parseStoreFrom('events.json', { fromCa: 'ca.pem' }), /^UsageError: --from-ca needs --from victorialogs\+https/);
  });
  const refused: [string, Record<string, unknown>, RegExp][] = [
    ['victorialogs+ftp://x', {}, /want victorialogs\+http:\/\/HOST:PORT/],
    ['victorialogs+nonsense', {}, /want victorialogs\+http/],
    ['victorialogs+http://u:p@x:9428', {}, /credentials in --from-header/],
    ['victorialogs+http://x:9428?limit=5', {}, /unknown parameter "limit" in the store's URL \(only \?query=LogsQL and &page-rows=N\)/],
    ['victorialogs+http://x:9428?page-rows=0', {}, /page-rows="0": want a whole number of rows from 1 to 10000000/],
    ['victorialogs+http://x:9428?page-rows=1e5', {}, /page-rows="1e5": want a whole number/],
    ['victorialogs+http://x:9428?page-rows=-3', {}, /page-rows="-3": want a whole number/],
    ['victorialogs+http://x:9428?page-rows=', {}, /page-rows="": want a whole number/],
    ['victorialogs+http://x:9428?page-rows=10000001', {}, /page-rows="10000001": want a whole number/],
    ['victorialogs+http://x:9428', { fromCa: 'ca.pem' }, /apply to a victorialogs\+https store/],
    ['victorialogs+https://x:9428', { fromClientCert: 'c.pem' }, /--from-client-cert needs --from-client-key/],
    ['victorialogs+https://x:9428', { fromHeader: ['Host=x'] }, /--from-header Host: set by the plugin itself/],
  ];
  for (const [from, raw, message] of refused) {
    test(`${from} ${JSON.stringify(raw)} is a usage error`, () => {
      assert.throws(() => parseStoreFrom(from, raw), (e: unknown) => e instanceof UsageError && message.test(e.message));
    });
  }
});

describe('the query sent', () => {
  const endpoint: StoreEndpoint = { base: new URL('http://vl:9428/'), query: '', headers: {}, timeoutMs: 0 };
  test('every row, or the user filter narrowed to -n on either writer\'s namespace field', () => {
    assert.equal(composeQuery('', null), '*');
    assert.equal(composeQuery('error OR warn', 'shop'), '(error OR warn) AND (evtimeline.event.namespace:="shop" OR k8s.namespace.name:="shop")');
  });
  test('a start: rows stamped then or later, or a series of ours last observed then or later', () => {
    assert.equal(
      composeQuery('', null, Date.parse('2026-11-30T10:00:00.250Z')),
      '(*) AND (_time:>=2026-11-30T10:00:00.250Z OR evtimeline.event.series.last_observed_time:string_range("2026-11-30T10:00:00", "9999"))',
    );
  });
  test('the window in nanoseconds, end exclusive, and the page limit', () => {
    const url = queryUrl(endpoint, '*', { start: 1_764_500_000_123_456_789n, end: 1_764_500_000_123_456_790n }, 10_000);
    assert.equal(url.pathname, '/select/logsql/query');
    assert.equal(url.searchParams.get('start'), '2025-11-30T10:53:20.123456789Z');
    assert.equal(url.searchParams.get('end'), '2025-11-30T10:53:20.123456790Z');
    assert.equal(url.searchParams.get('limit'), '10000');
  });
  test('nanoseconds round-trip through RFC 3339', () => {
    for (const ns of [0n, 1n, 999_999_999n, 1_764_500_000_000_000_000n, 1_764_500_000_000_000_001n]) {
      assert.equal(rfc3339ToNanos(nanosToRfc3339(ns)), ns.toString());
    }
    assert.equal(rfc3339ToNanos('2026-11-30T10:00:00Z'), '1796032800000000000');
    assert.equal(rfc3339ToNanos('yesterday'), '');
  });
});

describe('a stored row as an event', () => {
  // As VictoriaLogs v1.52.2 answers for our export (every value a string, empty ones absent).
  const ours = {
    _msg: 'Back-off restarting',
    _time: '2026-11-30T10:05:00Z',
    'evtimeline.event.first_timestamp': '2026-11-30T10:00:00Z',
    'evtimeline.event.last_timestamp': '2026-11-30T10:05:00Z',
    'evtimeline.event.namespace': 'op',
    'evtimeline.event.reporting_controller': 'kubelet',
    'evtimeline.event.resource_version': '100',
    'evtimeline.event.series.count': '2',
    'evtimeline.event.series.last_observed_time': '2026-11-30T10:04:00.000001Z',
    'k8s.event.count': '3',
    'k8s.event.name': 'hungry.1',
    'k8s.event.reason': 'BackOff',
    'k8s.event.uid': 'u-1',
    'k8s.namespace.name': 'op',
    'k8s.object.kind': 'Pod',
    'k8s.object.name': 'hungry',
    'k8s.object.uid': 'p-1',
    'scope.name': 'kubectl-evtimeline',
    severity_text: 'Warning',
  };
  test('our export: every field back, ints as numbers', () => {
    const v = rowToVersion(ours);
    assert.equal(v?.writer, 'evtimeline');
    const e = normaliseEvent(v?.event);
    assert.equal(e.uid, 'u-1');
    assert.equal(e.count, 2);
    assert.equal(e.resourceVersion, '100');
    assert.equal(e.reporter, 'kubelet');
    assert.equal(e.type, 'Warning');
    assert.equal(e.message, 'Back-off restarting');
    assert.equal(e.firstSeen, Date.parse('2026-11-30T10:00:00Z'));
  });
  // As the k8s_events receiver (v0.111.0, otlphttp exporter) is stored: no evtimeline.* fields.
  const receiver = {
    _msg: 'Started container',
    _time: '2026-11-30T10:05:00Z',
    'k8s.event.count': '1',
    'k8s.event.name': 'web.1',
    'k8s.event.reason': 'Started',
    'k8s.event.start_time': '2026-11-30 10:04:00 +0000 UTC',
    'k8s.event.uid': 'u-2',
    'k8s.namespace.name': 'shop',
    'k8s.object.kind': 'Pod',
    'k8s.object.name': 'web',
    'scope.name': 'github.com/open-telemetry/opentelemetry-collector-contrib/receiver/k8seventsreceiver',
    severity_text: 'Normal',
  };
  test('the k8s_events receiver: its one time is the last seen, no reporter', () => {
    const v = rowToVersion(receiver);
    assert.equal(v?.writer, 'k8s_events');
    const e = normaliseEvent(v?.event);
    assert.equal(e.namespace, 'shop');
    assert.equal(e.lastSeen, Date.parse('2026-11-30T10:05:00Z'));
    assert.equal(e.reporter, '');
  });
  test('newer receivers (contrib PR #45289) keep the reporter and put the namespace on the resource: read', () => {
    const { 'k8s.namespace.name': _ns, ...rest } = receiver;
    const v = rowToVersion({ ...rest, 'k8s.namespace.name': 'shop', 'k8s.event.reporting_controller': 'kubelet', 'k8s.event.reporting_instance': 'node-1' });
    const e = normaliseEvent(v?.event);
    assert.equal(e.reporter, 'kubelet');
    assert.equal(e.instance, 'node-1');
  });
  test('an application\'s log line is not an event', () => {
    assert.equal(rowToVersion({ _msg: 'GET /healthz 200', _time: '2026-11-30T10:05:00Z', 'service.name': 'web' }), null);
  });
});

describe('what the store could not keep, in one line', () => {
  test('names the writers and the fields, read as empty', () => {
    assert.equal(
      storeProvenanceNotice('victorialogs+http://vl:9428', { writers: ['the k8s_events receiver'], unkept: ['series', 'reporter'], skipped: 2 }),
      'victorialogs+http://vl:9428: written by the k8s_events receiver, which did not keep series, reporter; skipped 2 lines not about a Kubernetes event\n',
    );
  });
  test('without a uid, says how repeats were joined', () => {
    assert.match(storeProvenanceNotice('f', { writers: [], unkept: ['uid'], skipped: 0 }), /repeats joined by object, reason and first timestamp\n$/);
  });
  test('nothing missing: nothing said', () => {
    assert.equal(storeProvenanceNotice('f', { writers: ['kubectl evtimeline export'], unkept: [], skipped: 0 }), '');
  });
});

describe('a row\'s time', () => {
  // What rowToVersion made of _time before it skipped the BigInt nanoseconds: RFC 3339 -> ns -> ms (truncated) -> ISO.
  const throughNanos = (text: string): string | undefined => {
    const ns = rfc3339ToNanos(text);
    return /^\d+$/.test(ns) && !/^0+$/.test(ns) ? new Date(Number(BigInt(ns) / 1_000_000n)).toISOString() : undefined;
  };
  const receiverRow = (time: string) => ({ _time: time, _msg: 'm', 'k8s.event.uid': 'u', 'k8s.event.reason': 'R', 'k8s.event.name': 'e' });
  test('read as the nanoseconds would read it, whatever the fraction and offset', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01T00:00:01Z'), max: new Date('2500-01-01T00:00:00Z'), noInvalidDate: true }),
        fc.stringMatching(/^(\.\d{1,9})?$/),
        fc.constantFrom('Z', '+00:00', '+05:30', '-08:00'),
        (date, fraction, offset) => {
          const time = `${date.toISOString().slice(0, 19)}${fraction}${offset}`;
          assert.equal(rowToVersion(receiverRow(time))?.event.lastTimestamp, throughNanos(time), time);
        },
      ),
    );
    for (const time of ['1970-01-01T00:00:00Z', '1970-01-01T00:00:00.5Z', '1969-12-31T23:59:59.25Z', 'yesterday', '2026-11-30T10:00:00']) {
      assert.equal(rowToVersion(receiverRow(time))?.event.lastTimestamp, throughNanos(time), time);
    }
  });
});

describe('a row read straight into the normalised event', () => {
  // What the fold keeps when no raw version is wanted must be what the raw version normalises to.
  const viaRaw = (row: Record<string, unknown>) => {
    const v = rowToVersion(row);
    return v === null ? null : { event: normaliseEvent(v.event), writer: v.writer };
  };
  const outcome = (read: () => unknown): unknown => {
    try {
      return { value: read() };
    } catch (error) {
      return { threw: String(error) };
    }
  };
  const fields = [...Object.values(OUR), ...Object.values(K8S), ...Object.values(K8S_REPORTING), '_msg', 'severity_text', 'service.name'];
  const text = fc.oneof(
    fc.constantFrom('', '0', '1', '3', '-2', '1.5', '007', '99999999999999999999', 'Warning', 'Normal', 'kubelet', 'shop', '__proto__'),
    fc.constantFrom('2026-11-30T10:00:00Z', '2026-11-30T10:00:00.123456Z', '2026-11-30T12:00:00+02:00', '0001-01-01T00:00:00Z', '1969-12-31T23:59:59Z', 'yesterday'),
    fc.constantFrom('2026-11-30 10:04:00 +0000 UTC', '2026-11-30 10:04:00.5 +0100 CET m=+0.1', '0001-01-01 00:00:00 +0000 UTC', '2026-02-30 10:00:00 +0000 UTC'),
    fc.string({ maxLength: 12 }),
  );
  const value = fc.oneof({ weight: 8, arbitrary: text }, { weight: 1, arbitrary: fc.constantFrom<unknown>(3, 0, -1, 2.5, null, true, { a: 1 }, ['x']) });
  const time = fc.oneof(
    fc.date({ min: new Date('1960-01-01T00:00:00Z'), max: new Date('2600-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().replace('.000Z', 'Z')),
    fc.constantFrom('2026-11-30T10:00:00.123456789Z', '2026-11-30T10:00:00+05:30', '1971-01-01T00:00:00Z', '2553-12-31T23:59:59.999999999Z', '2554-07-21T23:34:33.709551616Z', '9999-12-31T23:59:59Z', '2026-13-40T99:00:00Z', 'now', ''),
  );
  const row = fc
    .record({
      picked: fc.dictionary(fc.constantFrom(...fields), value),
      scope: fc.constantFrom(SCOPE_NAME, 'github.com/open-telemetry/opentelemetry-collector-contrib/receiver/k8seventsreceiver', undefined),
      time,
    })
    .map(({ picked, scope, time }) => ({ ...picked, ...(scope === undefined ? {} : { 'scope.name': scope }), _time: time }));
  test('equals rowToVersion normalised, for rows of either writer, odd values and times included', () => {
    fc.assert(
      fc.property(row, (r) => {
        assert.deepStrictEqual(outcome(() => rowToEvent(r)), outcome(() => viaRaw(r)));
      }),
      { numRuns: 3000 },
    );
  });
  test('a row asked for under the short names reads as the same row under its stored names', () => {
    // What `| fields ... | rename ...` makes of a stored row: the fields asked for, renamed (a field the row lacks stays absent).
    const renamed = (r: Record<string, unknown>): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      for (const key of ['_msg', '_time']) if (key in r) out[key] = r[key];
      for (const [full, short] of SHORT_RENAMES) if (full in r) out[short] = r[full];
      return out;
    };
    const asked = (r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).filter(([key]) => EVENT_FIELDS.includes(key)));
    fc.assert(
      fc.property(row, (r) => {
        const short = renamed(r);
        assert.deepStrictEqual(outcome(() => rowToEvent(short, SHORT_NAMES)), outcome(() => rowToEvent(asked(r))));
        assert.deepStrictEqual(withFullNames(short), asked(r));
        assert.equal(keptReporter(short, SHORT_NAMES), keptReporter(r));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('the short names', () => {
  test('one for every field asked for but _msg and _time, each different and shorter, none a stored name', () => {
    assert.deepEqual(SHORT_RENAMES.map(([full]) => full).sort(), EVENT_FIELDS.filter((f) => f !== '_msg' && f !== '_time').sort());
    const shorts = SHORT_RENAMES.map(([, short]) => short);
    assert.equal(new Set(shorts).size, shorts.length);
    for (const [full, short] of SHORT_RENAMES) assert.ok(short.length < full.length && /^[a-z][A-Za-z_]*$/.test(short), `${full} as ${short}`);
    assert.deepEqual(shorts.filter((short) => ROW_FIELDS.includes(short)), []);
  });
});

describe('the fields asked of the store', () => {
  // Every field a row is read by must be asked for (`| fields ...`), or a reader would see it absent.
  const readKeys = (row: Record<string, unknown>, read: (row: Record<string, unknown>) => unknown): Set<string> => {
    const keys = new Set<string>();
    const spy = new Proxy(row, {
      get: (target, key) => (typeof key === 'string' && keys.add(key), Reflect.get(target, key)),
      has: (target, key) => (typeof key === 'string' && keys.add(key), Reflect.has(target, key)),
    });
    read(spy);
    return keys;
  };
  const every = (scope: string, value = '1'): Record<string, unknown> => {
    const row: Record<string, unknown> = { 'scope.name': scope, _time: '2026-11-30T10:05:00Z', _msg: 'm', severity_text: 'Normal' };
    for (const key of [...Object.values(OUR), ...Object.values(K8S), ...Object.values(K8S_REPORTING)]) row[key] = value;
    return row;
  };
  const rows = [
    ['our export', every(SCOPE_NAME)],
    ['the k8s_events receiver', (({ 'evtimeline.event.namespace': _ns, ...rest }) => rest)(every('receiver'))],
  ] as const;
  for (const [writer, row] of rows) {
    test(`${writer}: every field read is one asked for`, () => {
      const raw = new Set([...readKeys(row, rowToVersion), ...readKeys(row, keptReporter)]);
      assert.deepEqual([...raw].filter((key) => !ROW_FIELDS.includes(key)), []);
      const normalised = new Set([...readKeys(row, rowToEvent), ...readKeys(row, keptReporter)]);
      assert.deepEqual([...normalised].filter((key) => !EVENT_FIELDS.includes(key)), []);
      assert.ok(normalised.size > 10);
    });
  }
  // Each byte asked for is one the server writes and the reader parses: nothing is asked for that no
  // reader reads. Fields read only when another is empty (the reporter's fallbacks) are read of rows all empty.
  test('every field asked for is one read', () => {
    const all = [...rows.map(([, row]) => row), every(SCOPE_NAME, ''), every('receiver', '')];
    const read = (reader: (row: Record<string, unknown>) => unknown) => new Set(all.flatMap((row) => [...readKeys(row, reader), ...readKeys(row, keptReporter)]));
    const raw = read(rowToVersion);
    assert.deepEqual(ROW_FIELDS.filter((key) => !raw.has(key)), []);
    const normalised = read(rowToEvent);
    assert.deepEqual(EVENT_FIELDS.filter((key) => !normalised.has(key)), []);
  });
});
