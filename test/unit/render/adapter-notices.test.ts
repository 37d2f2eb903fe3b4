// The adapters' notices (src/core/notices.ts) in the words stderr shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shipNoticeText, watchNoticeText } from '../../../src/render/adapter-notices.ts';
import type { ShipNotice, WatchNotice } from '../../../src/core/notices.ts';

const watch: [WatchNotice, string][] = [
  [{ kind: 'credential-refused', what: 'watch' }, "watch refused the exec credential plugin's token (401 Unauthorized): running the plugin again"],
  [{ kind: 'expired', what: 'watch' }, 'watch expired (410 Gone): listing again'],
  [{ kind: 'retrying', what: 'list', error: 'connect ECONNREFUSED 127.0.0.1:6443', delayMs: 500 }, 'list failed (connect ECONNREFUSED 127.0.0.1:6443): retrying in 500 ms'],
  [{ kind: 'retrying', what: 'watch', error: 'HTTP 503', delayMs: 30_000 }, 'watch failed (HTTP 503): retrying in 30 s'],
  [{ kind: 'retrying', what: 'watch', error: 'HTTP 503', delayMs: 1500 }, 'watch failed (HTTP 503): retrying in 1.5 s'],
];
for (const [notice, words] of watch) test(`a watch notice reads: ${words}`, () => assert.equal(watchNoticeText(notice), words));

const ship: [ShipNotice, string][] = [
  [{ kind: 'rejected', origin: 'http://c:4318', rejected: 2, sent: 5, message: 'bad body' }, 'http://c:4318: rejected 2 of 5 log records: bad body'],
  [{ kind: 'rejected', origin: 'http://c:4318', rejected: 1, sent: 5, message: '' }, 'http://c:4318: rejected 1 of 5 log records'],
  [{ kind: 'retrying', origin: 'http://c:4318', why: 'HTTP 429', delayMs: 60_000 }, 'http://c:4318: HTTP 429; retrying in 60.0 s'],
  [{ kind: 'ledger-ahead', record: 'e.jsonl' }, 'e.jsonl.otlp.json says more was shipped than the record holds: shipping the record from its start'],
  [{ kind: 'ledger-of-another-record', record: 'e.jsonl' }, 'e.jsonl.otlp.json belongs to another record: shipping this one from its start'],
];
for (const [notice, words] of ship) test(`a shipping notice reads: ${words}`, () => assert.equal(shipNoticeText(notice), words));
