// Hostile event text through the whole CLI (an in-memory source at the EventSource port): -o jsonpath
// and -o name escape what they take from events when stdout is a terminal, and print it exactly to a
// pipe or file, for the timeline, -w, incident and type-audit.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../../src/cli.ts';
import { ev } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { fromCluster, fromRecord, memorySource, openSources } from '../../support/sources.ts';

const REASON = 'Back\u001b[2J\u001b]0;owned\u0007Off\rFAKE\nline\u009b31m\u202e\u200b';
const REASON_SHOWN = 'Back^[[2J^[]0;owned^GOff\\rFAKE\\nline\\u009b31m\\u202e\\u200b';
const NAME = 'pod.evil\u001b[31m\n';
const NAME_SHOWN = 'pod.evil^[[31m\\n';
/** What a terminal would act on; LF and tab are the template's own layout. */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u202e]/;

const evil = () => ev({ name: NAME, reason: REASON, type: 'Warning', first: 120 });

function hostile(): Record<string, unknown>[] {
  return [evil(), ev({ name: 'quiet', reason: 'Pulled', first: 60 })];
}

async function run(argv: string[], tty: boolean, sources = openSources({ saved: memorySource({ provenance: fromRecord({ namespace: null }), raw: hostile() }) })) {
  const fake = fakeDeps({ openSource: sources.open, tty });
  const code = await runCli(argv, fake.deps).catch((error: unknown) => error);
  return { code, stdout: fake.stdout() };
}

const TEMPLATE = 'jsonpath={range [*]}{.reason}{"\\t"}{.name}{"\\n"}{end}';

describe('timeline --from a saved file', () => {
  test('-o jsonpath to a terminal: each value escaped, the template\'s tab and newline kept', async () => {
    const r = await run(['--from', 'events.jsonl', '-o', TEMPLATE], true);
    assert.equal(r.code, 0, String(r.code));
    assert.equal(r.stdout, `${REASON_SHOWN}\t${NAME_SHOWN}\nPulled\tquiet\n`);
  });

  test('-o jsonpath to a pipe: exact values', async () => {
    const r = await run(['--from', 'events.jsonl', '-o', TEMPLATE], false);
    assert.equal(r.stdout, `${REASON}\t${NAME}\nPulled\tquiet\n`);
  });

  test('-o name: escaped to a terminal, exact to a pipe', async () => {
    assert.equal((await run(['--from', 'events.jsonl', '-o', 'name'], true)).stdout, `event/${NAME_SHOWN}\nevent/quiet\n`);
    assert.equal((await run(['--from', 'events.jsonl', '-o', 'name'], false)).stdout, `event/${NAME}\nevent/quiet\n`);
  });

  test('-o jsonpath-as-json: the same values once parsed, nothing raw on a terminal', async () => {
    const tty = await run(['--from', 'events.jsonl', '-o', 'jsonpath-as-json={[*].reason}'], true);
    assert.doesNotMatch(tty.stdout, RAW);
    assert.deepEqual(JSON.parse(tty.stdout), [REASON, 'Pulled']);
    const pipe = await run(['--from', 'events.jsonl', '-o', 'jsonpath-as-json={[*].reason}'], false);
    assert.deepEqual(JSON.parse(pipe.stdout), [REASON, 'Pulled']);
    assert.match(pipe.stdout, /\u009b31m\u202e\u200b/);
  });
});

describe('timeline -w', () => {
  const follow = () =>
    openSources({
      live: memorySource({
        provenance: fromCluster(),
        steps: [
          { kind: 'list', items: [], resourceVersion: '100', why: 'start' },
          { kind: 'change', type: 'ADDED', object: evil() },
        ],
      }),
    });

  test('-o jsonpath follows with each value escaped on a terminal, exact to a pipe', async () => {
    const template = 'jsonpath={.reason}{"\\n"}';
    assert.equal((await run(['-w', '-o', template], true, follow())).stdout, `${REASON_SHOWN}\n`);
    assert.equal((await run(['-w', '-o', template], false, follow())).stdout, `${REASON}\n`);
  });

  test('-o name follows with each name escaped on a terminal, exact to a pipe', async () => {
    assert.equal((await run(['-w', '-o', 'name'], true, follow())).stdout, `event/${NAME_SHOWN}\n`);
    assert.equal((await run(['-w', '-o', 'name'], false, follow())).stdout, `event/${NAME}\n`);
  });
});

describe('incident and type-audit documents', () => {
  test('incident -o jsonpath: escaped on a terminal, exact to a pipe', async () => {
    const tty = await run(['incident', '--from', 'events.jsonl', '-o', 'jsonpath={..reason}'], true);
    assert.equal(tty.code, 0, String(tty.code));
    assert.match(tty.stdout, new RegExp(REASON_SHOWN.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')));
    assert.doesNotMatch(tty.stdout, RAW);
    const pipe = await run(['incident', '--from', 'events.jsonl', '-o', 'jsonpath={..reason}'], false);
    assert.ok(pipe.stdout.includes(REASON), pipe.stdout);
  });

  test('type-audit -o name and -o jsonpath: escaped on a terminal, exact to a pipe', async () => {
    // A made-up type is a finding, so the hostile event is named in the report.
    const sources = () => openSources({ saved: memorySource({ provenance: fromRecord({ namespace: null }), raw: [ev({ name: NAME, reason: REASON, type: 'Bad\u001b[0m' })] }) });
    const ttyName = await run(['type-audit', '--from', 'events.jsonl', '-o', 'name'], true, sources());
    assert.equal(ttyName.stdout, `event/${NAME_SHOWN}\n`);
    assert.equal((await run(['type-audit', '--from', 'events.jsonl', '-o', 'name'], false, sources())).stdout, `event/${NAME}\n`);
    const ttyPath = await run(['type-audit', '--from', 'events.jsonl', '-o', 'jsonpath={.findings[*].event}'], true, sources());
    assert.ok(ttyPath.stdout.length > 0);
    assert.doesNotMatch(ttyPath.stdout, RAW);
    assert.ok(ttyPath.stdout.includes(NAME_SHOWN), ttyPath.stdout);
    const pipePath = await run(['type-audit', '--from', 'events.jsonl', '-o', 'jsonpath={.findings[*].event}'], false, sources());
    assert.ok(pipePath.stdout.includes(NAME), pipePath.stdout);
  });
});
