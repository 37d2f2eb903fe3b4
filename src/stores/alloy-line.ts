// One log line of Grafana Alloy's loki.source.kubernetes_events, as its event controller writes it
// (grafana/alloy internal/component/loki/source/kubernetes_events/event_controller.go, parseEvent
// and appendTextMsg/appendJsonMsg, commit 07604bf): the fields below in this order, each only when
// not empty (name always, msg always), as `key=value ` with the value as Go's %s (count %d, msg %q:
// a Go-quoted string), or with log_format = "json" the same keys as one JSON object. No uid, no
// event name, no first timestamp, no series: the entry's own timestamp is the event's lastTimestamp,
// else its eventTime; the namespace is the stream's `namespace` label (the involved object's).
import { isObject } from '../core/json.ts';
import type { Json } from '../core/json.ts';

/** Alloy's keys, in the order it writes them. */
export const ALLOY_KEYS = [
  'name',
  'kind',
  'action',
  'objectAPIversion',
  'objectRV',
  'eventRV',
  'reportinginstance',
  'reportingcontroller',
  'sourcecomponent',
  'sourcehost',
  'reason',
  'type',
  'count',
  'msg',
] as const;

type AlloyKey = (typeof ALLOY_KEYS)[number];
export type AlloyFields = Partial<Record<AlloyKey, string>>;

const SIMPLE_ESCAPES: Record<string, string> = { a: '\u0007', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"', "'": "'" };

/** A Go-quoted string (strconv.Quote, what %q writes) from its opening quote; its value and where it ends, or null. */
export function unquoteGo(text: string, start: number): { value: string; end: number } | null {
  if (text[start] !== '"') return null;
  const bytes: number[] = [];
  const pushText = (s: string) => bytes.push(...Buffer.from(s, 'utf8'));
  for (let i = start + 1; i < text.length; ) {
    const c = text[i] as string;
    if (c === '"') return { value: Buffer.from(bytes).toString('utf8'), end: i + 1 };
    if (c !== '\\') {
      const cp = text.codePointAt(i) as number;
      const ch = String.fromCodePoint(cp);
      pushText(ch);
      i += ch.length;
      continue;
    }
    const e = text[i + 1];
    if (e === undefined) return null;
    if (e in SIMPLE_ESCAPES) {
      pushText(SIMPLE_ESCAPES[e] as string);
      i += 2;
    } else if (e === 'x' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 2, i + 4))) {
      // \xNN is a byte (Go writes it for bytes that are not UTF-8).
      bytes.push(Number.parseInt(text.slice(i + 2, i + 4), 16));
      i += 4;
    } else if ((e === 'u' || e === 'U') && /^[0-9a-fA-F]+$/.test(text.slice(i + 2, i + (e === 'u' ? 6 : 10)))) {
      const n = e === 'u' ? 4 : 8;
      const cp = Number.parseInt(text.slice(i + 2, i + 2 + n), 16);
      if (cp > 0x10ffff) return null;
      pushText(String.fromCodePoint(cp));
      i += 2 + n;
    } else if (/[0-7]/.test(e) && /^[0-7]{3}$/.test(text.slice(i + 1, i + 4))) {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 4), 8) & 0xff);
      i += 4;
    } else {
      return null;
    }
  }
  return null;
}

/**
 * Alloy's logfmt line as its fields; null when it is not one (no `name=` first, or no quoted msg
 * last). A %s value may hold spaces: it runs to the next ` key=` of a later key.
 */
export function parseAlloyLogfmt(line: string): AlloyFields | null {
  if (!line.startsWith('name=')) return null;
  // msg comes last, Go-quoted: no bare `"` inside it, so its ` msg="` is the line's last one; an
  // earlier one is in a %s value (a reason or a host may say anything).
  const msgAt = line.lastIndexOf(' msg="');
  const quoted = msgAt < 0 ? null : unquoteGo(line, msgAt + ' msg='.length);
  // Alloy ends every field with a space, the last one too.
  if (quoted === null || line.slice(quoted.end).trim() !== '') return null;
  const head = line.slice(0, msgAt + 1);
  const keys = ALLOY_KEYS.filter((k) => k !== 'msg');
  const fields: AlloyFields = {};
  let at = 0;
  let keyIndex = 0;
  while (at < head.length) {
    const key = keys.slice(keyIndex).find((k) => head.startsWith(`${k}=`, at));
    if (key === undefined) return null;
    keyIndex = keys.indexOf(key) + 1;
    const valueStart = at + key.length + 1;
    // The value ends at the first ` <later key>=`, else at the space before msg.
    let end = head.length - 1;
    for (const later of keys.slice(keyIndex)) {
      const found = head.indexOf(` ${later}=`, valueStart);
      if (found >= 0 && found < end) end = found;
    }
    fields[key] = head.slice(valueStart, end);
    at = end + 1;
  }
  fields.msg = quoted.value;
  return fields;
}

/** Alloy's log_format = "json" line as its fields; null when it is not one. */
export function parseAlloyJson(value: unknown): AlloyFields | null {
  if (!isObject(value) || typeof value.name !== 'string' || typeof value.msg !== 'string') return null;
  if (Object.keys(value).some((k) => !(ALLOY_KEYS as readonly string[]).includes(k))) return null;
  const fields: AlloyFields = {};
  for (const key of ALLOY_KEYS) {
    const v = value[key];
    if (typeof v === 'string') fields[key] = v;
    else if (typeof v === 'number' && Number.isFinite(v)) fields[key] = String(v);
  }
  return fields;
}

/** One Alloy line as one version of a core/v1 Event: what Alloy kept, at the entry's time, in the stream's namespace. */
export function alloyEvent(fields: AlloyFields, namespace: string, at: string): Json {
  const count = Number(fields.count ?? '');
  const event: Json = {
    kind: 'Event',
    apiVersion: 'v1',
    metadata: { namespace, ...(fields.eventRV ? { resourceVersion: fields.eventRV } : {}) },
    involvedObject: {
      kind: fields.kind ?? '',
      name: fields.name ?? '',
      namespace,
      ...(fields.objectAPIversion ? { apiVersion: fields.objectAPIversion } : {}),
      ...(fields.objectRV ? { resourceVersion: fields.objectRV } : {}),
    },
    reason: fields.reason ?? '',
    message: fields.msg ?? '',
    type: fields.type ?? '',
    source: { ...(fields.sourcecomponent ? { component: fields.sourcecomponent } : {}), ...(fields.sourcehost ? { host: fields.sourcehost } : {}) },
    lastTimestamp: at,
  };
  if (Number.isInteger(count) && count > 0) event.count = count;
  if (fields.action) event.action = fields.action;
  if (fields.reportingcontroller) event.reportingComponent = fields.reportingcontroller;
  if (fields.reportinginstance) event.reportingInstance = fields.reportinginstance;
  return event;
}
