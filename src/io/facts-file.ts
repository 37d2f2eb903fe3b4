// Object facts as saved files keep them, so `incident --from` tells the same causes after the
// objects are gone: a record's status lines (src/io/record-line.ts) and a capture's status.json.
// One item per object, the facts of src/core/facts.ts as JSON (times in epoch ms, as the facts hold
// them), or one per thing that could not be read:
//
//   {"observedAt":"...","kind":"EvtimelineStatus","facts":{"kind":"Pod","name":"web-1","namespace":"shop",...}}
//   {"observedAt":"...","kind":"EvtimelineStatus","missing":{"what":"list","resource":"pods","namespace":"shop","reason":"forbidden"}}
//
// status.json: {"kind":"EvtimelineStatus","version":1,"capturedAt":...,"items":[facts...],"missing":[...]};
// its capturedAt is events.json's, so a file from another capture is not taken for this one's.
import { asArray, asObject, asString, isObject } from '../core/json.ts';
import type { Json } from '../core/json.ts';
import type { FactGap, FactSet, ObjectFacts, SavedStatus } from '../core/facts.ts';
import { factsKey } from '../core/facts.ts';

export const STATUS_KIND = 'EvtimelineStatus';
export const STATUS_FILE = 'status.json';


/**
 * An item back as facts; null when it is not one. The shape is checked where the causes engine
 * walks it (arrays, names), so a hand-edited or hostile file cannot make it throw.
 */
function parseSavedFacts(value: unknown): ObjectFacts | null {
  if (!isObject(value) || typeof value.kind !== 'string' || typeof value.name !== 'string') return null;
  const base = { ...value, name: value.name, namespace: asString(value.namespace), uid: asString(value.uid) };
  const conditions = asArray(value.conditions).filter(isObject);
  switch (value.kind) {
    case 'Pod':
      return {
        ...(base as unknown as ObjectFacts),
        kind: 'Pod',
        conditions,
        containers: asArray(value.containers)
          .filter(isObject)
          .map((c) => ({ ...c, name: asString(c.name), probes: asArray(c.probes).filter(isObject), requests: asObject(c.requests), limits: asObject(c.limits), ...(Array.isArray(c.lastWords) ? { lastWords: c.lastWords.map(asString) } : {}) })),
        tolerations: asArray(value.tolerations).filter(isObject),
        claims: asArray(value.claims).map(asString),
        owner: asString(value.owner),
        nodeName: asString(value.nodeName),
      } as unknown as ObjectFacts;
    case 'Node':
      return { ...(base as unknown as ObjectFacts), kind: 'Node', conditions, taints: asArray(value.taints).filter(isObject), allocatable: asObject(value.allocatable), requested: asObject(value.requested), pods: asArray(value.pods).map(asString) } as unknown as ObjectFacts;
    case 'ResourceQuota':
      return { ...(base as unknown as ObjectFacts), kind: 'ResourceQuota', hard: asObject(value.hard), used: asObject(value.used) } as unknown as ObjectFacts;
    case 'PersistentVolumeClaim':
      return { ...(base as unknown as ObjectFacts), kind: 'PersistentVolumeClaim', phase: asString(value.phase), storageClass: asString(value.storageClass) } as unknown as ObjectFacts;
    default:
      return { ...(base as unknown as ObjectFacts), kind: value.kind, conditions, replicas: asObject(value.replicas) } as unknown as ObjectFacts;
  }
}

function parseSavedGap(value: unknown): FactGap | null {
  if (!isObject(value)) return null;
  const what = value.what === 'log' ? 'log' : value.what === 'list' ? 'list' : null;
  const reason = value.reason === 'forbidden' ? 'forbidden' : value.reason === 'failed' ? 'failed' : null;
  if (what === null || reason === null) return null;
  return { what, resource: asString(value.resource), namespace: asString(value.namespace), reason, ...(typeof value.detail === 'string' ? { detail: value.detail } : {}) };
}

/**
 * The facts a saved file holds, the latest of each object (the last written wins), and its gaps.
 * `saved` undefined: the file was written before status was kept, so it holds none.
 */
export function factSetOf(saved: SavedStatus[] | undefined): FactSet {
  if (saved === undefined) return { objects: [], gaps: [], readAt: null, noStatus: true };
  const latest = new Map<string, ObjectFacts>();
  const gaps = new Map<string, FactGap>();
  let readAt: number | null = null;
  for (const s of saved) {
    if (s.observedAt !== null && (readAt === null || s.observedAt > readAt)) readAt = s.observedAt;
    if ('facts' in s) latest.set(factsKey(s.facts), s.facts);
    else gaps.set(`${s.missing.what}/${s.missing.resource}/${s.missing.namespace}`, s.missing);
  }
  return { objects: [...latest.values()], gaps: [...gaps.values()], readAt };
}

/** A capture's status.json. */
export function formatStatusFile(capturedAt: string, facts: FactSet): string {
  return `${JSON.stringify({ kind: STATUS_KIND, version: 1, capturedAt, items: facts.objects, missing: facts.gaps }, null, 2)}\n`;
}

/** A capture's status.json back, checked to be this capture's; null when it is not (another capture, not JSON). */
export function parseStatusFile(text: string, capturedAt: number | null): SavedStatus[] | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(doc) || doc.kind !== STATUS_KIND || capturedAt === null || Date.parse(asString(doc.capturedAt)) !== capturedAt) return null;
  const items = asArray(doc.items).flatMap((item) => {
    const facts = parseSavedFacts(item);
    return facts === null ? [] : [{ observedAt: capturedAt, facts }];
  });
  const missing = asArray(doc.missing).flatMap((item) => {
    const gap = parseSavedGap(item);
    return gap === null ? [] : [{ observedAt: capturedAt, missing: gap }];
  });
  return [...items, ...missing];
}

/** A status line of a record (see the top of this file). */
export function formatStatusLine(observedAt: number, status: { facts: ObjectFacts } | { missing: FactGap }): string {
  const line: Json = { observedAt: new Date(observedAt).toISOString(), kind: STATUS_KIND, ...status };
  return `${JSON.stringify(line)}\n`;
}

/** A status line's content back; null when it holds neither facts nor a gap it can read. */
export function parseStatusLine(value: Json, observedAt: number | null): SavedStatus | null {
  if (value.facts !== undefined) {
    const facts = parseSavedFacts(value.facts);
    return facts === null ? null : { observedAt, facts };
  }
  const gap = parseSavedGap(value.missing);
  return gap === null ? null : { observedAt, missing: gap };
}
