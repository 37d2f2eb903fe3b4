// Property tests of the other stores' files (src/stores/files.ts): whatever entries a store wrote,
// one event per event the writer had, its count and times those the entries say; Alloy's lines
// read back as written, whatever the message holds.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { normaliseEvent } from '../../../src/core/event.ts';
import { ALLOY_KEYS, parseAlloyLogfmt } from '../../../src/stores/alloy-line.ts';
import type { AlloyFields } from '../../../src/stores/alloy-line.ts';
import { parseStoreDocument, parseStoreLines } from '../../../src/stores/files.ts';

type Json = Record<string, any>;
const BASE = Date.parse('2026-11-24T00:00:00Z');
const iso = (s: number) => new Date(BASE + s * 1000).toISOString();

function payload(uid: string, rv: number): Json {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `e-${uid}`, namespace: 'ns', uid, resourceVersion: String(rv) },
    involvedObject: { kind: 'Pod', name: `p-${uid}`, namespace: 'ns', uid: `o-${uid}` },
    reason: 'R',
    message: `m ${rv}`,
    type: 'Normal',
  };
}

/** Go's strconv.Quote for what it keeps printable (valid UTF-8 in, \x for control bytes, \u for the rest). */
function goQuote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp >= 0x80 && cp < 0xa0) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** A line as Alloy's appendTextMsg writes it: `key=value ` for each field present, msg quoted. */
function alloyLine(fields: AlloyFields): string {
  return ALLOY_KEYS.filter((k) => fields[k] !== undefined)
    .map((k) => `${k}=${k === 'msg' ? goQuote(fields[k] as string) : fields[k]} `)
    .join('');
}

const token = fc.stringMatching(/^[A-Za-z0-9._:/-]{1,12}$/);

describe('a Cloud Logging export, whatever entries it holds', () => {
  test('one event per uid, its count the number of its entries, its times the first and last entry', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ uid: fc.constantFrom('a', 'b', 'c'), at: fc.integer({ min: 0, max: 86_400 }) }), { minLength: 1, maxLength: 30 }), (entries) => {
        const doc = entries.map((e, i) => ({ insertId: String(i), logName: 'projects/p/logs/events', timestamp: iso(e.at), jsonPayload: payload(e.uid, i) }));
        const saved = parseStoreDocument(doc, 'doc') as Json;
        const events = (saved.raw.core as Json[]).map(normaliseEvent);
        const uids = new Set(entries.map((e) => e.uid));
        assert.equal(events.length, uids.size);
        for (const uid of uids) {
          const mine = entries.filter((e) => e.uid === uid).map((e) => e.at);
          const ev = events.find((e) => e.uid === uid);
          assert.equal(ev?.count, mine.length);
          assert.equal(ev?.firstSeen, BASE + Math.min(...mine) * 1000);
          assert.equal(ev?.lastSeen, BASE + Math.max(...mine) * 1000);
        }
      }),
    );
  });
});

describe('an Elasticsearch search response, whatever hits it holds', () => {
  test('every hit whose _source is an Event is read, and nothing else', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 1, max: 999 }).map((rv) => ({ _source: payload(`u${rv % 4}`, rv) })), fc.constant({ _source: { message: 'x' } }), fc.constant(null)), { maxLength: 20 }), (hits) => {
        const saved = parseStoreDocument({ hits: { hits } }, 'doc') as Json;
        const events = hits.filter((h) => h !== null && 'metadata' in (h._source as Json)).length;
        assert.equal(saved.raw.core.length, events);
        assert.equal(saved.provenance.skipped, hits.length - events);
      }),
    );
  });
});

describe("Alloy's lines, whatever they hold", () => {
  const fields = fc.record(
    {
      name: token,
      kind: token,
      action: token,
      objectAPIversion: token,
      eventRV: token,
      reportingcontroller: token,
      // A %s value is written as it is: a reason may itself read like a message.
      reason: fc.oneof(token, fc.tuple(token, token).map(([a, b]) => `${a} msg="${b}`)),
      type: token,
      count: fc.integer({ min: 1, max: 1e6 }).map(String),
      msg: fc.string({ unit: 'grapheme', maxLength: 60 }),
    },
    { requiredKeys: ['name', 'msg'] },
  );
  test('a logfmt line reads back as the fields written, the message byte for byte', () => {
    fc.assert(fc.property(fields, (f) => assert.deepEqual(parseAlloyLogfmt(alloyLine(f)), { ...f })));
  });
  test('logcli lines of one object and reason: one event per run of rising counts, first seen where its run began', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 20 }), (counts) => {
        const text = counts
          .map((count, i) => JSON.stringify({ labels: { namespace: 'ns' }, line: alloyLine({ name: 'p', kind: 'Pod', reason: 'R', count: String(count), msg: 'm' }), timestamp: iso(i) }))
          .join('\n');
        const events = ((parseStoreLines(text) as Json).raw.core as Json[]).map(normaliseEvent);
        // A run ends where the count does not rise.
        const starts = counts.flatMap((c, i) => (i === 0 || c <= (counts[i - 1] as number) ? [i] : []));
        assert.equal(events.length, starts.length);
        assert.deepEqual(
          events.map((e) => e.firstSeen),
          starts.map((i) => BASE + i * 1000),
        );
      }),
    );
  });
});
