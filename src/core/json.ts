// Small readers for API objects as untyped JSON, shared by every layer that handles raw events.

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** metadata.resourceVersion, or '' when there is none. */
export function resourceVersionOf(object: unknown): string {
  const meta = isObject(object) && isObject(object.metadata) ? object.metadata : {};
  return typeof meta.resourceVersion === 'string' ? meta.resourceVersion : '';
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
