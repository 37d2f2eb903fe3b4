// A namespace's Pod list read as Protobuf, the API server's own encoding (the one client-go's
// clientsets ask for: Accept application/vnd.kubernetes.protobuf). Why: the facts' Pod list is the
// largest read of `incident` (1.46 MB of JSON for 400 Pods, a third of it managedFields), and its
// JSON costs on both sides: the API server spent 35-38 ms of CPU writing it against 19-22 ms for the
// same list in Protobuf (880 KB), and here the JSON was scanned, parsed whole and let go. In
// Protobuf every field carries its length, so what the facts never read (managedFields, env,
// volumes' sources other than claims, ...) is stepped over without being looked at.
//
// Only the fields the facts (core/facts.ts podFacts) and the lookups (core/object-meta.ts
// objectMetaOf) read are decoded, into the JSON shape the API server would have written for them
// (field names, inlined structs, RFC 3339 times, Quantity strings): the readers cannot tell the
// difference. Field numbers: k8s.io/api core/v1/generated.proto and k8s.io/apimachinery
// pkg/apis/meta/v1/generated.proto (kubernetes/api 10b39a39b); the envelope is runtime.Unknown after
// the 4-byte magic "k8s\0" (k8s.io/apimachinery pkg/runtime/serializer/protobuf/protobuf.go).
// Where JSON omits a zero value (`omitempty`) and Protobuf writes it, the zero is left out here too.
import type { Json } from '../core/json.ts';

const MAGIC = [0x6b, 0x38, 0x73, 0x00];
export const PROTOBUF = 'application/vnd.kubernetes.protobuf';

/** A field: its JSON name and how to read it. `zero` leaves a zero number out, as JSON's omitempty does. */
type Field =
  | { name: string; kind: 'string' | 'bool' | 'time' | 'quantity' }
  | { name: string; kind: 'int32' | 'int64'; zero?: 'omit' }
  | { name: string; kind: 'message'; schema: Schema; inline?: boolean }
  | { name: string; kind: 'repeated'; schema: Schema }
  | { name: string; kind: 'strings' }
  | { name: string; kind: 'map'; value: 'string' | 'quantity' };
type Schema = Record<number, Field>;

const str = (name: string): Field => ({ name, kind: 'string' });
const time = (name: string): Field => ({ name, kind: 'time' });
const msg = (name: string, schema: Schema, inline = false): Field => ({ name, kind: 'message', schema, inline });
const many = (name: string, schema: Schema): Field => ({ name, kind: 'repeated', schema });

const OWNER_REFERENCE: Schema = { 1: str('kind'), 3: str('name'), 4: str('uid'), 5: str('apiVersion'), 6: { name: 'controller', kind: 'bool' }, 7: { name: 'blockOwnerDeletion', kind: 'bool' } };
const OBJECT_META: Schema = {
  1: str('name'),
  2: str('generateName'),
  3: str('namespace'),
  5: str('uid'),
  6: str('resourceVersion'),
  8: time('creationTimestamp'),
  9: time('deletionTimestamp'),
  11: { name: 'labels', kind: 'map', value: 'string' },
  13: many('ownerReferences', OWNER_REFERENCE),
};
const RESOURCES: Schema = { 1: { name: 'limits', kind: 'map', value: 'quantity' }, 2: { name: 'requests', kind: 'map', value: 'quantity' } };
// Probe's numbers are `omitempty` in JSON (types.go Probe): a zero is absent there, so here.
const PROBE: Schema = {
  2: { name: 'initialDelaySeconds', kind: 'int32', zero: 'omit' },
  4: { name: 'periodSeconds', kind: 'int32', zero: 'omit' },
  6: { name: 'failureThreshold', kind: 'int32', zero: 'omit' },
};
const CONTAINER: Schema = { 1: str('name'), 2: str('image'), 8: msg('resources', RESOURCES), 10: msg('livenessProbe', PROBE), 11: msg('readinessProbe', PROBE), 22: msg('startupProbe', PROBE) };
// An EphemeralContainer's fields are EphemeralContainerCommon's, inlined in JSON, field 1 here.
const EPHEMERAL: Schema = { 1: msg('', CONTAINER, true) };
// A Volume inlines its VolumeSource in JSON (field 2 here); of the sources, only a claim is read.
const VOLUME: Schema = { 1: str('name'), 2: msg('', { 10: msg('persistentVolumeClaim', { 1: str('claimName') }) }, true) };
const TOLERATION: Schema = { 1: str('key'), 2: str('operator'), 3: str('value'), 4: str('effect') };
const POD_SPEC: Schema = { 1: many('volumes', VOLUME), 2: many('containers', CONTAINER), 10: str('nodeName'), 20: many('initContainers', CONTAINER), 22: many('tolerations', TOLERATION), 34: many('ephemeralContainers', EPHEMERAL) };
const CONDITION: Schema = { 1: str('type'), 2: str('status'), 4: time('lastTransitionTime'), 5: str('reason'), 6: str('message') };
// ContainerStateTerminated's signal is `omitempty` in JSON; exitCode is not.
const STATE: Schema = {
  1: msg('waiting', { 1: str('reason'), 2: str('message') }),
  2: msg('running', { 1: time('startedAt') }),
  3: msg('terminated', { 1: { name: 'exitCode', kind: 'int32' }, 2: { name: 'signal', kind: 'int32', zero: 'omit' }, 3: str('reason'), 4: str('message'), 5: time('startedAt'), 6: time('finishedAt') }),
};
const CONTAINER_STATUS: Schema = { 1: str('name'), 2: msg('state', STATE), 3: msg('lastState', STATE), 4: { name: 'ready', kind: 'bool' }, 5: { name: 'restartCount', kind: 'int32' } };
const POD_STATUS: Schema = {
  1: str('phase'),
  2: many('conditions', CONDITION),
  3: str('message'),
  4: str('reason'),
  8: many('containerStatuses', CONTAINER_STATUS),
  9: str('qosClass'),
  10: many('initContainerStatuses', CONTAINER_STATUS),
  13: many('ephemeralContainerStatuses', CONTAINER_STATUS),
};
const POD: Schema = { 1: msg('metadata', OBJECT_META), 2: msg('spec', POD_SPEC), 3: msg('status', POD_STATUS) };
const LIST_META: Schema = { 2: str('resourceVersion'), 3: str('continue') };
const POD_LIST: Schema = { 1: msg('metadata', LIST_META), 2: many('items', POD) };
const TYPE_META: Schema = { 1: str('apiVersion'), 2: str('kind') };
const STATUS: Schema = { 2: str('status'), 3: str('message'), 4: str('reason'), 6: { name: 'code', kind: 'int32' } };

class Malformed extends Error {}

/** A reader over one message's bytes. */
class Reader {
  constructor(
    readonly buf: Buffer,
    public at: number,
    readonly end: number,
  ) {}

  /** A varint as its low and high 32 bits (int32, int64 and bool share it). */
  varint(): [number, number] {
    let lo = 0;
    let hi = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      if (this.at >= this.end) throw new Malformed('varint past the end');
      const b = this.buf[this.at++] as number;
      if (shift < 28) lo |= (b & 0x7f) << shift;
      else if (shift === 28) {
        lo |= (b & 0x0f) << 28;
        hi |= (b & 0x7f) >> 4;
      } else hi |= (b & 0x7f) << (shift - 32);
      if ((b & 0x80) === 0) return [lo, hi];
    }
    throw new Malformed('varint too long');
  }

  /** A varint that fits in 31 bits (keys, lengths: nearly every varint), without the pair varint() makes; -1 when it does not fit. */
  small(): number {
    const buf = this.buf;
    let at = this.at;
    let value = 0;
    for (let shift = 0; shift < 31; shift += 7) {
      if (at >= this.end) throw new Malformed('varint past the end');
      const b = buf[at++] as number;
      value |= (b & 0x7f) << shift;
      if (b < 0x80) {
        if (value < 0) return -1;
        this.at = at;
        return value;
      }
    }
    return -1;
  }

  key(): number {
    const key = this.small();
    if (key < 0) throw new Malformed('field number out of range');
    return key;
  }

  length(): number {
    const size = this.small();
    if (size < 0 || this.at + size > this.end) throw new Malformed('length past the end');
    return size;
  }

  skip(wire: number): void {
    if (wire === 0) {
      if (this.small() < 0) this.varint();
    }
    else if (wire === 1) this.at += 8;
    else if (wire === 2) {
      const size = this.length(); // read before `at` is: `this.at += this.length()` would add to the old `at`
      this.at += size;
    }
    else if (wire === 5) this.at += 4;
    else throw new Malformed(`wire type ${wire}`);
    if (this.at > this.end) throw new Malformed('field past the end');
  }
}

const int64 = ([lo, hi]: [number, number]): number => hi * 2 ** 32 + (lo >>> 0);

/** metav1.Time as JSON writes it (RFC 3339, whole seconds, UTC); an empty message is the zero time, JSON's null. */
function timeOf(r: Reader, end: number): string | null {
  let seconds = 0;
  while (r.at < end) {
    const key = r.key();
    if (key >>> 3 === 1 && (key & 7) === 0) {
      const small = r.small();
      seconds = small >= 0 ? small : int64(r.varint());
    }
    else r.skip(key & 7);
  }
  if (seconds === 0) return null;
  // A Pod's times are few and repeat (created, scheduled, started): each second is written out once per list.
  const known = times.get(seconds);
  if (known !== undefined) return known;
  const date = new Date(seconds * 1000);
  const written = Number.isNaN(date.getTime()) || date.getUTCFullYear() > 9999 || date.getUTCFullYear() < 0 ? null : date.toISOString().replace(/\.\d{3}Z$/, 'Z');
  times.set(seconds, written);
  return written;
}

/** Seconds to their RFC 3339 text, for the list being read (cleared after it). */
const times = new Map<number, string | null>();

function text(r: Reader, size: number): string {
  const s = r.buf.toString('utf8', r.at, r.at + size);
  r.at += size;
  return s;
}

/** resource.Quantity is `{ string = 1 }`, its canonical text, as JSON writes it. */
function quantityOf(r: Reader, end: number): string {
  let out = '';
  while (r.at < end) {
    const key = r.key();
    if (key >>> 3 === 1 && (key & 7) === 2) out = text(r, r.length());
    else r.skip(key & 7);
  }
  return out;
}

/** One map entry (`key = 1, value = 2`). */
function entryOf(r: Reader, end: number, value: 'string' | 'quantity'): [string, string] {
  let k = '';
  let v = '';
  while (r.at < end) {
    const key = r.key();
    const wire = key & 7;
    if (wire !== 2) r.skip(wire);
    else if (key >>> 3 === 1) k = text(r, r.length());
    else if (key >>> 3 === 2) {
      const size = r.length();
      v = value === 'string' ? text(r, size) : quantityOf(r, r.at + size);
    } else r.skip(wire);
  }
  return [k, v];
}

function messageOf(r: Reader, end: number, schema: Schema, into: Record<string, unknown> = {}): Record<string, unknown> {
  while (r.at < end) {
    const key = r.key();
    const wire = key & 7;
    const field = schema[key >>> 3];
    if (field === undefined) {
      r.skip(wire);
      continue;
    }
    const expects = field.kind === 'bool' || field.kind === 'int32' || field.kind === 'int64' ? 0 : 2;
    if (wire !== expects) throw new Malformed(`field ${field.name} has wire type ${wire}`);
    if (field.kind === 'bool') {
      const b = r.small();
      into[field.name] = b < 0 ? r.varint().some((half) => half !== 0) : b !== 0;
    }
    else if (field.kind === 'int32' || field.kind === 'int64') {
      const small = r.small();
      const n = small >= 0 ? small : field.kind === 'int32' ? r.varint()[0] | 0 : int64(r.varint());
      if (n !== 0 || field.zero !== 'omit') into[field.name] = n;
      continue;
    }
    if (expects === 0) continue;
    const size = r.length();
    const stop = r.at + size;
    if (field.kind === 'string') into[field.name] = text(r, size);
    else if (field.kind === 'time') into[field.name] = timeOf(r, stop);
    else if (field.kind === 'quantity') into[field.name] = quantityOf(r, stop);
    else if (field.kind === 'message') {
      if (field.inline) messageOf(r, stop, field.schema, into);
      else into[field.name] = messageOf(r, stop, field.schema, (into[field.name] as Record<string, unknown> | undefined) ?? {});
    } else if (field.kind === 'repeated') {
      const list = (into[field.name] as unknown[] | undefined) ?? [];
      list.push(messageOf(r, stop, field.schema));
      into[field.name] = list;
    } else if (field.kind === 'strings') {
      const list = (into[field.name] as unknown[] | undefined) ?? [];
      list.push(text(r, size));
      into[field.name] = list;
    } else if (field.kind === 'map') {
      const map = (into[field.name] as Record<string, string> | undefined) ?? {};
      const [k, v] = entryOf(r, stop, field.value);
      map[k] = v;
      into[field.name] = map;
    }
    r.at = stop;
  }
  if (r.at !== end) throw new Malformed('a field ran past its message');
  return into;
}

/** The runtime.Unknown envelope: its Kind and the bytes of the object; null when the body is not one. */
function envelope(body: Buffer): { kind: string; raw: Reader } | null {
  if (body.length < 4 || MAGIC.some((b, i) => body[i] !== b)) return null;
  const r = new Reader(body, 4, body.length);
  let kind = '';
  let raw: Reader | null = null;
  let encoding = '';
  while (r.at < r.end) {
    const key = r.key();
    const wire = key & 7;
    if (wire !== 2) {
      r.skip(wire);
      continue;
    }
    const size = r.length();
    const stop = r.at + size;
    if (key >>> 3 === 1) kind = String(messageOf(r, stop, TYPE_META).kind ?? '');
    else if (key >>> 3 === 2) raw = new Reader(body, r.at, stop);
    else if (key >>> 3 === 3) encoding = text(r, size);
    r.at = stop;
  }
  return raw === null || encoding !== '' ? null : { kind, raw };
}

/**
 * A PodList in Protobuf as the JSON the API server would have written for the fields the facts read:
 * `{ metadata: { resourceVersion, continue }, items: [...] }`. Throws on anything else (not the
 * envelope, another Kind, a field that runs past its message): the caller says the answer is not a list.
 */
export function podListFromProtobuf(body: Buffer): { metadata: Json; items: Json[] } {
  const found = envelope(body);
  if (found === null || found.kind !== 'PodList') throw new Malformed(`not a PodList (${found?.kind ?? 'no envelope'})`);
  let list: Record<string, unknown>;
  try {
    list = messageOf(found.raw, found.raw.end, POD_LIST);
  } finally {
    times.clear();
  }
  return { metadata: (list.metadata as Json | undefined) ?? {}, items: (list.items as Json[] | undefined) ?? [] };
}

/** An error answer's Status in Protobuf as its JSON text (for the caller's own reading of Status); null when it is not one. */
export function statusTextFromProtobuf(body: Buffer): string | null {
  try {
    const found = envelope(body);
    if (found === null || found.kind !== 'Status') return null;
    return JSON.stringify({ kind: 'Status', ...messageOf(found.raw, found.raw.end, STATUS) });
  } catch {
    return null;
  }
}

/**
 * Every JSON path a Pod decoded here can hold: `a.b` for a field, `a[]` for a list's items, `a.*` for
 * a map's keys. The facts and the lookups must read nothing else from a Pod (checked by a test that
 * watches them read), or the Protobuf path would silently lack what the JSON path has.
 */
export function podJsonPaths(): string[] {
  const paths: string[] = [];
  const walk = (schema: Schema, at: string): void => {
    for (const field of Object.values(schema)) {
      const path = field.kind === 'message' && field.inline ? at : at === '' ? field.name : `${at}.${field.name}`;
      if (field.kind === 'message') walk(field.schema, path);
      else if (field.kind === 'repeated') walk(field.schema, `${path}[]`);
      else if (field.kind === 'strings') paths.push(`${path}[]`);
      else if (field.kind === 'map') paths.push(`${path}.*`);
      else paths.push(path);
    }
  };
  walk(POD, '');
  return paths;
}
