// Small readers for API objects as untyped JSON, shared by every layer that handles raw events.

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The value when it is an object, else an empty one: reading a field of it never throws. */
export function asObject(value: unknown): Json {
  return isObject(value) ? value : {};
}

/** The value when it is an array, else an empty one. */
export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A string field as text (numbers and booleans spelled out); '' for anything else. */
export function asString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/**
 * A field the wire types as a string, or '' for anything else, a number included: discovery
 * documents, Go times, and a store's rows, where a number in its place is not that field.
 */
export function stringOnly(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * A string, or a number spelled out; '' for anything else. OTLP's JSON encoding writes an
 * AnyValue's intValue as a string or a number (proto3 JSON: int64 as a string, accepted either way).
 */
export function stringOrNumber(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/** A JSON number (never NaN or Infinity, which JSON cannot carry but a hand-made object can); null otherwise. */
export function asNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** A whole JSON number (counts, exit codes, ports); null otherwise. */
export function asInteger(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

/** The strings of an array (anything else in it left out); [] when it is not one. */
export function asStrings(value: unknown): string[] {
  return asArray(value).filter((x): x is string => typeof x === 'string');
}

/** An API object's metadata, or an empty object. */
export function metadataOf(object: unknown): Json {
  return asObject(asObject(object).metadata);
}

/** metadata.resourceVersion, or '' when there is none. */
export function resourceVersionOf(object: unknown): string {
  const rv = metadataOf(object).resourceVersion;
  return typeof rv === 'string' ? rv : '';
}

/** Whether a raw object is in the namespace (null: every namespace). */
export function inNamespace(object: unknown, namespace: string | null): boolean {
  return namespace === null || metadataOf(object).namespace === namespace;
}

/**
 * resourceVersion is opaque by API convention, but on an etcd-backed server it is a revision
 * number: compare it only when both are plain integers. Null means "cannot tell".
 */
export function compareResourceVersions(a: string, b: string): -1 | 0 | 1 | null {
  if (!/^\d+$/.test(a) || !/^\d+$/.test(b)) return null;
  const x = BigInt(a);
  const y = BigInt(b);
  return x === y ? 0 : x > y ? 1 : -1;
}
