// A store answers a query's rows in no set order (VictoriaLogs' workers each write the blocks they
// scan: app/vlselect/logsql/logsql.go ProcessQueryRequest, writeBlock per workerID), so whatever a
// read prints must not depend on the order its rows came in. The same rows, handed to the real
// VictoriaLogs source at its rows port in other orders and other chunkings, must print byte for
// byte the same in every output of every reading verb. The rows hold the ties that once printed
// in arrival order: an Event name reused after deletion (same name and times, another uid), our
// export's copy beside the receiver's when only one of them has a uid, two copies of one version
// that cannot be told apart yet say different things, events with no uid or name at all, an
// object's events about several containers (fieldPath), and events naming no uid whose objects
// had two incarnations begun at the same time.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { runCli } from '../../../src/cli.ts';
import type { Json } from '../../../src/core/json.ts';
import { eventToLog } from '../../../src/otlp/logs.ts';
import type { OtlpLog } from '../../../src/otlp/logs.ts';
import { SCOPE_NAME } from '../../../src/otlp/logs.ts';
import { victoriaLogsSource } from '../../../src/stores/victorialogs-source.ts';
import type { Deps } from '../../../src/deps.ts';
import { ago, ev, NOW } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';

const RECEIVER_SCOPE = 'github.com/open-telemetry/opentelemetry-collector-contrib/receiver/k8seventsreceiver';

/** An OTLP log record as VictoriaLogs keeps it (app/vlinsert/opentelemetry/pb.go): flat, every value text, empty ones absent. */
function storedRow(log: OtlpLog, scope: string): Json {
  const row: Json = {};
  for (const [key, value] of Object.entries({ ...log.resource, ...log.attributes })) if (value !== '') row[key] = String(value);
  const [seconds, nanos] = log.time;
  row._time = `${new Date(seconds * 1000).toISOString().slice(0, 19)}.${String(nanos).padStart(9, '0')}Z`;
  if (log.body !== '') row._msg = log.body;
  row.severity_text = log.severityText;
  row['scope.name'] = scope;
  return row;
}

/** Our export's row of a raw Event. */
const ours = (raw: Json): Json => storedRow(eventToLog(raw, [NOW / 1000, 0]), SCOPE_NAME);

/** The k8s_events receiver's row of it: none of our fields. */
function receivers(raw: Json): Json {
  const row = ours(raw);
  for (const key of Object.keys(row)) if (key.startsWith('evtimeline.')) delete row[key];
  row['scope.name'] = RECEIVER_SCOPE;
  return row;
}

const without = (raw: Json, path: 'uid' | 'name'): Json => ({ ...raw, metadata: { ...(raw.metadata as Json), [path]: '' } });

function rows(): Json[] {
  const at = { first: 600, last: 300 };
  const reused = { name: 'web.17a', objectName: 'web', kind: 'Pod', apiVersion: 'v1', objectUid: 'pod-web', reason: 'BackOff', type: 'Warning', component: 'kubelet', ...at };
  const twin = ev({ name: 'db.1', objectName: 'db', kind: 'Pod', apiVersion: 'v1', objectUid: 'pod-db', reason: 'Pulled', uid: 'aaaaaaaa-0000-0000-0000-000000000001', ...at });
  const clash = { name: 'cfg.2', objectName: 'cfg', reason: 'Synced', uid: 'bbbbbbbb-0000-0000-0000-000000000002', ...at };
  const containers = Array.from({ length: 30 }, (_, i) =>
    ev({ objectName: 'api', kind: 'Pod', apiVersion: 'v1', objectUid: 'pod-api', reason: i % 2 ? 'Pulling' : 'Started', component: 'kubelet', fieldPath: `spec.containers{c${i % 3}}`, first: 900 - i, last: 900 - i, message: `container c${i % 3} step ${i}` }),
  );
  const incarnations = [
    ev({ objectName: 'job-1', kind: 'Job', apiVersion: 'batch/v1', objectUid: 'job-old', reason: 'Created', first: 1200, last: 1100 }),
    ev({ objectName: 'job-1', kind: 'Job', apiVersion: 'batch/v1', objectUid: 'job-new', reason: 'Created', first: 1200, last: 1000 }),
    ev({ objectName: 'job-1', kind: 'Job', apiVersion: 'batch/v1', objectUid: '', reason: 'Completed', first: 1050, last: 1050 }),
  ];
  return [
    // An Event name reused after deletion: same name and times, another uid and message.
    ours(ev({ ...reused, uid: 'cccccccc-0000-0000-0000-000000000001', message: 'Back-off restarting failed container app in pod web_shop' })),
    ours(ev({ ...reused, uid: 'cccccccc-0000-0000-0000-000000000002', message: 'Back-off pulling image "web:2"' })),
    // Our export's copy without a uid, the receiver's with it: two events, same name and times.
    ours(without(twin, 'uid')),
    receivers(twin),
    // Two copies of one version (same uid, resourceVersion, times and count) that say different things.
    ours(ev({ ...clash, message: 'synced from main' })),
    ours(ev({ ...clash, message: 'synced from a \u001b[31mhostile\u001b[0m <script>branch</script>' })),
    // The receiver's copies of one event, no resourceVersion, equal times and counts, other messages.
    receivers(ev({ ...clash, uid: 'dddddddd-0000-0000-0000-000000000004', message: 'first copy' })),
    receivers(ev({ ...clash, uid: 'dddddddd-0000-0000-0000-000000000004', message: 'second copy' })),
    // ... and other reasons (what -o stable prints).
    receivers(ev({ ...clash, uid: 'dddddddd-0000-0000-0000-000000000005', reason: 'SyncFailed', type: 'Warning' })),
    receivers(ev({ ...clash, uid: 'dddddddd-0000-0000-0000-000000000005', reason: 'SyncRetried' })),
    // No uid and no name: nothing to tell them apart by.
    ours(without(without(ev({ reason: 'Orphan', message: 'one', ...at }), 'uid'), 'name')),
    ours(without(without(ev({ reason: 'Orphan', message: 'two', ...at }), 'uid'), 'name')),
    ...containers.map(ours),
    ...incarnations.map(ours),
    // Versions of one event, the newer by resourceVersion.
    ours(ev({ name: 'web.18', uid: 'eeeeeeee-0000-0000-0000-000000000005', reason: 'Scaled', count: 1, first: 400, last: 400 })),
    // Not about an event: skipped.
    { _time: ago(10), _msg: 'GET /healthz 200', 'service.name': 'web' },
  ];
}

/** `all` in `order`, cut into chunks at `cuts` (as the answer's chunks arrive). */
function arranged(all: Json[], order: number[], cuts: number[]): Json[][] {
  const inOrder = order.map((i) => all[i] as Json);
  const chunks: Json[][] = [];
  let start = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    if (cut > start && cut < inOrder.length) {
      chunks.push(inOrder.slice(start, cut));
      start = cut;
    }
  }
  chunks.push(inOrder.slice(start));
  return chunks;
}

const FROM = 'victorialogs+http://vl.invalid:9428';

async function output(argv: string[], chunks: Json[][]): Promise<string> {
  const openSource: Deps['openSource'] = async (request) => {
    if (request.kind !== 'store') throw new Error(`no ${request.kind} source in this test`);
    const endpoint = { base: request.store.base, query: request.store.query, headers: {}, timeoutMs: 0 };
    return victoriaLogsSource(endpoint, {
      namespace: request.namespace,
      window: request.window,
      ...(request.keep !== undefined ? { keep: request.keep } : {}),
      // As the server answers `| fields ... | rename ...`: the fields asked for, under the names asked.
      rows: async function* (_query, asked) {
        const names = new Map<string, string>([...asked.fields.map((field): [string, string] => [field, field]), ...(asked.renames ?? [])]);
        for (const chunk of chunks) yield chunk.map((row) => Object.fromEntries(Object.entries(structuredClone(row)).flatMap(([key, value]) => (names.has(key) ? [[names.get(key) as string, value]] : []))));
      },
    });
  };
  const fake = fakeDeps({ openSource });
  const code = await runCli(argv, fake.deps).catch((error: unknown) => String(error));
  return `exit ${String(code)}\n--- stdout\n${fake.stdout()}--- stderr\n${fake.stderr()}`;
}

const READS: string[][] = [
  ['-A'],
  ['-A', '-o', 'wide'],
  ['-A', '-o', 'json'],
  ['-A', '-o', 'yaml'],
  ['-A', '-o', 'name'],
  ['-A', '-o', 'stable'],
  ['-A', '-o', 'html'],
  ['-A', '-o', 'jsonpath={range [*]}{.uid} {.name} {.message}{"\\n"}{end}'],
  ['-A', '--since', '2h', '-o', 'json'],
  ['-n', 'op-events', '-o', 'json'],
  ['incident', '-n', 'op-events'],
  ['incident', '-n', 'op-events', '-o', 'json'],
  ['type-audit', '-A'],
  ['type-audit', '-A', '-o', 'json'],
];

describe('a store\'s rows in any order print the same', () => {
  const all = rows();
  const identity = all.map((_, i) => i);
  for (const argv of READS) {
    test(`${argv.join(' ')}: byte-identical whatever order and chunks the rows come in`, async () => {
      const first = await output(['--from', FROM, ...argv], arranged(all, identity, []));
      assert.match(first, /^exit [03]\n/, first);
      assert.doesNotMatch(first, /--- stdout\n--- stderr/, 'something printed');
      await fc.assert(
        fc.asyncProperty(fc.shuffledSubarray(identity, { minLength: all.length }), fc.array(fc.nat({ max: all.length }), { maxLength: 4 }), async (order, cuts) => {
          assert.equal(await output(['--from', FROM, ...argv], arranged(all, order, cuts)), first);
        }),
        { numRuns: 25 },
      );
    });
  }
});
