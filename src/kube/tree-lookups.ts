// Object lookups answered from the ownership lists `--tree` has just read. Those metadata-only lists
// hold every object of each resource listed in the tree's namespace, so whether an event's object
// exists, under which uid, or is gone is already known: asking again (discovery of its group/version,
// a GET or a LIST per object) would repeat requests whose answer is in hand. Only what the lists
// cover is answered: another namespace, a Kind the reader may not list (a 403 gap), a resource not
// listed, or an apiVersion the server does not serve go to the ordinary lookups, so a gap is never
// taken for gone.
import type { ObjectRef } from '../core/event.ts';
import { objectKey } from '../core/identity.ts';
import type { ObjectLookup } from '../core/incarnation.ts';
import type { ServedResource } from '../core/resources.ts';
import { groupOf } from '../core/identity.ts';
import type { ObjectMeta } from '../core/ownership.ts';
import type { NamespaceOwnership } from './tree-listing.ts';

/** The lists of one namespace, as ownership() read them. */
export interface OwnershipListing extends NamespaceOwnership {
  namespace: string;
}

const typeKey = (group: string, kind: string): string => `${group}\u0000${kind}`;
const nameKey = (group: string, kind: string, name: string): string => `${group}\u0000${kind}\u0000${name}`;

/** Answers by objectKey (core/incarnation.ts) the refs the listing covers; the rest are left to look up. */
export function answerFromListing(
  refs: readonly ObjectRef[],
  listing: OwnershipListing,
  served: readonly ServedResource[],
): { found: Map<string, ObjectLookup>; rest: ObjectRef[] } {
  const listed = new Set(listing.listed.map((r) => typeKey(r.group, r.kind)));
  // The version an event names must be served, as a lookup would have found it (else: 'not-served').
  const servedVersions = new Set(served.map((r) => `${r.group === '' ? r.version : `${r.group}/${r.version}`}\u0000${r.kind}`));
  const byName = new Map<string, ObjectMeta>();
  for (const o of listing.objects) byName.set(nameKey(groupOf(o.apiVersion), o.kind, o.name), o);
  const found = new Map<string, ObjectLookup>();
  const rest: ObjectRef[] = [];
  for (const ref of refs) {
    const group = groupOf(ref.apiVersion);
    const covered = ref.namespace === listing.namespace && listed.has(typeKey(group, ref.kind)) && servedVersions.has(`${ref.apiVersion}\u0000${ref.kind}`);
    if (!covered) {
      rest.push(ref);
      continue;
    }
    const meta = byName.get(nameKey(group, ref.kind, ref.name));
    // The object as a lookup of the event's apiVersion would have read it (the list read the preferred one).
    found.set(
      objectKey(ref),
      meta === undefined
        ? { state: 'gone' }
        : { state: 'exists', uid: meta.uid, creationTimestamp: listing.createdText.get(meta) ?? null, meta: { ...meta, apiVersion: ref.apiVersion } },
    );
  }
  return { found, rest };
}
