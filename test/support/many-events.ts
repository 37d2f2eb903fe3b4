// A namespace-sized pile of events for the HTML page at scale: `n` events about `objects` objects
// (400 unless said) in 4 namespaces, five reasons, every type the page tells apart (Normal, Warning, Critical, a lower-case
// warning, an empty type), one in eleven repeated 7 times over a minute, spread over the hour before NOW.
import { ev } from './builders.ts';

const TYPES = ['Normal', 'Normal', 'Normal', 'Warning', 'Critical', 'warning', ''];
const REASONS = ['Scheduled', 'Pulled', 'BackOff', 'Reconciled', 'Probe'];

export function manyEvents(n: number, objects = 400): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i += 1) {
    const object = i % objects;
    const first = 3500 - (i % 3400);
    items.push(
      ev({
        name: `ev-${i}`,
        namespace: `team-${object % 4}`,
        kind: object % 3 === 0 ? 'Pod' : 'Pipeline',
        objectName: `obj-${object}`,
        objectUid: `uid-${object}`,
        reason: REASONS[Math.floor(i / 400) % REASONS.length],
        type: TYPES[i % TYPES.length],
        message: `Message ${i} about obj-${object}: something happened at step ${i % 97}.`,
        first,
        ...(i % 11 === 0 ? { count: 7, last: first - 60 } : {}),
      }),
    );
  }
  return items;
}
