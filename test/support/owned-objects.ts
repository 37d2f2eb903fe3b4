// What a live source tells of a namespace's workloads for --tree tests at the port: the resources
// discovery serves for Pods, Deployments and ReplicaSets, and objects' metadata with their owner.
import type { ObjectMeta } from '../../src/core/ownership.ts';
import type { ServedResource } from '../../src/core/resources.ts';
import { NOW } from './builders.ts';

/** A namespaced resource of `group`'s v1 that may be listed and watched, as discovery serves it. */
export const servedResource = (group: string, resource: string, kind: string, shortNames: string[]): ServedResource => ({
  group,
  version: 'v1',
  resource,
  singular: kind.toLowerCase(),
  kind,
  shortNames,
  namespaced: true,
  verbs: ['get', 'list', 'watch'],
});

export const WORKLOAD_RESOURCES = [servedResource('', 'pods', 'Pod', ['po']), servedResource('apps', 'deployments', 'Deployment', ['deploy']), servedResource('apps', 'replicasets', 'ReplicaSet', ['rs'])];

/** An object in op-events, created `age` seconds before NOW, owned (as its controller) by `owner` when given. */
export function objectMeta(apiVersion: string, kind: string, name: string, uid: string, owner?: ObjectMeta, age = 600): ObjectMeta {
  const owners = owner ? [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, uid: owner.uid, controller: true }] : [];
  return { apiVersion, kind, namespace: 'op-events', name, uid, owners, created: NOW - age * 1000, deleting: null };
}
