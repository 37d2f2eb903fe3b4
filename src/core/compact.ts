// Events kept by the ten thousand (a list of 20,000, a record of 200,000) repeat the same few
// strings (namespaces, types, reasons, reporters, most messages) and name the same few objects.
// JSON.parse gives every occurrence its own copy; sharing one per distinct value keeps what is
// kept at about half the memory (200,000 normalised events: 140 -> 85 MiB of heap). Shared values
// are never changed: an Event is a value.
import type { Event } from './event.ts';

/** Longer text rarely repeats: not worth a lookup. */
const LONGEST_SHARED = 256;

/** Messages looked up before judging whether they repeat enough (a quarter) to go on. */
const MESSAGE_SAMPLE = 1000;

/** The most refs kept for one uid (or name): beyond it a ref is copied, not shared. */
const REFS_PER_KEY = 16;

/** A function that returns each event with its repeated strings shared with earlier events' (one pool per read). */
export function eventCompactor(): (ev: Event) => Event {
  const pool = new Map<string, string>();
  const share = (text: string): string => {
    if (text.length > LONGEST_SHARED) return text;
    const kept = pool.get(text);
    if (kept !== undefined) return kept;
    pool.set(text, text);
    return text;
  };
  // Messages repeat in some namespaces and not at all in others (pod names, numbers, durations in
  // each): after a first sample that found few repeats, a message is no longer looked up, as the
  // lookups then only grow the pool by one string per event (issue 27's distinct messages).
  let messagesSeen = 0;
  let messagesShared = 0;
  const shareMessage = (text: string): string => {
    if (messagesSeen >= MESSAGE_SAMPLE && messagesShared * 4 < messagesSeen) return text;
    messagesSeen += 1;
    if (pool.has(text)) messagesShared += 1;
    return share(text);
  };
  // Events about one object share one ObjectRef: a namespace of 20,000 events names about 400.
  // Found by uid (else name) and compared field by field: a key string joined per event cost more
  // than the rest of the compaction together (issue 27, 20,000 events: 26 -> 11 ms warm).
  const refs = new Map<string, Event['object'][]>();
  const shareRef = (o: Event['object']): Event['object'] => {
    const by = o.uid !== '' ? o.uid : o.name;
    const kept = refs.get(by);
    if (kept !== undefined) for (const k of kept) if (sameRef(k, o)) return k;
    const ref = {
      ...o,
      apiVersion: share(o.apiVersion),
      kind: share(o.kind),
      name: share(o.name),
      namespace: share(o.namespace),
      uid: share(o.uid),
      fieldPath: share(o.fieldPath),
    };
    if (kept === undefined) refs.set(by, [ref]);
    // A uid's refs differ by fieldPath (one per container): a few. Events naming one uid with
    // thousands of names (anyone may write an Event) must not make each lookup a long search.
    else if (kept.length < REFS_PER_KEY) kept.push(ref);
    return ref;
  };
  return (ev) => ({
    ...ev,
    namespace: share(ev.namespace),
    type: share(ev.type),
    reason: share(ev.reason),
    message: shareMessage(ev.message),
    action: share(ev.action),
    reporter: share(ev.reporter),
    instance: share(ev.instance),
    object: shareRef(ev.object),
  });
}

/** The same six fields and no other: a ref with more (a caller's own fields) is kept apart. */
function sameRef(a: Event['object'], b: Event['object']): boolean {
  return (
    a.uid === b.uid &&
    a.name === b.name &&
    a.fieldPath === b.fieldPath &&
    a.kind === b.kind &&
    a.namespace === b.namespace &&
    a.apiVersion === b.apiVersion &&
    fieldCount(a) === fieldCount(b)
  );
}

function fieldCount(o: object): number {
  let n = 0;
  for (const key in o) if (Object.hasOwn(o, key)) n += 1;
  return n;
}
