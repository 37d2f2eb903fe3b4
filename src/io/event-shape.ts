// What --from takes for an Event, by its shape: any JSON that parses is not events. Lists from the
// API server carry items without kind or apiVersion, so an item is an Event when it is an object
// that names no other kind or group and carries what every Event carries: the object it is about
// (core/v1 involvedObject, events.k8s.io/v1 regarding) or its words (reason, message, note). A
// ConfigMapList, `[1,2,3]` or `{"items":[null,5]}` is refused, naming the first item that is not one,
// rather than read as `<none>` events that type-audit would then blame.
import { isObject } from '../core/json.ts';

const EVENT_API_VERSIONS = /^(v1|events\.k8s\.io\/v1(beta1)?)$/;

function describe(item: unknown): string {
  if (item === null) return 'null';
  if (Array.isArray(item)) return 'an array';
  if (!isObject(item)) return `a ${typeof item} (${JSON.stringify(item).slice(0, 40)})`;
  const name = isObject(item.metadata) && typeof item.metadata.name === 'string' ? ` ${JSON.stringify(item.metadata.name)}` : '';
  if (typeof item.kind === 'string' && item.kind !== 'Event') return `a ${item.kind}${name}`;
  if (typeof item.apiVersion === 'string' && !EVENT_API_VERSIONS.test(item.apiVersion)) return `an object of ${item.apiVersion}${name}`;
  return `an object${name} with no involvedObject, regarding, reason, message or note`;
}

function isEvent(item: unknown): boolean {
  if (!isObject(item)) return false;
  if (item.kind !== undefined && item.kind !== 'Event') return false;
  if (item.apiVersion !== undefined && !(typeof item.apiVersion === 'string' && EVENT_API_VERSIONS.test(item.apiVersion))) return false;
  return isObject(item.involvedObject) || isObject(item.regarding) || ['reason', 'message', 'note'].some((field) => typeof item[field] === 'string');
}

/** The first item that is not an Event: its 1-based position and what it is instead; null when all are Events. */
export function firstNonEvent(items: readonly unknown[]): { position: number; what: string } | null {
  const index = items.findIndex((item) => !isEvent(item));
  return index < 0 ? null : { position: index + 1, what: describe(items[index]) };
}
