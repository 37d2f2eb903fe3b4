import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { parseRecordOptions, statusWriter } from '../../../src/commands/record.ts';
import { RECORD_KIND, RecordIndex, byResourceVersion, canResume, planStep } from '../../../src/core/record.ts';
import { describeFilter } from '../../../src/io/record-line.ts';
import type { PlanContext, RecordHeader } from '../../../src/core/record.ts';
import type { ResumeVerdict } from '../../../src/core/source.ts';
import { runCli } from '../../../src/cli.ts';
import { UsageError } from '../../../src/errors.ts';
import { judgeResume, readWatchLines } from '../../../src/kube/watch.ts';
import { DEFAULT_RETRY, backoffDelay } from '../../../src/core/retry.ts';
import { progressLine, resumeNotice, summaryLine } from '../../../src/render/record-status.ts';
import { ev } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';

type Json = Record<string, unknown>;

function version(base: Json, resourceVersion: string, count = 1): Json {
  return { ...base, count, metadata: { ...(base.metadata as Json), resourceVersion } };
}
const rvs = (events: Json[]): string[] => events.map((e) => String((e.metadata as Json).resourceVersion));
const names = (events: Json[]): string[] => events.map((e) => String((e.metadata as Json).name));

describe('record options', () => {
  test('FILE, the scope and --duration become typed values', () => {
    const opts = parseRecordOptions('events.jsonl', { namespace: 'op-events', duration: '90s', types: ['Warning'] });
    assert.equal(opts.file, 'events.jsonl');
    assert.equal(opts.common.scope.namespace, 'op-events');
    assert.equal(opts.durationMs, 90_000);
    assert.deepEqual(opts.common.filter.types, ['Warning']);
  });

  test('no --duration means until interrupted', () => assert.equal(parseRecordOptions('e.jsonl', {}).durationMs, undefined));

  test('failed watches are retried on the default schedule (no flag changes it)', () => assert.equal(parseRecordOptions('e.jsonl', {}).retry, DEFAULT_RETRY));

  const bad: [string, string, Json, RegExp][] = [
    ['an empty file name', '', {}, /record needs a file name/],
    ['- (stdout)', '-', {}, /writes to a file, not to stdout/],
    ['--from', 'e.jsonl', { from: 'old.jsonl' }, /--from does not apply/],
    ['a --duration that is not one', 'e.jsonl', { duration: 'forever' }, /--duration "forever"/],
    ['a --duration of zero', 'e.jsonl', { duration: '0s' }, /--duration "0s"/],
  ];
  for (const [name, file, raw, message] of bad) {
    test(`a usage error: ${name}`, () => assert.throws(() => parseRecordOptions(file, raw), (e: unknown) => e instanceof UsageError && message.test(e.message)));
  }
});

describe('continuing a record', () => {
  const header = (o: Partial<RecordHeader> = {}): RecordHeader => ({
    kind: RECORD_KIND,
    version: 1,
    context: 'lab',
    server: 'https://127.0.0.1:6443',
    namespace: 'op-events',
    filter: {},
    startedAt: Date.parse('2026-11-30T12:00:00.000Z'),
    ...o,
  });
  const cases: [string, RecordHeader | undefined, boolean][] = [
    ['the same server, namespace and filters resume the watch', header({ context: 'renamed', startedAt: 0 }), true],
    ['no earlier session lists first', undefined, false],
    ['another server lists first', header({ server: 'https://10.0.0.1:6443' }), false],
    ['another namespace lists first', header({ namespace: 'other' }), false],
    ['all namespaces before, one now, lists first', header({ namespace: null }), false],
    ['other filters list first', header({ filter: { types: ['Warning'] } }), false],
  ];
  for (const [name, previous, want] of cases) test(name, () => assert.equal(canResume(previous, header()), want));

  const verdicts: [string, string, string, ResumeVerdict][] = [
    ['a version the server has passed resumes', '100', '250', 'resume'],
    ['the server\'s own version resumes', '250', '250', 'resume'],
    ['a version the server has not reached (a re-created cluster) lists again', '99999999', '250', 'ahead'],
    ['numbers beyond 2^53 are compared exactly', '9007199254740993', '9007199254740992', 'ahead'],
    ['a version that is not a number lists again', 'abc', '250', 'unknown'],
    ['a server version that is not a number lists again', '100', 'v2', 'unknown'],
    ['a server that gives no version lists again', '100', '', 'unknown'],
  ];
  for (const [name, from, current, want] of verdicts) test(name, () => assert.equal(judgeResume(from, current), want));

  const resume = (verdict: ResumeVerdict, current = '250') => ({ kind: 'resume' as const, from: '99999999', current, verdict });
  test('what a continued record says, once the server has answered', () => {
    assert.equal(resumeNotice('e.jsonl', 3, resume('resume')), 'continuing e.jsonl (3 observations) from resourceVersion 99999999');
    assert.equal(
      resumeNotice('e.jsonl', 3, resume('ahead')),
      "e.jsonl: its last resourceVersion 99999999 is ahead of the server's 250 (a different or re-created cluster?): listing again",
    );
    assert.equal(
      resumeNotice('e.jsonl', 3, resume('unknown', '')),
      'e.jsonl: cannot tell whether the server (at resourceVersion unknown) has reached its last resourceVersion 99999999: listing again',
    );
  });

  test('the filters are described without the ones not given', () => {
    assert.deepEqual(describeFilter({}), {});
    assert.deepEqual(describeFilter({ object: { kind: 'Pod', name: 'hungry' }, types: ['Critical'], reasons: [], sinceMs: 60_000 }), {
      for: 'Pod/hungry',
      types: ['Critical'],
      sinceMs: 60_000,
    });
  });

  test('the selection criteria are described too, so a session that hid events is not continued as one that kept them', () => {
    const filter = {
      excludeReasons: ['Pulled'],
      excludeTypes: ['Normal'],
      message: /fail/u,
      excludeMessage: /^Back-off/u,
      fields: [{ field: 'reason', op: '!=' as const, value: 'X' }],
      sinceTime: 1,
      until: 2,
      hideStartupProbes: true,
    };
    assert.deepEqual(describeFilter(filter), {
      excludeReasons: ['Pulled'],
      excludeTypes: ['Normal'],
      message: 'fail',
      excludeMessage: '^Back-off',
      fields: ['reason!=X'],
      sinceTime: 1,
      until: 2,
      excludeStartupProbes: true,
    });
    assert.notDeepEqual(describeFilter({ excludeReasons: ['Pulled'] }), describeFilter({}));
  });
});

describe('which lines a step adds', () => {
  const started = ev({ name: 'build-1-started', uid: 'u-started' });
  const weird = ev({ name: 'build-1-weird', uid: 'u-weird', type: 'Critical' });
  const done = ev({ name: 'build-1-done', uid: 'u-done' });
  const elsewhere = ev({ name: 'other', uid: 'u-other', namespace: 'elsewhere' });

  function context(o: Partial<PlanContext> = {}): PlanContext {
    return { index: new RecordIndex(), namespace: 'op-events', keep: () => true, observedAt: Date.parse('2026-11-30T12:00:00.000Z'), ...o };
  }
  const list = (items: Json[], why: 'start' | 'expired' = 'start') => ({ kind: 'list' as const, items, resourceVersion: '100', why });
  const change = (type: 'ADDED' | 'MODIFIED' | 'DELETED', object: Json) => ({ kind: 'change' as const, type, object });

  test('a list writes every event as ADDED, oldest resourceVersion first', () => {
    const planned = planStep(list([version(started, '30'), version(weird, '10'), version(done, '20')]), context());
    assert.deepEqual(planned.map((o) => o.type), ['ADDED', 'ADDED', 'ADDED']);
    assert.deepEqual(rvs(planned.map((o) => o.event)), ['10', '20', '30']);
  });

  test('listing again writes only versions the record lacks', () => {
    const ctx = context();
    planStep(list([version(started, '10'), version(weird, '11')]), ctx);
    const planned = planStep(list([version(started, '15', 2), version(weird, '11'), version(done, '16')], 'expired'), ctx);
    assert.deepEqual(planned.map((o) => [o.type, (o.event.metadata as Json).name]), [['MODIFIED', 'build-1-started'], ['ADDED', 'build-1-done']]);
  });

  test('a list\'s new version of an event the record holds is MODIFIED, also when its liveness was forgotten', () => {
    const index = RecordIndex.from([{ observedAt: null, type: 'ADDED', event: version(started, '10') }]);
    index.forgetLive();
    assert.deepEqual(planStep(list([version(started, '12', 2)]), context({ index })).map((o) => o.type), ['MODIFIED']);
  });

  test('an event a new list lacks is DELETED once (inferred), with the last version the record had', () => {
    const ctx = context();
    planStep(list([version(started, '10'), version(weird, '11')]), ctx);
    const planned = planStep(list([version(started, '10')], 'expired'), ctx);
    assert.deepEqual(planned, [{ observedAt: Date.parse('2026-11-30T12:00:00.000Z'), type: 'DELETED', event: version(weird, '11'), inferred: true }]);
    assert.deepEqual(planStep(list([version(started, '10')], 'expired'), ctx), []);
  });

  test('events of other namespaces are not judged by this namespace\'s list', () => {
    const ctx = context({ index: RecordIndex.from([{ observedAt: null, type: 'ADDED', event: elsewhere }]) });
    assert.deepEqual(planStep(list([]), ctx), []);
    assert.equal(planStep(list([]), context({ index: RecordIndex.from([{ observedAt: null, type: 'ADDED', event: elsewhere }]), namespace: null })).length, 1);
  });

  test('watch changes: each version once, DELETED once', () => {
    const ctx = context();
    const steps = [
      change('ADDED', version(started, '10')),
      change('MODIFIED', version(started, '12', 2)),
      change('MODIFIED', version(started, '12', 2)),
      change('DELETED', version(started, '13', 2)),
      change('DELETED', version(started, '14', 2)),
    ];
    const planned = steps.flatMap((step) => planStep(step, ctx));
    assert.deepEqual(planned.map((o) => o.type), ['ADDED', 'MODIFIED', 'DELETED']);
  });

  test('the filters decide what is written; a DELETED of an event the record holds is written anyway', () => {
    const ctx = context({ keep: (e) => e.type === 'Critical' });
    assert.deepEqual(names(planStep(list([started, weird]), ctx).map((o) => o.event)), ['build-1-weird']);
    assert.deepEqual(planStep(change('MODIFIED', version(started, '2000')), ctx), []);
    const gone = { ...version(weird, '3000'), type: 'Normal' };
    assert.equal(planStep(change('DELETED', gone), ctx).length, 1);
  });

  test('byResourceVersion keeps the order of versions that are not numbers', () => {
    assert.deepEqual(rvs(byResourceVersion([version(started, 'b'), version(weird, 'a')])), ['b', 'a']);
  });
});

describe('what record prints', () => {
  test('the live count', () => {
    assert.equal(progressLine('e.jsonl', { added: 3, modified: 1, deleted: 0 }), 'recording to e.jsonl: 4 lines (3 added, 1 modified, 0 deleted)');
  });
  test('the summary', () => {
    assert.equal(summaryLine('e.jsonl', { added: 1, modified: 0, deleted: 0 }, 9), 'recorded 1 line (1 added, 0 modified, 0 deleted) to e.jsonl; it holds 9 observations');
  });
});

describe('reading a watch response', () => {
  const collect = async (chunks: string[]): Promise<Json[]> => {
    const out: Json[] = [];
    for await (const message of readWatchLines(Readable.from(chunks))) out.push(message);
    return out;
  };

  test('one event per line, whatever the chunks', async () => {
    const got = await collect(['{"type":"ADDED","object":{"a":1}}\n{"type":"MOD', 'IFIED","object":{"a":2}}\n', '\n']);
    assert.deepEqual(got.map((m) => m.type), ['ADDED', 'MODIFIED']);
  });

  test('a line cut off by a dropped connection is an error, not an event', async () => {
    await assert.rejects(collect(['{"type":"ADDED","object":{"a":1}}\n{"type":"MODIF']), SyntaxError);
  });

  test('the backoff doubles up to its ceiling', () => {
    const retry = { firstDelayMs: 500, maxDelayMs: 4000, maxAttempts: 10 };
    assert.deepEqual([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, retry)), [500, 1000, 2000, 4000, 4000, 4000]);
  });

  test('by default: 0.5 s doubling to 30 s, and the tenth failure in a row gives up, after about two minutes of waits', () => {
    const waits = Array.from({ length: DEFAULT_RETRY.maxAttempts - 1 }, (_, i) => backoffDelay(i + 1, DEFAULT_RETRY));
    assert.deepEqual(waits, [500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
    assert.equal(waits.reduce((a, b) => a + b), 121_500);
  });
});

describe('replaying a record with --from', () => {
  test('timeline reads the latest version of each event, keeps the expired ones and ignores a torn last line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evtimeline-replay-'));
    try {
      const started = ev({ name: 'build-1-started', uid: 'u-started', reason: 'ReconcileStarted' });
      const weird = ev({ name: 'build-1-weird', uid: 'u-weird', type: 'Critical', reason: 'StageUnknown' });
      const header = { kind: RECORD_KIND, version: 1, context: 'lab', server: 'https://x', namespace: 'op-events', filter: {}, startedAt: Date.parse('2026-11-30T11:00:00.000Z') };
      const line = (type: string, event: Json) => `${JSON.stringify({ observedAt: Date.parse('2026-11-30T11:00:00.000Z'), type, event })}\n`;
      const path = join(dir, 'events.jsonl');
      await writeFile(
        path,
        JSON.stringify(header) + '\n' +
          line('ADDED', version(started, '10', 1)) +
          line('ADDED', version(weird, '11')) +
          line('MODIFIED', version(started, '12', 5)) +
          line('DELETED', version(weird, '13')) +
          line('MODIFIED', version(started, '14', 6)).slice(0, 60),
      );
      const { deps, stdout } = fakeDeps();
      assert.equal(await runCli(['timeline', '-o', 'json', '--from', path], deps), 0);
      const rows = JSON.parse(stdout()) as { name: string; count: number; resourceVersion: string }[];
      assert.deepEqual(
        rows.map((r) => [r.name, r.resourceVersion, r.count]).sort(),
        [['build-1-started', '12', 5], ['build-1-weird', '13', 1]],
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('record refuses bad input before touching the cluster', () => {
  test('a FILE that is not a record: a usage error, and the file is left as it was', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evtimeline-record-'));
    try {
      const path = join(dir, 'notes.txt');
      await writeFile(path, 'shopping list\nmilk\n');
      const { deps } = fakeDeps();
      await assert.rejects(
        runCli(['record', path, '-n', 'op-events'], deps),
        (e: unknown) => e instanceof UsageError && e.message === `${path} is not an evtimeline record (line 1 is not a record line): nothing written`,
      );
      assert.equal(await readFile(path, 'utf8'), 'shopping list\nmilk\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('no FILE: a usage error from the command line', async () => {
    const { deps } = fakeDeps();
    await assert.rejects(runCli(['record'], deps), (e: unknown) => e instanceof UsageError && /missing required argument 'file'/.test(e.message));
  });
});

// A fake API server for what the real one will not do on cue: a watch ERROR whose message carries
// terminal escapes. The rest runs against the real control plane (test/integration/record.test.ts).
describe('what record writes on stderr while it runs', () => {
  const counts = { added: 2, modified: 0, deleted: 0 };
  test('a notice carrying a server\'s words (a watch ERROR message) is escaped', () => {
    const { deps, stderr } = fakeDeps();
    statusWriter(deps, 'e.jsonl').notice('watch failed (etcd \u001b[31mred\u001b[0m\u0007): retrying in 1 ms');
    assert.equal(stderr(), 'watch failed (etcd ^[[31mred^[[0m^G): retrying in 1 ms\n');
  });

  const terminals: [string, string | undefined, boolean, string][] = [
    ['a terminal redraws the live count around a notice', 'xterm-256color', true, '\r\u001b[Krecording to e.jsonl: 2 lines (2 added, 0 modified, 0 deleted)\r\u001b[Kthe watch ended\n\r\u001b[Krecording to e.jsonl: 2 lines (2 added, 0 modified, 0 deleted)\r\u001b[K'],
    ['a dumb terminal (TERM=dumb), which cannot redraw a line, gets the notice alone', 'dumb', true, 'the watch ended\n'],
    ['a pipe gets the notice alone', 'xterm-256color', false, 'the watch ended\n'],
  ];
  for (const [name, term, tty, want] of terminals) {
    test(name, () => {
      const { deps, stderr } = fakeDeps({ env: { TERM: term }, tty });
      const status = statusWriter(deps, 'e.jsonl');
      status.update(counts);
      status.notice('the watch ended');
      status.done();
      assert.equal(stderr(), want);
    });
  }
});
