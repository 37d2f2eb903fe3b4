// The step summary's Markdown: event text cannot add a column, a tag or a terminal control.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markdownText, renderWaitMarkdown } from '../../../src/render/wait-report.ts';
import { normaliseEvent } from '../../../src/core/event.ts';
import { ev, NOW } from '../../support/builders.ts';

test('a cell escapes pipes, tags and Markdown marks; a newline and ESC are shown as the terminal escaper shows them (\\n, ^[)', () => {
  assert.equal(markdownText('a|b <script>x</script> *c* `d`\ne\u001b[31m'), 'a\\|b &lt;script&gt;x&lt;/script&gt; \\*c\\* \\`d\\`\\\\ne^\\[\\[31m');
});

test('the summary: the outcome, then the events of this rollout as a table, one row each', () => {
  const events = [normaliseEvent(ev({ namespace: 'shop', kind: 'Pod', objectName: 'web-1', type: 'Warning', reason: 'BackOff', message: 'Back-off | <b>', last: 5, count: 3 }))];
  const md = renderWaitMarkdown({
    object: { group: 'apps', kind: 'Deployment', name: 'web', namespace: 'shop', uid: 'u' },
    outcome: 'failed',
    exitCode: 5,
    message: 'deployment "web" exceeded its progress deadline',
    status: null,
    startedAt: NOW - 60_000,
    rolloutBegan: NOW - 90_000,
    finishedAt: NOW,
    settleMs: 0,
    events,
  });
  assert.equal(
    md,
    [
      '### ❌ Deployment/web in shop: failed',
      '',
      'deployment "web" exceeded its progress deadline (after 90s, exit 5)',
      '',
      '**Events of this rollout** (1)',
      '',
      '| Last seen | Type | Reason | Object | Message |',
      '| --- | --- | --- | --- | --- |',
      '| 2026-11-30T11:59:55.000Z | Warning | BackOff | Pod/web-1 | Back-off \\| &lt;b&gt; (x3) |',
      '',
      '',
    ].join('\n'),
  );
});
