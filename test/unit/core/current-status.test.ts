import { test } from 'node:test';
import assert from 'node:assert/strict';
import { currentStatus } from '../../../src/core/current-status.ts';
import { factsOf, nodeFacts, podFacts } from '../../../src/core/facts.ts';
import type { FactSet, ObjectFacts } from '../../../src/core/facts.ts';
import { plainPalette } from '../../../src/render/color.ts';
import { renderTimelineTable } from '../../../src/render/timeline-table.ts';
import { NOW } from '../../support/builders.ts';
import { kubeletEvent, node, pod, terminated, waiting } from '../../support/status-objects.ts';

const facts = (...objects: ObjectFacts[]): FactSet => ({ objects, gaps: [], readAt: null });

test("the STATUS of an event's object: its container's reason and last end, the Pod's, the Node's, a workload's failing condition", () => {
  const crashing = podFacts(pod({ containers: [{ restartCount: 3, lastState: terminated('OOMKilled', 137), state: waiting('CrashLoopBackOff', 'back-off 40s') }] }));
  const lost = nodeFacts(node({ name: 'node-1', ready: 'Unknown' }));
  const deploy = factsOf('Deployment', { metadata: { name: 'web', namespace: 'shop', uid: 'd' }, status: { conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }] } })!;
  const status = currentStatus(facts(crashing, lost, deploy));
  assert.equal(status(kubeletEvent({ reason: 'BackOff', container: 'app', message: 'Back-off restarting failed container app' })), 'app: CrashLoopBackOff (last OOMKilled, exit 137)');
  assert.equal(status(kubeletEvent({ reason: 'NodeNotReady', message: 'Node is not ready' })), 'CrashLoopBackOff');
  assert.equal(status(kubeletEvent({ kind: 'Node', name: 'node-1', namespace: 'default', reason: 'NodeNotReady', message: 'Node node-1 status is now: NodeNotReady' })), 'NotReady (NodeStatusUnknown)');
  assert.equal(status(kubeletEvent({ kind: 'Deployment', name: 'web', reason: 'ScalingReplicaSet', message: 'Scaled up' })), 'ProgressDeadlineExceeded');
  // An object the facts do not hold (gone before it was read) has none.
  assert.equal(status(kubeletEvent({ pod: 'other', reason: 'Scheduled', message: 'x' })), '');
});

test('-o wide shows STATUS before MESSAGE where status was read, and no such column without it', () => {
  const ev = kubeletEvent({ reason: 'BackOff', container: 'app', message: 'Back-off restarting failed container app', first: 30 });
  const crashing = podFacts(pod({ containers: [{ restartCount: 1, lastState: terminated('Error', 1), state: waiting('CrashLoopBackOff', 'x') }] }));
  const opts = { now: NOW, wide: true, allNamespaces: false, noHeaders: false, palette: plainPalette };
  const [head, row] = renderTimelineTable([ev], { ...opts, statusOf: currentStatus(facts(crashing)) }).split('\n');
  assert.match(head ?? '', /OBJECT UID +STATUS +MESSAGE$/);
  assert.match(row ?? '', /app: CrashLoopBackOff \(last Error, exit 1\) +Back-off restarting failed container app$/);
  assert.doesNotMatch(renderTimelineTable([ev], opts).split('\n')[0] ?? '', /STATUS/);
});
