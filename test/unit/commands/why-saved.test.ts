// The why after the objects are gone: a record's status lines and a capture's status.json read back
// by `incident --from` through the real file adapters, a record written before status lines saying
// so in one line, and the recorder writing a line only when a fact changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli.ts';
import { FactsRecorder } from '../../../src/app/record-facts.ts';
import { podFacts, nodeFacts } from '../../../src/core/facts.ts';
import type { FactSet, ObjectFacts } from '../../../src/core/facts.ts';
import { formatStatusLine, formatStatusFile, parseStatusFile } from '../../../src/io/facts-file.ts';
import { ev, NOW, ago } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { node, pod, terminated, waiting } from '../../support/status-objects.ts';
import { scratchDir } from '../../support/tmp.ts';

/** This file's temporary folders live under one, removed when the file ends. */
const SCRATCH = scratchDir('why-saved');

const HEADER = JSON.stringify({ kind: 'EvtimelineRecord', version: 1, context: 'lab', server: 'https://127.0.0.1:6443', namespace: 'shop', filter: {}, startedAt: ago(300) });
const kubelet = ev({ namespace: 'shop', kind: 'Pod', apiVersion: 'v1', objectName: 'web-1', objectUid: 'uid-web-1', type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container app in pod web-1_shop(uid-web-1)', component: 'kubelet', count: 4, first: 200, last: 30 });
// The kubelet names the container in involvedObject.fieldPath (pkg/kubelet/container/ref.go GenerateContainerRef).
const backOff = { ...kubelet, involvedObject: { ...(kubelet.involvedObject as object), fieldPath: 'spec.containers{app}' } };
const observation = (event: unknown) => JSON.stringify({ observedAt: ago(30), type: 'ADDED', event });
const oomPod = podFacts(pod({ containers: [{ limits: { memory: '20Mi' }, restartCount: 5, lastState: terminated('OOMKilled', 137), state: waiting('CrashLoopBackOff', 'back-off 40s restarting failed container=app') }] }));

function folder(): string {
  return mkdtempSync(join(SCRATCH, 'case-'));
}

async function incident(argv: string[]) {
  const fake = fakeDeps({ now: NOW });
  const code = await runCli(argv, fake.deps).catch((error: unknown) => error);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

const OOM_LINE = 'Pod/web-1: container app was killed for using more memory than its limit (OOMKilled, exit code 137, limits.memory 20Mi), restarted 5 times.';

test('incident --from a record tells the OOM kill from its status lines, after the Pod is gone', async () => {
  const path = join(folder(), 'shop.jsonl');
  writeFileSync(path, [HEADER, observation(backOff), formatStatusLine(NOW - 20_000, { facts: oomPod }).trimEnd(), ''].join('\n'));
  const r = await incident(['incident', '--from', path]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.stdout.includes(`\nWhy\n  ${OOM_LINE}\n`), r.stdout);
  const json = JSON.parse((await incident(['incident', '--from', path, '-o', 'json'])).stdout);
  assert.equal(json.causes[0].kind, 'oom-killed');
  assert.equal(json.causes[0].detail.limit, '20Mi');
  assert.deepEqual(json.causes[0].events, [(kubelet.metadata as { name: string }).name]);
  assert.equal(json.causesFrom.status, true);
});

test('the latest status line of an object wins: a later restart count is told', async () => {
  const path = join(folder(), 'shop.jsonl');
  const later = structuredClone(oomPod);
  (later.containers[0] as { restartCount: number }).restartCount = 7;
  writeFileSync(path, [HEADER, observation(backOff), formatStatusLine(NOW - 60_000, { facts: oomPod }).trimEnd(), formatStatusLine(NOW - 20_000, { facts: later }).trimEnd(), ''].join('\n'));
  assert.match((await incident(['incident', '--from', path])).stdout, /restarted 7 times\./);
});

test('a record written before status lines reads as before, with one line saying it holds no status', async () => {
  const path = join(folder(), 'old.jsonl');
  writeFileSync(path, [HEADER, observation(backOff), ''].join('\n'));
  const r = await incident(['incident', '--from', path]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.split('\n').filter((l) => l.includes('holds no status'));
  assert.deepEqual(lines, ['  The file holds no status (written before status lines were kept): causes are told from its events alone.']);
  assert.doesNotMatch(r.stdout, /OOMKilled/);
});

test('a status line an older reader cannot take is skipped, and the record still reads', async () => {
  const path = join(folder(), 'odd.jsonl');
  writeFileSync(path, [HEADER, observation(backOff), JSON.stringify({ observedAt: ago(10), kind: 'EvtimelineStatus', facts: 'not facts' }), ''].join('\n'));
  const r = await incident(['incident', '--from', path]);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /holds no status/);
});

test("a capture's status.json is read back as this capture's; another capture's is refused with a warning", async () => {
  const dir = folder();
  const capturedAt = new Date(NOW - 10_000).toISOString();
  const events = { kind: 'EvtimelineCapture', version: 1, context: 'lab', server: 'https://127.0.0.1:6443', namespace: 'shop', capturedAt, core: [backOff], eventsK8sIo: [] };
  writeFileSync(join(dir, 'events.json'), JSON.stringify(events));
  writeFileSync(join(dir, 'status.json'), formatStatusFile(capturedAt, { objects: [oomPod], gaps: [{ what: 'log', resource: 'pods/log', namespace: 'shop', reason: 'forbidden' }], readAt: null }));
  const r = await incident(['incident', '--from', dir]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.stdout.includes(OOM_LINE), r.stdout);
  assert.ok(r.stdout.includes('  Not read: pods/log in shop (forbidden): the last words of exiting containers are not told.'), r.stdout);
  writeFileSync(join(dir, 'status.json'), formatStatusFile(new Date(NOW).toISOString(), { objects: [oomPod], gaps: [], readAt: null }));
  const other = await incident(['incident', '--from', dir]);
  assert.match(other.stderr, /status\.json is not a status\.json of this capture/);
  assert.doesNotMatch(other.stdout, /OOMKilled/);
  assert.equal(parseStatusFile('{', NOW), null);
});

function recorderOver(answers: FactSet[]) {
  const written: ObjectFacts[][] = [];
  const notices: string[] = [];
  let at = NOW;
  const recorder = new FactsRecorder({
    read: async () => answers.shift() ?? { objects: [], gaps: [], readAt: null },
    write: async (_now, lines) => void written.push(lines.flatMap((l) => ('facts' in l ? [l.facts] : []))),
    now: () => (at += 1000),
    held: undefined,
    notice: (t) => notices.push(t),
    everyMs: 0,
  });
  return { recorder, written, notices };
}

test('the recorder writes a status line when it first reads an object and when a fact changes, not on a heartbeat', async () => {
  const ready = nodeFacts(node({ name: 'node-1' }));
  const restarted = structuredClone(oomPod);
  (restarted.containers[0] as { restartCount: number }).restartCount = 6;
  const { recorder, written } = recorderOver([
    { objects: [oomPod, ready], gaps: [], readAt: null },
    // A new heartbeat changes no fact: the Node reads the same.
    { objects: [structuredClone(oomPod), nodeFacts(node({ name: 'node-1' }))], gaps: [], readAt: null },
    { objects: [restarted, ready], gaps: [], readAt: null },
  ]);
  for (let i = 0; i < 2; i += 1) {
    recorder.saw([backOff]);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await recorder.finish(1000);
  assert.deepEqual(written.map((lines) => lines.map((f) => `${f.kind}/${f.name}`)), [['Pod/web-1', 'Node/node-1'], ['Pod/web-1']]);
  assert.equal((written[1]?.[0] as typeof oomPod).containers[0]?.restartCount, 6);
});

test('a recorder whose status reads fail says so once and keeps going', async () => {
  const { recorder, notices } = recorderOver([]);
  const failing = new FactsRecorder({
    read: async () => {
      throw new Error('connection refused');
    },
    write: async () => {},
    now: () => NOW,
    held: undefined,
    notice: (t) => notices.push(t),
    everyMs: 0,
  });
  failing.saw([backOff]);
  await new Promise((resolve) => setTimeout(resolve, 5));
  failing.saw([backOff]);
  await failing.finish(1000);
  await recorder.finish(10);
  assert.deepEqual(notices, ['could not read object status (the events are still recorded): connection refused']);
});
