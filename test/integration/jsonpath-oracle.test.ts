// The jsonpath port against client-go's jsonpath itself: every case of kubectl's table and ours,
// and templates over the plugin's own -o json of a real namespace, run through both on the same
// document and compared byte for byte (the oracle is `controlplane jsonpath`, test/controlplane).
// The namespace is read once, by `capture`, and every pair of reads (-o json for client-go, -o
// jsonpath for ours) is made from that capture: the lab's Pending Pod gets a new FailedScheduling
// whenever the scheduler retries it (on any change of the cluster's nodes or Pods, other files'
// included), so two live reads of the namespace may see two different documents.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureControlPlane } from '../harness/build-controlplane.mjs';
import { sharedControlPlane } from '../harness/controlplane.ts';
import type { ControlPlane } from '../harness/controlplane.ts';
import { playLab } from '../harness/lab.ts';
import { freshNamespace } from '../harness/namespace.ts';
import { evtimeline } from '../harness/plugin.ts';
import { parseJsonPath } from '../../src/render/jsonpath/jsonpath.ts';
import { KUBECTL_TABLE, OWN_CASES } from '../fixtures/jsonpath/cases.ts';
import type { JsonPathCase } from '../fixtures/jsonpath/cases.ts';
import { scratchDir } from '../support/tmp.ts';

/** The template files of the -o jsonpath-file forms; made at the top level, as scratchDir asks, so the file's end removes it. */
const FORMS = scratchDir('jsonpath-forms');
/** The lab's capture, read by every test below that compares two reads; made at the top level likewise. */
const CAPTURES = scratchDir('jsonpath-capture');

interface Answer {
  output: string;
  error?: string;
}

let binary: string;

function oracle(cases: Array<{ template: string; doc: unknown; allowMissingKeys: boolean; outputJson: boolean }>): Promise<Answer[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(binary, ['jsonpath', '--batch'], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`oracle failed: ${stderr}`));
      else resolve(JSON.parse(stdout) as Answer[]);
    });
    child.stdin?.end(JSON.stringify(cases));
  });
}

function ours(template: string, doc: unknown, allowMissingKeys: boolean, outputJson: boolean): Answer {
  try {
    return { output: parseJsonPath(template, { allowMissingKeys, outputJson }).execute(doc) };
  } catch (error) {
    return { output: '', error: error instanceof Error ? error.message : String(error) };
  }
}

function doc(file: string): unknown {
  return JSON.parse(readFileSync(new URL(`../fixtures/jsonpath/${file}`, import.meta.url), 'utf8'));
}

// Recursive descent (`..`) and a field wildcard (`.*`) walk a Go map in Go's random key order
// (client-go jsonpath evalRecursive/evalWildcard range over MapKeys), so the oracle's order changes
// from run to run; we keep document order. There, the same values must come out, in any order.
function walksMapsInGoOrder(template: string): boolean {
  return template.includes('..') || template.includes('.*');
}

function words(output: string): string[] {
  return output.split(/\s+/).filter((w) => w !== '').sort();
}

before(async () => {
  binary = process.env.EVTIMELINE_TEST_CONTROLPLANE_BINARY || (await ensureControlPlane());
});

test("kubectl's table and our own cases print byte for byte what client-go's jsonpath prints", async () => {
  const cases: JsonPathCase[] = [...KUBECTL_TABLE, ...OWN_CASES];
  const inputs = cases.map((c) => ({ template: c.template, doc: doc(c.file), allowMissingKeys: c.allowMissingKeys, outputJson: c.outputJson ?? false }));
  const answers = await oracle(inputs);
  for (const [i, c] of cases.entries()) {
    const input = inputs[i]!;
    const want = answers[i]!;
    const got = ours(input.template, input.doc, input.allowMissingKeys, input.outputJson);
    const label = `${c.name}: ${c.template}`;
    assert.equal(got.error !== undefined, want.error !== undefined, `${label}: client-go says ${JSON.stringify(want)}, we say ${JSON.stringify(got)}`);
    if (want.error === undefined) {
      if (walksMapsInGoOrder(input.template)) assert.deepEqual(words(got.output), words(want.output), label);
      else assert.equal(got.output, want.output, label);
    }
    if (c.error !== undefined) assert.equal(want.error !== undefined, c.error, `${label}: the case's expectation disagrees with client-go`);
  }
});

let cp: ControlPlane;
let ns: string;
/** `--from` the lab's capture: what every read that is compared with another is made from. */
const frozen = () => ['--from', join(CAPTURES, 'lab')];

let lab: Promise<void> | undefined;
/** The lab played once in a namespace of its own, then captured once, for the tests below. */
function labNamespace(): Promise<void> {
  lab ??= (async () => {
    cp = await sharedControlPlane();
    ns = await freshNamespace(cp.kubeconfig, 'jsonpath');
    await playLab({ kubeconfig: cp.kubeconfig, namespace: ns, outDir: join(CAPTURES, 'played') });
    const captured = await evtimeline(['capture', '-n', ns, join(CAPTURES, 'lab')], cp.kubeconfig);
    assert.equal(captured.code, 0, captured.stderr);
  })();
  return lab;
}

test("templates over the plugin's -o json of the lab: the plugin's -o jsonpath output equals client-go's on that document", async () => {
  await labNamespace();
  const json = await evtimeline([...frozen(), '-o', 'json'], cp.kubeconfig);
  assert.equal(json.code, 0, json.stderr);
  const document = JSON.parse(json.stdout) as unknown;
  assert.ok(Array.isArray(document) && document.some((e) => (e as { type?: string }).type === 'Warning'), 'the lab has events, warnings among them');
  const templates = [
    '{range [*]}{.type}{"\\t"}{.reason}{"\\t"}{.object.kind}/{.object.name}{"\\t"}{.count}{"\\n"}{end}',
    '{[?(@.type=="Warning")].message}',
    '{[?(@.count>1)].name}',
    '{[*].object}',
    '{..uid}',
    '{[-1:].reason} {[0].firstSeen}',
    '{range [?(@.seriesStyle==true)]}{.name}={.reporter}{"\\n"}{end}',
  ];
  const answers = await oracle(templates.map((template) => ({ template, doc: document, allowMissingKeys: true, outputJson: false })));
  for (const [i, template] of templates.entries()) {
    const plugin = await evtimeline([...frozen(), '-o', `jsonpath=${template}`], cp.kubeconfig);
    assert.equal(plugin.code, 0, plugin.stderr);
    assert.equal(answers[i]!.error, undefined, template);
    if (walksMapsInGoOrder(template)) assert.deepEqual(words(plugin.stdout), words(answers[i]!.output), template);
    else assert.equal(plugin.stdout, answers[i]!.output, template);
  }
});

test('incident and type-audit, -o jsonpath-file, -o jsonpath --template and -o jsonpath-as-json: each equals client-go on the verb\'s own -o json', async () => {
  await labNamespace();
  const dir = FORMS;
  const cases: Array<{ verb: string[]; template: string; forms: string[][]; outputJson?: boolean; exit?: number }> = [
    {
      verb: ['incident'],
      template: '{.headline.events} {.headline.warnings}{"\\n"}{range .groups[*]}{.severity}{"\\t"}{.reason}{"\\t"}{.kind}{"\\n"}{end}',
      forms: [['-o', 'jsonpath=TEMPLATE'], ['-o', 'jsonpath-file=FILE'], ['-o', 'jsonpath', '--template', 'TEMPLATE'], ['-o', 'jsonpath-file', '--template', 'FILE']],
    },
    { verb: ['incident'], template: '{.objects[*].kind}', forms: [['-o', 'jsonpath-as-json=TEMPLATE']], outputJson: true },
    { verb: ['type-audit'], template: '{range .findings[*]}{.kind}{" "}{.event}{" "}{.type}{"\\n"}{end}', forms: [['-o', 'jsonpath=TEMPLATE'], ['-o', 'jsonpath-file=FILE']], exit: 3 },
    { verb: ['type-audit'], template: '{.findings[?(@.type=="Critical")]}', forms: [['-o', 'jsonpath-as-json=TEMPLATE']], outputJson: true, exit: 3 },
    { verb: [], template: '{range [*]}{.name}{"\\n"}{end}', forms: [['-o', 'jsonpath', '--template', 'TEMPLATE'], ['-o', 'jsonpath-file', '--template', 'FILE']] },
  ];
  for (const [i, c] of cases.entries()) {
    const json = await evtimeline([...c.verb, ...frozen(), '-o', 'json'], cp.kubeconfig);
    assert.equal(json.code, c.exit ?? 0, json.stderr);
    const [want] = await oracle([{ template: c.template, doc: JSON.parse(json.stdout) as unknown, allowMissingKeys: true, outputJson: c.outputJson ?? false }]);
    assert.equal(want!.error, undefined, c.template);
    assert.notEqual(want!.output.trim(), '', `${c.template} selects something`);
    const file = join(dir, `template-${i}.txt`);
    writeFileSync(file, c.template);
    for (const form of c.forms) {
      const args = form.map((a) => a.replace('TEMPLATE', c.template).replace('FILE', file));
      const r = await evtimeline([...c.verb, ...frozen(), ...args], cp.kubeconfig);
      assert.equal(r.code, c.exit ?? 0, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, want!.output, `${c.verb.join(' ')} ${args.join(' ')}`);
    }
  }
});

test('--allow-missing-template-keys=false: a missing key is an error, as in client-go; by default it prints nothing', async () => {
  await labNamespace();
  const json = await evtimeline(['-n', ns, '-o', 'json'], cp.kubeconfig);
  const doc = JSON.parse(json.stdout) as unknown;
  const [strict, lax] = await oracle([
    { template: '{[0].nope}', doc, allowMissingKeys: false, outputJson: false },
    { template: '{[0].nope}', doc, allowMissingKeys: true, outputJson: false },
  ]);
  assert.match(strict!.error ?? '', /nope is not found/);
  const refused = await evtimeline(['-n', ns, '-o', 'jsonpath={[0].nope}', '--allow-missing-template-keys=false'], cp.kubeconfig);
  assert.equal(refused.code, 1);
  assert.equal(refused.stdout, '');
  assert.equal(refused.stderr, 'error: error executing jsonpath "{[0].nope}": nope is not found\n');
  const allowed = await evtimeline(['-n', ns, '-o', 'jsonpath={[0].nope}'], cp.kubeconfig);
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.equal(allowed.stdout, lax!.output);
});

test('Go templates are refused, in every spelling kubectl has, before the cluster is read', async () => {
  const file = join(scratchDir('go-template'), 't.tmpl');
  writeFileSync(file, '{{range .}}{{.name}}{{end}}');
  for (const args of [
    ['-o', 'go-template={{range .}}{{.name}}{{end}}'],
    ['-o', `go-template-file=${file}`],
    ['-o', 'go-template', '--template', '{{.}}'],
    ['-o', 'template={{.}}'],
    ['-o', `templatefile=${file}`],
    ['incident', '-o', 'go-template={{.headline}}'],
    ['type-audit', '-o', 'go-template={{.findings}}'],
  ]) {
    const format = (args[args.indexOf('-o') + 1] ?? '').split('=')[0];
    // --server names nothing that listens: the refusal comes first.
    const r = await evtimeline([...args, '--server', 'https://127.0.0.1:1'], cp.kubeconfig);
    assert.equal(r.code, 2, args.join(' '));
    assert.equal(r.stdout, '');
    assert.equal(
      r.stderr,
      `error: -o ${format} is not supported: Go templates are not implemented (a partial port would print wrong output); use -o jsonpath=... (kubectl's jsonpath), -o json or -o yaml\n`,
    );
  }
});
