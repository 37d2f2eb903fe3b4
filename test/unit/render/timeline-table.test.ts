import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseEvent } from '../../../src/core/event.ts';
import type { Event } from '../../../src/core/event.ts';
import type { EventStanding } from '../../../src/core/incarnation.ts';
import { sortTimeline } from '../../../src/core/timeline.ts';
import { ansiPalette, choosePalette, plainPalette, type ColorChoice } from '../../../src/render/color.ts';
import { renderTimelineTable, timelineTableChunks, type TimelineTableOptions } from '../../../src/render/timeline-table.ts';
import { NOW, ev, labEvents } from '../../support/builders.ts';
import type { TreeNode } from '../../../src/core/ownership.ts';

const plain: TimelineTableOptions = { now: NOW, wide: false, allNamespaces: false, noHeaders: false, palette: plainPalette };
const lab = () => sortTimeline(labEvents().map(normaliseEvent));

function timeless(o: Parameters<typeof ev>[0]): Record<string, unknown> {
  const raw = ev(o);
  raw.firstTimestamp = null;
  raw.lastTimestamp = null;
  delete (raw.metadata as Record<string, unknown>).creationTimestamp;
  return raw;
}

describe('renderTimelineTable golden output at NOW', () => {
  test('prints the lab fixture like kubectl events, with FIRST SEEN and FROM, and marks Critical', () => {
    assert.equal(
      renderTimelineTable(lab(), plain),
      `FIRST SEEN   LAST SEEN         TYPE        REASON               OBJECT             FROM                MESSAGE
2m           3s (x5 over 2m)   Normal      ReconcileStarted     Pipeline/build-1   pipeline-operator   Started reconciling Pipeline build-1.
90s          90s               Critical!   StageUnknown         Pipeline/build-1   pipeline-operator   Stage of build-1 is not known.
60s          60s               Normal      ReconcileSucceeded   Pipeline/build-1   pipeline-operator   Pipeline build-1 reconciled.
45s          45s               Warning     FailedScheduling     Pod/hungry         default-scheduler   0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.
`,
    );
  });

  test('prints the wide table across all namespaces', () => {
    assert.equal(
      renderTimelineTable(lab(), { ...plain, wide: true, allNamespaces: true }),
      `NAMESPACE   FIRST SEEN   LAST SEEN         TYPE        REASON               OBJECT             FROM                INSTANCE                   ACTION       COUNT   NAME                      OBJECT UID                             MESSAGE
op-events   2m           3s (x5 over 2m)   Normal      ReconcileStarted     Pipeline/build-1   pipeline-operator   <none>                     <none>       5       build-1-started           11111111-2222-3333-4444-555555555555   Started reconciling Pipeline build-1.
op-events   90s          90s               Critical!   StageUnknown         Pipeline/build-1   pipeline-operator   <none>                     <none>       1       build-1-weird             11111111-2222-3333-4444-555555555555   Stage of build-1 is not known.
op-events   60s          60s               Normal      ReconcileSucceeded   Pipeline/build-1   pipeline-operator   pipeline-operator-0        Reconcile    1       build-1-done              11111111-2222-3333-4444-555555555555   Pipeline build-1 reconciled.
op-events   45s          45s               Warning     FailedScheduling     Pod/hungry         default-scheduler   default-scheduler-node-a   Scheduling   1       hungry.18a1b2c3d4e5f607   99999999-8888-7777-6666-555555555555   0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.
`,
    );
  });

  test('prints rows only with --no-headers', () => {
    assert.equal(
      renderTimelineTable(lab().slice(0, 2), { ...plain, noHeaders: true }),
      `2m    3s (x5 over 2m)   Normal      ReconcileStarted   Pipeline/build-1   pipeline-operator   Started reconciling Pipeline build-1.
90s   90s               Critical!   StageUnknown       Pipeline/build-1   pipeline-operator   Stage of build-1 is not known.
`,
    );
  });

  test('makes hostile and missing values visible and harmless', () => {
    const events = [
      ev({ name: 'esc', reason: 'Inject', message: '\u001b[31mred\u001b]0;title\u0007', first: 30 }),
      ev({ name: 'cr', reason: 'Overwrite', message: 'all good\rFAKE: everything is fine', first: 25 }),
      ev({ name: 'bidi', reason: 'Trojan', objectName: 'evil\u202eexe.txt', message: 'look \u2066here\u2069', first: 20 }),
      ev({ name: 'orphan', reason: 'NoTarget', noObject: true, message: 'no target', first: 15 }),
      ev({ name: 'blank-type', type: '', reason: 'Blank', message: '  ', count: 0, first: 10 }),
      timeless({ name: 'timeless', reason: 'NoTime', message: 'no time' }),
    ].map(normaliseEvent);
    assert.equal(
      renderTimelineTable(events, plain),
      `FIRST SEEN   LAST SEEN   TYPE      REASON      OBJECT                       FROM                MESSAGE
30s          30s         Normal    Inject      Pipeline/build-1             pipeline-operator   ^[[31mred^[]0;title^G
25s          25s         Normal    Overwrite   Pipeline/build-1             pipeline-operator   all good\\rFAKE: everything is fine
20s          20s         Normal    Trojan      Pipeline/evil\\u202eexe.txt   pipeline-operator   look \\u2066here\\u2069
15s          15s         Normal    NoTarget    <none>/<none>                pipeline-operator   no target
10s          10s         <none>!   Blank       Pipeline/build-1             pipeline-operator   <none>
<unknown>    <unknown>   Normal    NoTime      Pipeline/build-1             pipeline-operator   no time
`,
    );
  });
});

describe('renderTimelineTable safety and shape', () => {
  const huge = () => [normaliseEvent(ev({ name: 'huge', message: `${'m'.repeat(10_237)}END` }))];

  test('cuts a 10 kB message to 1024 characters in the default table', () => {
    const row = renderTimelineTable(huge(), { ...plain, noHeaders: true }).trimEnd();
    const message = row.slice(row.lastIndexOf('   ') + 3);
    assert.equal(message.length, 1024);
    assert.ok(message.endsWith('mmm...'));
  });

  test('keeps whole what kubectl events shows whole: kube-scheduler\'s FailedScheduling on two nodes, and a 1024-character note', () => {
    const scheduler =
      "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint(s). " +
      'no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.';
    const longest = `${'n'.repeat(1020)}LAST`;
    for (const message of [scheduler, longest]) {
      const row = renderTimelineTable([normaliseEvent(ev({ name: 'fs', message }))], { ...plain, noHeaders: true }).trimEnd();
      assert.ok(row.endsWith(`   ${message}`), row);
    }
  });

  test('keeps the whole message with -o wide', () => {
    assert.ok(renderTimelineTable(huge(), { ...plain, wide: true }).includes('mmmEND\n'));
  });

  test('uses a given cell width', () => {
    const row = renderTimelineTable(huge(), { ...plain, noHeaders: true, maxCellWidth: 20 }).trimEnd();
    assert.ok(row.endsWith('   mmmmmmmmmmmmmmmmm...'));
  });

  test('never writes a raw control character, whatever the event holds', () => {
    const nasty = '\u0000\u0007\b\t\n\u000b\f\r\u001b\u007f\u009b\u202e\u2028\ufeff';
    const raw = ev({ name: nasty, type: nasty, reason: nasty, kind: nasty, objectName: nasty, component: nasty, message: nasty });
    const out = renderTimelineTable([normaliseEvent(raw)], { ...plain, wide: true, allNamespaces: true });
    const lines = out.split('\n');
    assert.equal(lines.length, 3); // header, one row, and the empty string after the final newline
    for (const line of lines) assert.doesNotMatch(line, /[\u0000-\u001f\u007f-\u009f\u202e\u2028\ufeff]/);
  });

  test('leaves no trailing spaces', () => {
    for (const line of renderTimelineTable(lab(), { ...plain, wide: true }).split('\n')) assert.equal(line, line.trimEnd());
  });

  test('prints nothing for no events (the caller says "No events found" on stderr)', () => {
    assert.equal(renderTimelineTable([], plain), '');
  });

  test('colours Warning and unconventional types with the ANSI palette, and nothing else', () => {
    const out = renderTimelineTable(lab(), { ...plain, palette: ansiPalette, noHeaders: true });
    const lines = out.split('\n');
    assert.ok(lines[1]?.includes('\u001b[35mCritical!\u001b[39m'));
    assert.ok(lines[3]?.includes('\u001b[33mWarning\u001b[39m'));
    assert.doesNotMatch(`${lines[0]}${lines[2]}`, /\u001b/);
  });

  test('keeps columns aligned when cells are coloured', () => {
    const coloured = renderTimelineTable(lab(), { ...plain, palette: ansiPalette }).replace(/\u001b\[\d+m/g, '');
    assert.equal(coloured, renderTimelineTable(lab(), plain));
  });
});

describe('choosePalette', () => {
  const cases: [string, ColorChoice, 'ansi' | 'plain'][] = [
    ['--color=always paints even into a pipe', { flag: 'always', isTTY: false, env: {} }, 'ansi'],
    ['--color=never never paints', { flag: 'never', isTTY: true, env: { FORCE_COLOR: '1' } }, 'plain'],
    ['auto paints a terminal', { flag: 'auto', isTTY: true, env: {} }, 'ansi'],
    ['auto does not paint a pipe', { flag: 'auto', isTTY: false, env: {} }, 'plain'],
    ['NO_COLOR turns auto off on a terminal', { flag: 'auto', isTTY: true, env: { NO_COLOR: '1' } }, 'plain'],
    ['an empty NO_COLOR is ignored', { flag: 'auto', isTTY: true, env: { NO_COLOR: '' } }, 'ansi'],
    ['--color=always wins over NO_COLOR', { flag: 'always', isTTY: true, env: { NO_COLOR: '1' } }, 'ansi'],
    ['FORCE_COLOR paints a pipe under auto', { flag: 'auto', isTTY: false, env: { FORCE_COLOR: '1' } }, 'ansi'],
    ['FORCE_COLOR=0 turns auto off', { flag: 'auto', isTTY: true, env: { FORCE_COLOR: '0' } }, 'plain'],
    ['TERM=dumb turns auto off', { flag: 'auto', isTTY: true, env: { TERM: 'dumb' } }, 'plain'],
  ];
  for (const [name, choice, want] of cases) {
    test(name, () => assert.equal(choosePalette(choice), want === 'ansi' ? ansiPalette : plainPalette));
  }
});

describe('renderTimelineTable marks what the live cluster says', () => {
  const standings: Record<string, EventStanding> = {
    'build-1-started': { incarnation: 'previous', onServer: true },
    'build-1-weird': { incarnation: 'previous', onServer: false },
    'build-1-done': { incarnation: 'unknown', onServer: true },
    'hungry.18a1b2c3d4e5f607': { incarnation: 'gone' },
  };
  const standing = (ev: Event): EventStanding => standings[ev.name] ?? {};

  test('adds (previous) and (gone) to OBJECT and [not on server] to LAST SEEN; current and unknown add nothing (golden)', () => {
    assert.equal(
      renderTimelineTable(lab(), { ...plain, standing }),
      `FIRST SEEN   LAST SEEN             TYPE        REASON               OBJECT                        FROM                MESSAGE
2m           3s (x5 over 2m)       Normal      ReconcileStarted     Pipeline/build-1 (previous)   pipeline-operator   Started reconciling Pipeline build-1.
90s          90s [not on server]   Critical!   StageUnknown         Pipeline/build-1 (previous)   pipeline-operator   Stage of build-1 is not known.
60s          60s                   Normal      ReconcileSucceeded   Pipeline/build-1              pipeline-operator   Pipeline build-1 reconciled.
45s          45s                   Warning     FailedScheduling     Pod/hungry (gone)             default-scheduler   0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.
`,
    );
  });

  test('prints the table unchanged when every event is current and on the server', () => {
    const all = (): EventStanding => ({ incarnation: 'current', onServer: true });
    assert.equal(renderTimelineTable(lab(), { ...plain, standing: all }), renderTimelineTable(lab(), plain));
  });

  test('keeps the marker after a name cut to the cell width', () => {
    const long = [normaliseEvent(ev({ objectName: 'x'.repeat(50) }))];
    const row = renderTimelineTable(long, { ...plain, noHeaders: true, maxCellWidth: 20, standing: () => ({ incarnation: 'gone' }) });
    assert.match(row, / Pipeline\/xxxxxxxx\.\.\. \(gone\) /);
  });
});

describe('renderTimelineTable with --tree: one mark per object', () => {
  // A StatefulSet's db-1 deleted and made again: the old incarnation is gone (the tree says so) and a
  // previous one (the lookup says so); db-2 is gone with no successor; the ReplicaSet is gone too.
  const node = (kind: string, name: string, uid: string, gone: boolean): TreeNode => ({ apiVersion: kind === 'Pod' ? 'v1' : 'apps/v1', kind, name, namespace: 'shop', uid, gone });
  const sts = node('StatefulSet', 'db', 'sts', false);
  const rows = [
    { uid: 'old-1', name: 'db-1', first: 50, chain: [sts, node('Pod', 'db-1', 'old-1', true)], incarnation: 'previous' },
    { uid: 'new-1', name: 'db-1', first: 40, chain: [sts, node('Pod', 'db-1', 'new-1', false)], incarnation: 'current' },
    { uid: 'gone-2', name: 'db-2', first: 30, chain: [sts, node('Pod', 'db-2', 'gone-2', true)], incarnation: 'gone' },
    { uid: 'p-x', name: 'web-x', first: 20, chain: [node('ReplicaSet', 'web', 'rs', true), node('Pod', 'web-x', 'p-x', true)], incarnation: 'previous' },
  ] as const;
  const events = rows.map((r) => normaliseEvent(ev({ name: r.uid, first: r.first, apiVersion: 'v1', kind: 'Pod', objectName: r.name, namespace: 'shop', reason: 'Scheduled', message: 'assigned' })));
  const byEvent = new Map(events.map((e, i) => [e.name, rows[i] as (typeof rows)[number]]));

  test('marks an earlier incarnation (previous) only, a gone object (gone) only, an owner gone as the tree says (golden)', () => {
    const table = renderTimelineTable(events, {
      ...plain,
      chainOf: (e) => byEvent.get(e.name)?.chain,
      standing: (e) => ({ incarnation: byEvent.get(e.name)?.incarnation }),
    });
    assert.equal(
      table,
      `FIRST SEEN   LAST SEEN   TYPE     REASON      OBJECT                                         FROM                MESSAGE
50s          50s         Normal   Scheduled   StatefulSet/db > Pod/db-1 (previous)           pipeline-operator   assigned
40s          40s         Normal   Scheduled   StatefulSet/db > Pod/db-1                      pipeline-operator   assigned
30s          30s         Normal   Scheduled   StatefulSet/db > Pod/db-2 (gone)               pipeline-operator   assigned
20s          20s         Normal   Scheduled   ReplicaSet/web (gone) > Pod/web-x (previous)   pipeline-operator   assigned
`,
    );
  });
});

describe('timelineTableChunks: the table in pieces, for tables too big to hold', () => {
  // 2,500 rows: several pieces, each small enough to die young (under V8's 128 KiB large-object
  // size). The widest REASON is on the last row, after the first pieces are made: every piece must
  // still be laid out for it.
  const many = (): Event[] =>
    Array.from({ length: 2500 }, (_, i) => normaliseEvent(ev({ name: `e${i}`, reason: i === 2499 ? 'AReasonWiderThanEveryOther' : 'Pulled', first: 2500 - i })));

  test('is the whole table, piece after piece, each piece whole lines', () => {
    const pieces = [...timelineTableChunks(many(), plain)];
    assert.ok(pieces.length >= 3, `${pieces.length} pieces`);
    for (const piece of pieces) assert.ok(piece.endsWith('\n') && piece.length < 64 * 1024, `a piece of ${piece.length}`);
    assert.equal(pieces.join('').split('\n').length, 1 + 2500 + 1);
  });

  test('lays every piece out for the widest cell of any row', () => {
    const lines = [...timelineTableChunks(many(), plain)].join('').trimEnd().split('\n');
    const message = (lines[0] as string).indexOf('MESSAGE');
    assert.ok(message > (lines[0] as string).indexOf('REASON') + 'AReasonWiderThanEveryOther'.length);
    for (const line of lines.slice(1)) assert.equal(line.indexOf('Started reconciling'), message, line);
  });

  test('is nothing for no events', () => {
    assert.deepEqual([...timelineTableChunks([], plain)], []);
  });
});
