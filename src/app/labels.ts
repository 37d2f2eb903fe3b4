// -l/--selector: events about objects whose labels match. Events carry no labels; their objects
// do. Live, the objects of each namespace the events are in are listed (metadata only, the lists
// --tree makes); a capture or a record hands back the objects it kept, labels included since this
// version. An event's object is matched by uid, else by namespace, Kind and name.
import type { Deps } from '../deps.ts';
import type { Event } from '../core/event.ts';
import type { ObjectMeta } from '../core/ownership.ts';
import type { EventSource } from '../core/source.ts';
import { escapeTerminal } from '../render/escape.ts';

type Labels = Readonly<Record<string, string>>;

const nameKey = (namespace: string, kind: string, name: string): string => `${namespace}\u0000${kind}\u0000${name}`;

/** What the objects say of labels, by uid and by name. */
class LabelIndex {
  private readonly byUid = new Map<string, Labels>();
  private readonly byName = new Map<string, Labels>();
  /** whether any object read had labels (a file saved before labels were kept has none) */
  anyLabels = false;

  add(objects: readonly ObjectMeta[]): void {
    for (const o of objects) {
      const labels = o.labels ?? {};
      if (o.labels !== undefined) this.anyLabels = true;
      this.byUid.set(o.uid, labels);
      this.byName.set(nameKey(o.namespace, o.kind, o.name), labels);
    }
  }

  labelsOf = (ev: Event): Labels | undefined => {
    const o = ev.object;
    if (o.uid !== '') return this.byUid.get(o.uid);
    return this.byName.get(nameKey(o.namespace, o.kind, o.name));
  };

  knows(ev: Event): boolean {
    return this.labelsOf(ev) !== undefined;
  }
}

/** A saved input whose objects carry no labels: -l can match nothing in it. */
export function noLabelsWarning(from: string): string {
  return `warning: ${escapeTerminal(from)} keeps no labels of the events' objects: -l matches none of its events (a capture or record made by this version keeps them)\n`;
}

/** The namespaces the events are about (a cluster-scoped object's events are in default). */
export function namespacesOf(events: readonly Event[]): string[] {
  return [...new Set(events.map((ev) => ev.object.namespace || ev.namespace))].filter((ns) => ns !== '');
}

/**
 * The labels of the events' objects, from the source's objects. A source that keeps none (a list,
 * a stable table, an older capture or record) is said on stderr once: -l then matches nothing.
 */
export async function labelsFor(source: EventSource, events: readonly Event[], deps: Deps, from: string | null): Promise<(ev: Event) => Labels | undefined> {
  const index = new LabelIndex();
  if (source.ownership !== undefined) {
    for (const ns of namespacesOf(events)) index.add((await source.ownership(ns)) ?? []);
  }
  if (from !== null && !index.anyLabels && events.length > 0) deps.stderr.write(noLabelsWarning(from));
  return index.labelsOf;
}

/**
 * -w -l: the labels of the objects there are, and of each new object once its first event
 * arrives (its namespace listed again, at most once per `minGapMs`: a rollout's Pods join as they come).
 */
export function followedLabels(source: EventSource, now: () => number, minGapMs = 2_000) {
  const index = new LabelIndex();
  const listedAt = new Map<string, number>();
  const list = async (ns: string) => {
    listedAt.set(ns, now());
    index.add((await source.ownership?.(ns)) ?? []);
  };
  return {
    labelsOf: index.labelsOf,
    async learn(events: readonly Event[]): Promise<void> {
      for (const ns of namespacesOf(events.filter((ev) => !index.knows(ev)))) {
        if (now() - (listedAt.get(ns) ?? Number.NEGATIVE_INFINITY) >= minGapMs) await list(ns);
      }
    },
  };
}
