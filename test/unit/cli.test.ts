// Each verb end to end in-process, reading the lab's events from a file, with a fixed clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../src/cli.ts';
import { VERBS } from '../../src/options/verbs.ts';
import { ev, LAB_STABLE, labEvents, NOW } from '../support/builders.ts';
import { fakeDeps } from '../support/deps.ts';
import { scratchDir } from '../support/tmp.ts';

const dir = scratchDir('cli');
const labFile = join(dir, 'lab.json');
writeFileSync(labFile, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: labEvents() }));

async function run(argv: string[], o: { stdin?: string } = {}) {
  const fake = fakeDeps({ stdin: o.stdin });
  const code = await runCli(argv, fake.deps).catch((error: unknown) => ({ error }));
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}


test('timeline -o table on the lab, -n narrowing the file to one namespace; ages count from the newest event in the file', async () => {
  const r = await run(['-n', 'op-events', '--from', labFile]);
  assert.equal(r.code, 0);
  assert.equal(
    r.stdout,
    `FIRST SEEN   LAST SEEN           TYPE        REASON               OBJECT             FROM                MESSAGE
117s         0s (x5 over 117s)   Normal      ReconcileStarted     Pipeline/build-1   pipeline-operator   Started reconciling Pipeline build-1.
87s          87s                 Critical!   StageUnknown         Pipeline/build-1   pipeline-operator   Stage of build-1 is not known.
57s          57s                 Normal      ReconcileSucceeded   Pipeline/build-1   pipeline-operator   Pipeline build-1 reconciled.
42s          42s                 Warning     FailedScheduling     Pod/hungry         default-scheduler   0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.
`,
  );
  assert.equal(r.stderr, `Ages are counted from ${new Date(NOW - 3000).toISOString().replace('.000Z', 'Z')}, the newest event in the file (it does not say when it was taken).\n`);
});

test('--absolute-times prints RFC 3339 times instead of ages, with no notice', async () => {
  const r = await run(['-n', 'op-events', '--from', labFile, '--absolute-times']);
  const first = r.stdout.split('\n')[1] ?? '';
  const time = (s: number) => new Date(NOW - s * 1000).toISOString().replace('.000Z', 'Z');
  assert.ok(first.startsWith(`${time(120)}   ${time(3)} (x5)   Normal`), first);
  assert.equal(r.stderr, '');
  const incident = await run(['incident', '-n', 'op-events', '--from', labFile, '--absolute-times']);
  assert.doesNotMatch(incident.stdout, / ago\b/);
  assert.ok(incident.stdout.includes(`\n  At ${time(90)}, pipeline-operator reported StageUnknown`), incident.stdout);
});

test('-o stable is the lab timeline.sh table, flags before or after the verb', async () => {
  assert.equal((await run(['--from', labFile, '-o', 'stable'])).stdout, LAB_STABLE);
  assert.equal((await run(['timeline', '-o', 'stable', '--from', labFile])).stdout, LAB_STABLE);
});

test('--from - reads the events from stdin', async () => {
  const r = await run(['--from', '-', '-o', 'stable'], { stdin: readFileSync(labFile, 'utf8') });
  assert.equal(r.stdout, LAB_STABLE);
});

test('a saved stable table can be read back, and incident says it carries no times', async () => {
  const table = join(dir, 'timeline.txt');
  writeFileSync(table, LAB_STABLE);
  const r = await run(['incident', '--from', table]);
  assert.equal(r.code, 0);
  for (const word of ['FailedScheduling', 'ReconcileStarted', 'ReconcileSucceeded', 'Critical']) assert.ok(r.stdout.includes(word), word);
  assert.match(r.stdout, /no times/);
  assert.doesNotMatch(r.stdout, /x5/);
});

test('type-audit exits 3 on the lab and 0 on conventional events', async () => {
  assert.equal((await run(['type-audit', '--from', labFile])).code, 3);
  const clean = join(dir, 'clean.json');
  writeFileSync(clean, JSON.stringify([ev({ type: 'Normal' }), ev({ type: 'Warning', reason: 'BackOff' })]));
  const r = await run(['type-audit', '--from', clean]);
  assert.equal(r.code, 0, r.stdout);
});

test('incident -o json is the same findings as data', async () => {
  const r = await run(['incident', '--from', labFile, '-o', 'json']);
  const incident = JSON.parse(r.stdout) as { unconventionalTypes: { type: string }[]; reporters: unknown[] };
  assert.deepEqual(incident.unconventionalTypes.map((t) => t.type), ['Critical']);
  assert.equal(incident.reporters.length, 2);
});

test('capture --from writes every report and refuses a non-empty folder', async () => {
  const out = join(dir, 'capture');
  const r = await run(['capture', '--from', labFile, out]);
  assert.equal(r.code, 0, JSON.stringify(r));
  assert.deepEqual(readdirSync(out).sort(), [
    'both-apis.txt', 'count-report.txt', 'events-list.txt', 'events.json', 'incident.txt', 'scheduler-event.txt', 'timeline.html', 'timeline.txt', 'type-report.txt',
  ]);
  assert.equal(readFileSync(join(out, 'timeline.txt'), 'utf8'), LAB_STABLE);
  assert.equal((await run(['--from', join(out, 'events.json'), '-o', 'stable'])).stdout, LAB_STABLE);
  const again = await run(['capture', '--from', labFile, out]);
  assert.match(String((again.code as { error?: Error }).error?.message), /is not empty: pass --force/);
  assert.equal((await run(['capture', '--from', labFile, out, '--force'])).code, 0);
});

test('capture --from counts ages from when the file was taken, as timeline and incident do (one rule, core/ages.ts)', async () => {
  const week = 7 * 24 * 3600;
  const capture = join(dir, 'week-old-capture.json');
  writeFileSync(
    capture,
    JSON.stringify({
      kind: 'EvtimelineCapture', version: 1, context: 'prod', server: 'https://prod.example:6443', namespace: 'op-events',
      capturedAt: new Date(NOW - week * 1000).toISOString(),
      core: [ev({ reason: 'TwoMinutesBefore', first: week + 120 })],
      eventsK8sIo: [],
    }),
  );
  const out = join(dir, 'recapture');
  assert.equal((await run(['capture', '--from', capture, out])).code, 0);
  const table = readFileSync(join(out, 'events-list.txt'), 'utf8');
  assert.match(table, /^2m {2,}2m {2,}Normal {2,}TwoMinutesBefore/m);
  assert.equal((await run(['--from', capture])).stdout, table);
  const saved = JSON.parse(readFileSync(join(out, 'events.json'), 'utf8')) as { capturedAt: string };
  assert.equal(saved.capturedAt, new Date(NOW - week * 1000).toISOString());
});

test('hostile event text is escaped in the table and kept exact in JSON', async () => {
  const hostile = join(dir, 'hostile.json');
  const message = 'evil \u001b]0;owned\u0007 \u001b[31mred\r over \u202eright-to-left';
  writeFileSync(hostile, JSON.stringify([ev({ message, reason: 'Bad\u001b[2J' })]));
  const table = await run(['--from', hostile]);
  assert.doesNotMatch(table.stdout, /\u001b|\r|\u202e|\u0007/);
  assert.match(table.stdout, /\^\[\]0;owned\^G \^\[\[31mred\\r over \\u202eright-to-left/);
  const json = JSON.parse((await run(['--from', hostile, '-o', 'json'])).stdout) as { message: string }[];
  assert.equal(json[0]?.message, message);
});

const usageErrors: [string, string[], RegExp][] = [
  ['an unknown verb', ['bogus'], /unknown verb "bogus"/],
  ['a bad --message pattern, named', ['--message', '(', '--from', labFile], /^--message "\(": not a valid regular expression \(JavaScript syntax\): /],
  ['a bad --exclude-message pattern, named', ['--exclude-message', 'a[', '--from', labFile], /^--exclude-message "a\[": not a valid regular expression/],
  ['--since with --since-time, as kubectl logs refuses them', ['--since', '1h', '--since-time', '2026-11-30T10:00:00Z', '--from', labFile], /^only one of --since-time \/ --since may be used$/],
  ['a --since-time that is not RFC 3339', ['--since-time', 'yesterday', '--from', labFile], /^--since-time "yesterday": want an RFC 3339 time/],
  ['an --until before --since-time', ['--since-time', '2026-11-30T10:00:00Z', '--until', '2026-11-30T09:00:00Z', '--from', labFile], /is before --since-time/],
  ['a field the server cannot select events by', ['--field-selector', 'message=x', '--from', labFile], /^--field-selector "message=x": field label not supported: message$/],
  ['a bad label selector', ['-l', 'app=a b', '--from', labFile], /^-l "app=a b": /],
  ['an unknown flag', ['--bogus'], /unknown option '--bogus'/],
  ['an unknown output', ['-o', 'xml', '--from', labFile], /-o "xml": want one of table, wide, stable, html, json, yaml, name, jsonpath=/],
  ['a Go template, refused rather than half done', ['-o', 'go-template={{.name}}', '--from', labFile], /-o go-template is not supported: Go templates are not implemented/],
  ['a jsonpath template that does not parse', ['-o', 'jsonpath={.items[?(@.a=="b"}', '--from', labFile], /error parsing jsonpath .*unterminated filter/],
  ['-o jsonpath with no template', ['-o', 'jsonpath', '--from', labFile], /template format specified but no template given/],
  ['a --template file that is a folder, said in words', ['-o', 'jsonpath-file', '--template', dir, '--from', labFile], /^error reading --template .*: illegal operation on a directory$/],
  ['-o name for an incident', ['incident', '-o', 'name', '--from', labFile], /-o "name": want one of text, json, yaml, jsonpath=/],
  ['a bad --since', ['--since', 'soon', '--from', labFile], /--since "soon"/],
  ['-o html with -w, which printed the table instead', ['-w', '-o', 'html'], /-o html is one self-contained page: it does not apply to --watch/],
  ['-o html with --watch-only', ['--watch-only', '-o', 'html'], /-o html is one self-contained page: it does not apply to --watch-only/],
  ['aggregate-patch with --from', ['aggregate-patch', 'x', '--from', labFile], /--from does not apply/],
  ['aggregate-patch with both --add and --count', ['aggregate-patch', 'x', '--add', '1', '--count', '2'], /exclude each other/],
];
for (const [name, argv, message] of usageErrors) {
  test(`${name} is a usage error`, async () => {
    const r = await run(argv);
    const error = (r.code as { error?: Error }).error;
    assert.equal(error?.name, 'UsageError');
    assert.match(error.message, message);
  });
}

test('a verb after its own flags is found by name, as kubectl takes flags anywhere', async () => {
  const after = await run(['--event-ttl', '2h', '--detail', 'incident', '--from', labFile]);
  const before = await run(['incident', '--event-ttl', '2h', '--detail', '--from', labFile]);
  assert.equal(after.code, 0);
  assert.equal(after.stdout, before.stdout);
  assert.match(after.stdout, /^Incident /);
});

test('a flag value that names a verb is a value: -n incident reads namespace incident', async () => {
  const r = await run(['-n', 'incident', '--from', labFile]);
  assert.equal(r.code, 0);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /No events found in incident namespace/);
});

test('help VERB is VERB --help, with examples and the flags in groups, each default once', async () => {
  const help = await run(['help', 'incident']);
  const flag = await run(['incident', '--help']);
  const short = await run(['-h', 'incident']);
  assert.equal(help.code, 0);
  assert.equal(help.stdout, flag.stdout);
  assert.equal(help.stdout, short.stdout);
  for (const section of ['Examples:', 'Reading flags:', 'Output flags:', 'incident flags:', "kubectl's connection flags:", 'Usage:']) {
    assert.ok(help.stdout.includes(`\n${section}\n`), section);
  }
  assert.match(help.stdout, /\n  # Account for a namespace\n  kubectl evtimeline incident -n op-events\n/);
  assert.match(help.stdout, /\n    --allow-missing-template-keys=true:\n\tIf true, ignore any errors in templates when a field or map key is missing in the template\.\n/);
  assert.doesNotMatch(help.stdout, /\(default/);
});

test('every verb has examples in its help, and none shows a default twice', async () => {
  for (const verb of VERBS) {
    const r = await run([verb, '--help']);
    assert.match(r.stdout, /\nExamples:\n  # /, verb);
    assert.ok(r.stdout.includes(`\nUsage:\n  kubectl evtimeline ${verb} [flags]`), verb);
    assert.doesNotMatch(r.stdout, /\(default/, verb);
  }
  const top = await run(['--help']);
  assert.match(top.stdout, /\nVerbs:\n  timeline  /);
});

test('the selection flags combine with -o stable on a saved file, and the footer says what each hid', async () => {
  const r = await run(['--from', labFile, '-o', 'stable', '--exclude-type', 'critical', '--exclude-message', '^Pipeline']);
  assert.equal(r.stdout, 'Normal ReconcileStarted Pipeline/build-1\nWarning FailedScheduling Pod/hungry\n');
  assert.equal(r.stderr.split('\n').filter((l) => l.startsWith('Hidden')).join('\n'), 'Hidden: 1 event by --exclude-type, 1 by --exclude-message.');
});

test('type-audit takes the selection flags too, and says what they hid', async () => {
  const r = await run(['type-audit', '--from', labFile, '--exclude-type', 'Critical']);
  assert.equal(r.code, 0, r.stdout);
  assert.equal(r.stderr, 'Hidden: 1 event by --exclude-type.\n');
});

test('--from a missing file is a runtime error naming the file', async () => {
  const r = await run(['--from', join(dir, 'nope.json')]);
  const error = (r.code as { error?: Error }).error;
  assert.equal(error?.name, 'RuntimeError');
  assert.match(error.message, /nope\.json: no such file/);
});

test('--version prints the version, commit and runtime', async () => {
  const r = await run(['--version']);
  assert.equal(r.code, 0);
  // The runtime is the one running this test: npm scripts run on the pinned `node` devDependency.
  assert.match(r.stdout, new RegExp(`^kubectl-evtimeline v\\S+ \\(commit \\S+, node ${process.version.replace(/\./g, '\\.')}\\)\\n$`));
});

// Re-created objects and --compare need a live cluster: test/integration/incarnations.test.ts.

test('a timeline from a record states on stderr the window it covers; stdout stays the table', async () => {
  const { formatObservation } = await import('../../src/io/record-line.ts');
  const record = join(dir, 'window.jsonl');
  writeFileSync(
    record,
    labEvents().map((event, i) => formatObservation({ observedAt: Date.parse(`2026-11-30T11:59:5${6 + i}.000Z`), type: 'ADDED', event })).join(''),
  );
  const r = await run(['--from', record, '-o', 'stable']);
  assert.equal(r.stdout, LAB_STABLE);
  assert.equal(
    r.stderr,
    'The record covers 2026-11-30T11:59:56Z .. 2026-11-30T11:59:59Z (first .. last observation); its events were first seen 2026-11-30T11:58:00Z .. last seen 2026-11-30T11:59:57Z.\n',
  );
  const list = await run(['--from', labFile, '-o', 'stable']);
  assert.equal(list.stderr, '');
});

const compareErrors: [string, string[], RegExp][] = [
  ['timeline --compare without --from', ['--compare'], /--compare needs --from FILE/],
  ['incident --compare without --from', ['incident', '--compare'], /--compare needs --from FILE/],
];
for (const [name, argv, message] of compareErrors) {
  test(`${name} is a usage error`, async () => {
    const error = ((await run(argv)).code as { error?: Error }).error;
    assert.equal(error?.name, 'UsageError');
    assert.match(error.message, message);
  });
}

test('--compare with a stable table is a usage error: the table has no uids to compare', async () => {
  const table = join(dir, 'compare-timeline.txt');
  writeFileSync(table, LAB_STABLE);
  const error = ((await run(['incident', '--from', table, '--compare'])).code as { error?: Error }).error;
  assert.equal(error?.name, 'UsageError');
  assert.match(error.message, /a stable table has none/);
});

const badAt: string[] = ['1', '2026-11-30T12:00:00', 'Nov 30 2026', '2026-11-30 12:00:00Z'];
for (const at of badAt) {
  test(`aggregate-patch --at ${JSON.stringify(at)} is a usage error: RFC 3339 with a zone only`, async () => {
    const error = ((await run(['aggregate-patch', 'x', '--at', at])).code as { error?: Error }).error;
    assert.equal(error?.name, 'UsageError');
    assert.match(error.message, /want an RFC 3339 time/);
  });
}

test('--since counts back from when a capture was taken, not from today', async () => {
  const week = 7 * 24 * 3600;
  const capture = join(dir, 'last-week.json');
  writeFileSync(
    capture,
    JSON.stringify({
      kind: 'EvtimelineCapture',
      version: 1,
      context: 'prod',
      server: 'https://prod.example:6443',
      namespace: 'op-events',
      capturedAt: new Date(NOW - week * 1000).toISOString(),
      core: [ev({ reason: 'JustBefore', first: week + 60 }), ev({ reason: 'AnHourBefore', first: week + 3600 })],
      eventsK8sIo: [],
    }),
  );
  const r = await run(['--from', capture, '--since', '5m', '-o', 'stable']);
  assert.equal(r.stdout, 'Normal JustBefore Pipeline/build-1\n');
});

test('a stable table with a sentence for a reason and an empty type is still read back', async () => {
  const table = join(dir, 'odd-timeline.txt');
  writeFileSync(table, 'Normal Pod was started ok Pod/a\n<none> NoTarget <none>/<none>\n');
  const r = await run(['incident', '--from', table]);
  assert.equal(r.code, 0, String((r.code as { error?: Error }).error));
  assert.match(r.stdout, /Pod was started ok/);
});

test('type-audit of a stable table does not blame the table for carrying no uids', async () => {
  const table = join(dir, 'audit-timeline.txt');
  writeFileSync(table, LAB_STABLE);
  const r = await run(['type-audit', '--from', table, '-o', 'json']);
  assert.equal(r.code, 0 + 3);
  const report = JSON.parse(r.stdout) as { findings: { kind: string }[] };
  assert.deepEqual([...new Set(report.findings.map((f) => f.kind))], ['unconventional-type']);
});

test('capture from a stable table is refused: the table holds no events to save', async () => {
  const table = join(dir, 'capture-timeline.txt');
  writeFileSync(table, LAB_STABLE);
  const error = ((await run(['capture', '--from', table, join(dir, 'from-table')])).code as { error?: Error }).error;
  assert.equal(error?.name, 'UsageError');
  assert.match(error.message, /a stable table holds only/);
});

test('a record of a quiet namespace (its header alone) reads as no events', async () => {
  const record = join(dir, 'quiet.jsonl');
  writeFileSync(record, '{"kind":"EvtimelineRecord","version":1,"context":"c","server":"s","namespace":"quiet","filter":{},"startedAt":"2026-11-30T11:00:00.000Z"}\n');
  const r = await run(['--from', record]);
  assert.equal(r.code, 0);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /No events found in quiet namespace\.\n$/);
});

test('a namespace name from a file is escaped in the "No events found" notice', async () => {
  const capture = join(dir, 'hostile-ns.json');
  writeFileSync(capture, JSON.stringify({ kind: 'EvtimelineCapture', version: 1, context: '', server: '', namespace: 'op\u001b[31m', capturedAt: '', core: [], eventsK8sIo: [] }));
  const r = await run(['--from', capture]);
  assert.doesNotMatch(r.stderr, /\u001b/);
  assert.match(r.stderr, /No events found in op\^\[\[31m namespace\./);
});

test('a file that is no format we know is refused without quoting its bytes', async () => {
  const junk = join(dir, 'junk.txt');
  writeFileSync(junk, 'x\u001b[31m not events\n');
  const error = ((await run(['--from', junk])).code as { error?: Error }).error;
  assert.equal(error?.name, 'UsageError');
  assert.equal(error.message, `--from ${junk}: neither JSON, a record, nor a stable table`);
});

test('-o yaml is the -o json document as YAML', async () => {
  const { parse } = await import('yaml');
  const json = JSON.parse((await run(['--from', labFile, '-o', 'json'])).stdout) as unknown;
  const yaml = (await run(['--from', labFile, '-o', 'yaml'])).stdout;
  assert.deepEqual(parse(yaml, { version: '1.1' }), json);
  assert.match(yaml, /^- uid: /);
});

test('-o name prints event/NAME for the timeline and for the events type-audit flags', async () => {
  const names = (await run(['--from', labFile, '-o', 'name'])).stdout;
  assert.equal(names, 'event/build-1-started\nevent/build-1-weird\nevent/build-1-done\nevent/hungry.18a1b2c3d4e5f607\n');
  const audit = await run(['type-audit', '--from', labFile, '-o', 'name']);
  assert.equal(audit.stdout, 'event/build-1-weird\n');
  assert.equal(audit.code, 3);
});

test('-o jsonpath applies to the -o json document, in kubectl dialect', async () => {
  const r = await run(['--from', labFile, '-o', 'jsonpath={range [?(@.type!="Normal")]}{.reason}{"\\t"}{.count}{"\\n"}{end}']);
  assert.equal(r.stdout, 'StageUnknown\t1\nFailedScheduling\t1\n');
  const incident = await run(['incident', '--from', labFile, '-o', 'jsonpath={.namespace}']);
  assert.equal(incident.code, 0);
});

test('-o jsonpath-file reads the template from a file; --template works as kubectl\'s does', async () => {
  const file = join(dir, 'names.jsonpath');
  writeFileSync(file, '{[*].name}');
  assert.equal((await run(['--from', labFile, '-o', `jsonpath-file=${file}`])).stdout, 'build-1-started build-1-weird build-1-done hungry.18a1b2c3d4e5f607');
  assert.equal((await run(['--from', labFile, '-o', 'jsonpath', '--template', '{[0].reason}'])).stdout, 'ReconcileStarted');
});

test('a missing key prints nothing, or fails with --allow-missing-template-keys=false', async () => {
  assert.equal((await run(['--from', labFile, '-o', 'jsonpath={[0].nope}'])).stdout, '');
  const r = await run(['--from', labFile, '-o', 'jsonpath={[0].nope}', '--allow-missing-template-keys=false']);
  assert.match(String((r.code as { error?: Error }).error?.message), /error executing jsonpath "\{\[0\]\.nope\}": nope is not found/);
});

test('short flags take their value after = as kubectl does: -o=json, -n=ns', async () => {
  const r = await run(['--from', labFile, '-n=op-events', '-o=name']);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^event\/build-1-started\n/);
});
