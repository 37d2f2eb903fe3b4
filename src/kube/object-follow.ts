// One object followed as it changes, for `wait`: the collection of its resource listed and watched
// with a metadata.name field selector (what `kubectl rollout status` and `kubectl wait` do: a
// ListWatch narrowed by fields.OneTermEqualSelector("metadata.name", name)), through the same
// list/watch/resume/relist-on-410 loop as the events (kube/watch.ts followEvents). And the objects a
// rollout made (a Deployment's ReplicaSets, a StatefulSet's or DaemonSet's ControllerRevisions),
// metadata only, to tell when this rollout began.
import type { FollowOptions, FollowStep, WatchedObject } from '../core/source.ts';
import type { ObjectMeta } from '../core/ownership.ts';
import { isObject } from '../core/json.ts';
import { objectMetaOf } from '../core/object-meta.ts';
import { pathSegment } from './api-names.ts';
import { listCollection } from './events-api.ts';
import type { KubeTarget } from './kubeconfig.ts';
import { followEvents } from './watch.ts';

function resourcePath(o: { group: string; version: string; resource: string; namespaced: boolean }, namespace: string): string {
  const root = o.group === '' ? `/api/${o.version}` : `/apis/${o.group}/${o.version}`;
  const scope = o.namespaced ? `/namespaces/${pathSegment('namespace', namespace)}` : '';
  return `${root}${scope}/${pathSegment('resource', o.resource)}`;
}

export function followObject(target: KubeTarget, o: WatchedObject, opts: FollowOptions, timeoutMs: number): AsyncIterable<FollowStep> {
  // Checked before any request: a name that cannot be one never reaches a path or a selector.
  pathSegment('resource name', o.name);
  const namespace = o.namespaced ? o.namespace : null;
  return followEvents(target, {
    ...opts,
    namespace,
    requestTimeoutMs: timeoutMs,
    fieldSelector: `metadata.name=${o.name}`,
    collection: { path: resourcePath(o, o.namespace), noun: o.resource },
  });
}

const METADATA_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

/** The objects of `of` in the namespace that `ownerUid` owns, metadata only. */
export async function listOwned(target: KubeTarget, of: { group: string; version: string; resource: string; kind: string }, namespace: string, ownerUid: string, timeoutMs: number): Promise<ObjectMeta[]> {
  const path = resourcePath({ ...of, namespaced: true }, namespace);
  const apiVersion = of.group === '' ? of.version : `${of.group}/${of.version}`;
  const list = await listCollection(target, path, `${of.resource} in namespace ${namespace}`, of.resource, { timeoutMs, accept: METADATA_LIST });
  return list.items.flatMap((item) => {
    const meta = isObject(item) ? objectMetaOf(item.metadata, { apiVersion, kind: of.kind }) : null;
    return meta !== null && meta.owners.some((owner) => owner.uid === ownerUid) ? [meta] : [];
  });
}
