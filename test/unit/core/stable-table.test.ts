import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { runCli } from '../../../src/cli.ts';
import { isStableLine, parseStableTable } from '../../../src/core/stable-table.ts';
import { normaliseEvent } from '../../../src/core/event.ts';
import { renderStable } from '../../../src/render/stable.ts';
import { ev } from '../../support/builders.ts';
import { fakeDeps } from '../../support/deps.ts';
import { scratchDir } from '../../support/tmp.ts';

const dir = scratchDir('stable-table');

const fields = (line: string) => {
  const [event] = parseStableTable(line);
  return [event?.type, event?.reason, event?.object.kind, event?.object.name];
};

describe('reading a stable table line', () => {
  const cases: [string, string, (string | undefined)[]][] = [
    ['the lab line', 'Warning FailedScheduling Pod/hungry', ['Warning', 'FailedScheduling', 'Pod', 'hungry']],
    ['an object name with a space (core/v1 accepts any involvedObject.name)', 'Normal Started Pod/my pod', ['Normal', 'Started', 'Pod', 'my pod']],
    ['a name with two spaces kept as written', 'Normal Started Pod/a  b', ['Normal', 'Started', 'Pod', 'a  b']],
    ['a sentence for a reason holding a slash of its own', 'Warning Evicted from kube-system/x Pod/web', ['Warning', 'Evicted from kube-system/x', 'Pod', 'web']],
    ['a sentence and a name with spaces', 'Normal Pod was started Pod/my web pod', ['Normal', 'Pod was started', 'Pod', 'my web pod']],
    ['<none> for empty fields', '<none> NoTarget <none>/<none>', ['', 'NoTarget', '', '']],
    ['a slash in a name', 'Normal Started ConfigMap/a/b', ['Normal', 'Started', 'ConfigMap', 'a/b']],
    ['a group-qualified Kind as its Kind', 'Normal Started Pipeline.ev.labhub.io/build-1', ['Normal', 'Started', 'Pipeline', 'build-1']],
    ['a name with a space and then a slash', 'Normal Changed ConfigMap/a b/c', ['Normal', 'Changed', 'ConfigMap', 'a b/c']],
    ['a name whose later words hold slashes, after a sentence holding one', 'Warning Moved from a/b ConfigMap/x y/z w/', ['Warning', 'Moved from a/b', 'ConfigMap', 'x y/z w/']],
    ['a lower-case Kind still read at the last word with a slash', 'Normal Started pod/x', ['Normal', 'Started', 'pod', 'x']],
  ];
  for (const [name, line, want] of cases) test(name, () => assert.deepEqual(fields(line), want));

  test('takes a line with a spaced name for a stable line', () => assert.ok(isStableLine('Normal Started Pod/my pod')));

  test('reads back what -o stable wrote, for any type, reason, Kind and name', () => {
    const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,11}$/);
    // A reason may be a sentence; a name may hold spaces (but is not read apart from a later word with a slash).
    const sentence = fc.array(fc.stringMatching(/^[A-Za-z0-9.:-]{1,8}$/), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
    // Kinds are capitalised; names may hold spaces and slashes (ConfigMap "a b/c").
    const kind = fc.stringMatching(/^[A-Z][A-Za-z0-9]{0,11}$/);
    const name = fc.array(fc.stringMatching(/^[a-z0-9./-]{1,8}$/), { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(word, sentence, kind, name, (type, reason, kind, objectName) => {
        const written = renderStable([normaliseEvent(ev({ type, reason, kind, objectName }))]);
        assert.deepEqual(fields(written.trimEnd()), [type, reason, kind, objectName]);
      }),
    );
  });
});

describe('a stable table where two groups share a Kind', () => {
  const written = renderStable(
    [ev({ apiVersion: 'ev.labhub.io/v1', kind: 'Pipeline' }), ev({ apiVersion: 'ci.example.org/v1beta1', kind: 'Pipeline', reason: 'Done' })].map(normaliseEvent),
  );
  test('reads back as the same two lines, each object in its group', () => {
    assert.equal(renderStable(parseStableTable(written)), written);
    assert.deepEqual(
      parseStableTable(written).map((e) => `${e.object.kind} ${e.object.apiVersion}`),
      ['Pipeline ci.example.org/', 'Pipeline ev.labhub.io/'],
    );
  });
});

describe('capture, then incident --from its own timeline.txt', () => {
  test('reads back a capture whose object names hold spaces', async () => {
    const list = join(dir, 'spaced.json');
    writeFileSync(
      list,
      JSON.stringify({
        items: [
          ev({ reason: 'Started', kind: 'Pod', objectName: 'my pod' }),
          ev({ reason: 'BackOff', type: 'Warning', objectName: 'a b c' }),
          ev({ reason: 'Changed', kind: 'ConfigMap', objectName: 'a b/c' }),
        ],
      }),
    );
    const capture = join(dir, 'cap');
    assert.equal(await runCli(['capture', '--from', list, capture], fakeDeps().deps), 0);
    const fake = fakeDeps();
    assert.equal(await runCli(['timeline', '-o', 'stable', '--from', join(capture, 'timeline.txt')], fake.deps), 0);
    assert.equal(fake.stdout(), readFileSync(join(capture, 'timeline.txt'), 'utf8'));
    const incident = fakeDeps();
    assert.equal(await runCli(['incident', '--from', join(capture, 'timeline.txt')], incident.deps), 0);
    assert.match(incident.stdout(), /my pod/);
    assert.match(incident.stdout(), /^ConfigMap\/a b\/c$/m);
  });
});
